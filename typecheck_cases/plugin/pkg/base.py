"""Generic bases: static-ness declared here and inherited by subclasses in other modules."""

from collections.abc import Sequence
from typing import Generic, TypeVar

from jaxdc import PyTreeNode, Static, pytree_dataclass

T = TypeVar("T", bound=object)  # what no bound means; ty needs it said (docs/checker-parity.md)


class Base(PyTreeNode, Generic[T]):
    key: Static[T]
    value: T


@pytree_dataclass
class Keyed:
    sizes: Static[Sequence[int]]
