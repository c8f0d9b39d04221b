"""`jaxdc.attr(...).set()` outside __init__/__post_init__ and copy_and_mutate blocks."""

import jax
import jax.numpy as jnp

import jaxdc
from jaxdc import pytree_dataclass


@pytree_dataclass
class State:
    w: jax.Array


state = State(jnp.zeros(2))
with jaxdc.copy_and_mutate(state) as new:
    jaxdc.attr(new, lambda s: s.w).set(jnp.ones(2))
jaxdc.attr(state, lambda s: s.w).set(jnp.ones(2))  # E: mypy jaxdc-mutation  # runtime: raises FrozenInstanceError
