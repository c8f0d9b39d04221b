"""Custom __init__/__post_init__: plain `self.x = ...` (mypy + plugin accepts it; stub-only checkers see a frozen class)."""

import jax
import jax.numpy as jnp

from jaxdc import field, pytree_dataclass


@pytree_dataclass
class Linear:
    w: jax.Array
    b: jax.Array

    def __init__(self, n: int) -> None:
        self.w = jnp.zeros(n)  # E: pyright,basedpyright reportAttributeAccessIssue  # E: ty invalid-assignment  # E: pyrefly read-only  # E: mypy misc
        self.b = "zeros"  # E: pyright,basedpyright reportAttributeAccessIssue  # E: ty invalid-assignment  # E: pyrefly read-only  # E: zuban,mypy,mypy-plugin assignment  # E: mypy misc


@pytree_dataclass
class Stats:
    xs: jax.Array
    mean: jax.Array = field(init=False, pytree=True)
    count: int = field(pytree=False, default=0)

    def __post_init__(self) -> None:
        self.mean = self.xs.mean()  # E: pyright,basedpyright reportAttributeAccessIssue  # E: ty invalid-assignment  # E: pyrefly read-only  # E: mypy misc
        self.count = 3  # E: pyright,basedpyright reportAttributeAccessIssue  # E: ty invalid-assignment  # E: pyrefly read-only  # E: mypy misc  # E: mypy-plugin jaxdc-mutation: field 'count' of class 'Stats' is left out of the pytree (pytree=False), so a value set during construction would be lost after jit/vmap/tree_map (jaxdc never re-runs __init__/__post_init__ on unflatten). Fix: drop pytree=False to carry it in the pytree (Static[...] if it is configuration), or compute it in a property.  # runtime: raises TypeError


assert Linear(2).w.shape == (2,)
assert float(Stats(jnp.arange(3.0)).mean) == 1.0
