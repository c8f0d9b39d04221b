"""Setting a field left out of the pytree (pytree=False) during construction."""

import jax
import jax.numpy as jnp

import jaxdc
from jaxdc import field, pytree_dataclass


@pytree_dataclass
class Stats:
    xs: jax.Array
    count: int = field(pytree=False, init=False, default=0)

    def __post_init__(self) -> None:
        jaxdc.attr(self, lambda s: s.count).set(len(self.xs))  # E: mypy-plugin jaxdc-mutation: field 'count' of class 'Stats' is left out of the pytree (pytree=False), so a value set during construction would be lost after jit/vmap/tree_map (jaxdc never re-runs __init__/__post_init__ on unflatten). Fix: drop pytree=False to carry it in the pytree (Static[...] if it is configuration), or compute it in a property.  # runtime: raises TypeError


Stats(jnp.zeros(3))
