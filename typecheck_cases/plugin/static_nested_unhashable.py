"""Static[...] whose unhashable part is nested: a frozen dataclass holding an array, a tuple holding a list."""

import dataclasses

import jax

from jaxdc import Static, pytree_dataclass


@dataclasses.dataclass(frozen=True)
class Holder:
    table: jax.Array


@pytree_dataclass  # runtime: raises TypeError
class Model:
    held: Static[Holder]  # E: mypy jaxdc-static
    pair: Static[tuple[int, list[str]]]  # E: mypy jaxdc-static
