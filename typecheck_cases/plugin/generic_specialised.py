"""A generic base's Static[T] specialised to an unhashable type by a subclass."""

from typing import Generic, TypeVar

import jax

from jaxdc import PyTreeNode, Static

T = TypeVar("T")


class Base(PyTreeNode, Generic[T]):
    key: Static[T]
    w: jax.Array


class Sizes(Base[tuple[int, ...]]):
    pass


class Lists(Base[list[int]]):  # E: mypy jaxdc-static  # E: mypy type-var
    pass
