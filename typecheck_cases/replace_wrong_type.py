"""replace: a value of the wrong type (only the mypy plugin checks replace's keywords)."""

import jax
import jax.numpy as jnp

import jaxdc
from jaxdc import Static, pytree_dataclass


@pytree_dataclass
class State:
    params: jax.Array
    step: Static[int] = 0


jaxdc.replace(State(jnp.zeros(3)), step="one")  # E: mypy-plugin arg-type
