"""State dicts: `from_state_dict` returns the target's type; the state must be a mapping."""

from typing import Any

import jax
import jax.numpy as jnp
from typing_extensions import assert_type

import jaxdc
from jaxdc import Static, pytree_dataclass


@pytree_dataclass
class Model:
    w: jax.Array
    name: Static[str] = "m"


model = Model(jnp.zeros(2))
state = jaxdc.to_state_dict(model)
assert_type(state, dict[str, Any])
restored = jaxdc.from_state_dict(model, state)
assert_type(restored, Model)
jaxdc.from_state_dict(model, {"w": jnp.zeros(3)})  # runtime: raises ValueError
jaxdc.from_state_dict(model, [jnp.zeros(2)])  # E: pyright,basedpyright reportArgumentType  # E: ty invalid-argument-type  # E: pyrefly bad-argument-type  # E: zuban,mypy,mypy-plugin arg-type
