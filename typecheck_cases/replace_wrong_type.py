"""replace: a value of the wrong type (the mypy plugin, and from 3.13 each checker with `__replace__`)."""

import jax
import jax.numpy as jnp

import jaxdc
from jaxdc import Static, pytree_dataclass


@pytree_dataclass
class State:
    params: jax.Array
    step: Static[int] = 0


jaxdc.replace(State(jnp.zeros(3)), step="one")  # E: pyright@3.13,basedpyright@3.13 reportArgumentType  # E: ty@3.13 invalid-argument-type  # E: pyrefly@3.13 bad-argument-type  # E: mypy@3.13,mypy-plugin arg-type
