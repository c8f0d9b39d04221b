"""Custom __init__/__post_init__: plain `self.x = ...` runs, but checkers see a frozen class."""

import jax
import jax.numpy as jnp

from jaxdc import field, pytree_dataclass


@pytree_dataclass
class Linear:
    w: jax.Array

    def __init__(self, n: int) -> None:
        self.w = jnp.zeros(n)  # E: pyright reportAttributeAccessIssue  # E: mypy misc


@pytree_dataclass
class Stats:
    xs: jax.Array
    mean: jax.Array = field(init=False, pytree=True)

    def __post_init__(self) -> None:
        self.mean = self.xs.mean()  # E: pyright reportAttributeAccessIssue  # E: mypy misc


assert Linear(2).w.shape == (2,)
assert float(Stats(jnp.arange(3.0)).mean) == 1.0
