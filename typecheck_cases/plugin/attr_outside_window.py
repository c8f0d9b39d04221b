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
jaxdc.attr(state, lambda s: s.w).set(jnp.ones(2))  # E: mypy-plugin jaxdc-mutation: cannot assign to field 'w' of 'State': jaxdc instances are frozen, like JAX arrays; fields can be set only on `self` in __init__/__post_init__ or inside `with jaxdc.copy_and_mutate(...)`. Fix: jaxdc.replace(obj, w=...), or `with jaxdc.copy_and_mutate(obj) as new: new.w = ...` (spelled `jaxdc.attr(new, lambda n: n.w).set(...)` where type checkers must accept it).  # runtime: raises FrozenInstanceError
