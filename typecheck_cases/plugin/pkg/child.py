"""Subclasses in another module: concrete type arguments, inherited static-ness."""  # E: mypy type-var

import jax
from jaxdc import pytree_dataclass

from .base import Base, Keyed


class Hashes(Base[int]):
    pass


class Lists(Base[list[int]]):  # E: mypy type-var  # E: mypy-plugin jaxdc-static: static field 'key' of class 'Lists' has unhashable type 'list[int]': 'list' is mutable and not hashable. Static values are part of the treedef and used as jit cache keys, so they must be hashable. Fix: use an immutable type such as tuple[...] or frozenset[...], or make 'key' a data field.
    pass


class Texts(Base[str]):  # E: mypy-plugin jaxdc-data: data field 'value' of class 'Texts' has type 'str', which is not array-like: 'str' is not an array type. Data fields are pytree children that JAX traces as arrays. Fix: declare it Static[str] if it is configuration.
    pass


@pytree_dataclass  # runtime: raises TypeError
class Resized(Keyed):
    sizes: list[int]  # E: mypy-plugin jaxdc-static: static field 'sizes' of class 'Resized' has unhashable type 'list[int]': 'list' is mutable and not hashable. Static values are part of the treedef and used as jit cache keys, so they must be hashable. Fix: use an immutable type such as tuple[...] or frozenset[...], or make 'sizes' a data field.
    extra: jax.Array


class MoreLists(Lists):
    extra: jax.Array
