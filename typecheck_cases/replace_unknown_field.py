"""replace: an unknown field name is rejected (at runtime, and by the mypy plugin)."""

import jax
import jax.numpy as jnp

import jaxdc
from jaxdc import pytree_dataclass


@pytree_dataclass
class State:
    params: jax.Array


jaxdc.replace(State(jnp.zeros(3)), parms=jnp.ones(3))  # E: mypy-plugin call-arg  # runtime: raises TypeError
