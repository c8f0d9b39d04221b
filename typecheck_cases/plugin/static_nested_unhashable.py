"""Static[...] whose unhashable part is nested: a frozen dataclass holding an array, a tuple holding a list."""

import dataclasses

import jax

from jaxdc import Static, pytree_dataclass


@dataclasses.dataclass(frozen=True)
class Holder:
    table: jax.Array


@pytree_dataclass  # runtime: raises TypeError
class Model:
    held: Static[Holder]  # E: mypy-plugin jaxdc-static: static field 'held' of class 'Model' has unhashable type 'Holder': frozen dataclass 'Holder' has field 'table' of unhashable type 'jax.Array' (arrays are not hashable). Static values are part of the treedef and used as jit cache keys, so they must be hashable. Fix: make 'held' a data field, or give 'Holder.table' a hashable type.
    pair: Static[tuple[int, list[str]]]  # E: ty invalid-type-arguments  # E: zuban type-var  # E: mypy-plugin jaxdc-static: static field 'pair' of class 'Model' has unhashable type 'list[str]': 'list' is mutable and not hashable. Static values are part of the treedef and used as jit cache keys, so they must be hashable. Fix: use an immutable type such as tuple[...] or frozenset[...], or make 'pair' a data field.
