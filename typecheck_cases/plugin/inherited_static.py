"""A subclass redeclaring an inherited static field keeps it static (and so hashable)."""

from collections.abc import Sequence

import jax

from jaxdc import Static, pytree_dataclass


@pytree_dataclass
class Base:
    sizes: Static[Sequence[int]]
    w: jax.Array


@pytree_dataclass  # runtime: raises TypeError
class Child(Base):
    sizes: list[int]  # E: mypy-plugin jaxdc-static: static field 'sizes' of class 'Child' has unhashable type 'list[int]': 'list' is mutable and not hashable. Static values are part of the treedef and used as jit cache keys, so they must be hashable. Fix: use an immutable type such as tuple[...] or frozenset[...], or make 'sizes' a data field.
