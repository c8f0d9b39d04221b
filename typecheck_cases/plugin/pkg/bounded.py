"""Verdicts through TypeVar bounds: a Static[ArrayT] and a data TextT."""

from typing import Generic, TypeVar

import jax
from jaxdc import Static, pytree_dataclass

ArrayT = TypeVar("ArrayT", bound=jax.Array)
TextT = TypeVar("TextT", bound=str)


@pytree_dataclass  # runtime: raises TypeError
class Bounded(Generic[ArrayT, TextT]):
    bad_static: Static[ArrayT]  # E: pyright,basedpyright reportInvalidTypeForm  # E: ty invalid-type-arguments  # E: pyrefly bad-specialization  # E: zuban,mypy type-var  # E: mypy-plugin jaxdc-static: static field 'bad_static' of class 'Bounded' has unhashable type 'jax.Array': arrays are not hashable. Static values are part of the treedef and used as jit cache keys, so they must be hashable. Fix: make 'bad_static' a data field (drop Static[...] / static=True).
    bad_data: TextT  # E: mypy-plugin jaxdc-data: data field 'bad_data' of class 'Bounded' has type 'TextT', which is not array-like: 'str' is not an array type. Data fields are pytree children that JAX traces as arrays. Fix: declare it Static[TextT] if it is configuration.
