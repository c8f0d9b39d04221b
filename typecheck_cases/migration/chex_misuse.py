"""chex.dataclass API: what the runtime warns about on the migration line, checkers report.

The classes are made inside a function: on the migration line the runtime accepts them
with a `jaxdc.MigrationWarning` (tested with the runtime); this case is about the checkers.
"""

import dataclasses
from collections.abc import Callable

import jax
import numpy as np

from jaxdc import Static
from jaxdc.compat import chex_dataclass as chex


def migrated() -> None:
    @chex.dataclass
    class Config:
        sizes: Static[list[int]]  # E: pyright,basedpyright reportInvalidTypeForm  # E: ty invalid-type-arguments  # E: pyrefly bad-specialization  # E: zuban,mypy type-var  # E: mypy-plugin jaxdc-static: static field 'sizes' of class 'Config' has unhashable type 'list[int]': 'list' is mutable and not hashable. Static values are part of the treedef and used as jit cache keys, so they must be hashable. Fix: use an immutable type such as tuple[...] or frozenset[...], or make 'sizes' a data field.
        table: Static[np.ndarray]  # E: pyright,basedpyright reportInvalidTypeForm  # E: ty invalid-type-arguments  # E: pyrefly bad-specialization  # E: zuban,mypy type-var  # E: mypy-plugin jaxdc-static: static field 'table' of class 'Config' has unhashable type 'numpy.ndarray': arrays are not hashable. Static values are part of the treedef and used as jit cache keys, so they must be hashable. Fix: make 'table' a data field (drop Static[...] / static=True).
        act: Callable[[jax.Array], jax.Array]  # E: mypy-plugin jaxdc-data: data field 'act' of class 'Config' has type 'Callable[[Array], Array]', which is not array-like: a callable is not an array. Data fields are pytree children that JAX traces as arrays. Fix: declare it Static[Callable[[Array], Array]] (functions are hashable).
        w: jax.Array

    @chex.dataclass(frozen=True, kw_only=True)
    class Keyed:
        by_name: dict[str, int] = dataclasses.field(metadata={"static": True})  # E: mypy-plugin jaxdc-static: static field 'by_name' of class 'Keyed' has unhashable type 'dict[str, int]': 'dict' is mutable and not hashable. Static values are part of the treedef and used as jit cache keys, so they must be hashable. Fix: use an immutable type such as tuple[...] or frozenset[...], or make 'by_name' a data field.
        w: jax.Array

    del Config, Keyed
