"""`from __future__ import annotations`: an unhashable Static is still rejected."""

from __future__ import annotations

import jax

import jaxdc as jdc


@jdc.pytree_dataclass  # runtime: raises TypeError
class Model:
    w: jax.Array
    sizes: jdc.Static[list[int]]  # E: pyright,basedpyright reportInvalidTypeForm  # E: ty invalid-type-arguments  # E: pyrefly bad-specialization  # E: zuban,mypy type-var  # E: mypy-plugin jaxdc-static: static field 'sizes' of class 'Model' has unhashable type 'list[int]': 'list' is mutable and not hashable. Static values are part of the treedef and used as jit cache keys, so they must be hashable. Fix: use an immutable type such as tuple[...] or frozenset[...], or make 'sizes' a data field.
