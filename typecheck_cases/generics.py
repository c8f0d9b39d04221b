"""Generics: a generic pytree dataclass is specialised by its arguments."""

from typing import Generic, TypeVar

import jax
import jax.numpy as jnp
from typing_extensions import assert_type

from jaxdc import Static, pytree_dataclass

T = TypeVar("T")


@pytree_dataclass
class Pair(Generic[T]):
    first: T
    second: T
    tag: Static[str] = ""


pair = Pair(jnp.zeros(2), jnp.ones(2))
assert_type(pair, Pair[jax.Array])
assert_type(Pair[int](1, 2).first, int)
Pair[int](1, "two")  # E: pyright,basedpyright reportArgumentType  # E: ty invalid-argument-type  # E: pyrefly bad-argument-type  # E: zuban,mypy,mypy-plugin arg-type
