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
        jaxdc.attr(self, lambda s: s.count).set(len(self.xs))  # E: mypy jaxdc-mutation  # runtime: raises TypeError


Stats(jnp.zeros(3))
