"""Static[...] rejects a list: `list[int]`."""

from jaxdc import Static, pytree_dataclass


@pytree_dataclass  # runtime: raises TypeError
class Model:
    config: Static[list[int]]  # E: pyright,basedpyright reportInvalidTypeForm  # E: ty invalid-type-arguments  # E: pyrefly bad-specialization  # E: zuban,mypy type-var  # E: mypy-plugin jaxdc-static: static field 'config' of class 'Model' has unhashable type 'list[int]': 'list' is mutable and not hashable. Static values are part of the treedef and used as jit cache keys, so they must be hashable. Fix: use an immutable type such as tuple[...] or frozenset[...], or make 'config' a data field.
