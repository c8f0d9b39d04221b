"""chex.dataclass API (`jaxdc.compat.chex_dataclass`): classes other modules hold in fields."""

import jax

from jaxdc.compat import chex_dataclass as chex


@chex.dataclass
class Position:
    xy: jax.Array


@chex.dataclass(frozen=True)
class Velocity:
    dxy: jax.Array
