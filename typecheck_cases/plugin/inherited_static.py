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
    sizes: list[int]  # E: mypy jaxdc-static
