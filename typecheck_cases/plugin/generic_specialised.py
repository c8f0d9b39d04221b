"""A generic base's Static[T] specialised to an unhashable type by a subclass."""

from typing import Generic, TypeVar

import jax

from jaxdc import PyTreeNode, Static

T = TypeVar("T", bound=object)  # what no bound means; ty needs it said (docs/checker-parity.md)


class Base(PyTreeNode, Generic[T]):
    key: Static[T]
    w: jax.Array


class Sizes(Base[tuple[int, ...]]):
    pass


class Lists(Base[list[int]]):  # E: mypy type-var  # E: mypy-plugin jaxdc-static: static field 'key' of class 'Lists' has unhashable type 'list[int]': 'list' is mutable and not hashable. Static values are part of the treedef and used as jit cache keys, so they must be hashable. Fix: use an immutable type such as tuple[...] or frozenset[...], or make 'key' a data field.
    pass
