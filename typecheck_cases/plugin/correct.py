"""Correct code: hashable statics, array-like data, excluded fields, attr, replace; no diagnostic."""

import dataclasses
import enum
from collections.abc import Mapping, Sequence
from typing import Any, Callable, ClassVar, Generic, Literal, NamedTuple, Optional, TypeVar

import jax
import jax.numpy as jnp
import numpy as np
from jax.typing import ArrayLike
from jaxtyping import Array, Float

import jaxdc
from jaxdc import PyTreeNode, Static, field, pytree_dataclass, static_field

T = TypeVar("T")


class Mode(enum.Enum):
    A = 1


class Point(NamedTuple):
    x: int
    y: int


@dataclasses.dataclass(frozen=True)
class Config:
    depth: int
    names: tuple[str, ...]


class Keyed:
    def __eq__(self, other: object) -> bool:
        return True

    def __hash__(self) -> int:
        return 0


@pytree_dataclass
class Leafy:
    w: jax.Array
    b: Float[Array, "n"]
    n: np.ndarray
    s: np.float32
    i: int
    f: float
    c: complex
    flag: bool
    maybe: Optional[jax.Array]
    many: list[jax.Array]
    tup: tuple[jax.Array, ...]
    named: dict[str, jax.Array]
    seq: Sequence[jax.Array]
    mapping: Mapping[str, np.ndarray]
    like: ArrayLike
    anything: Any


@pytree_dataclass(kw_only=True)
class Statics:
    a: Static[int]
    b: Static[str]
    c: Static[type[int]]
    d: Static[Callable[[int], int]]
    e: Static[Literal["x", "y"]]
    f: Static[Mode]
    g: Static[None]
    h: Static[frozenset[int]]
    i: Static[tuple[int, ...]]
    j: Static[Config]
    k: Static[Point]
    m: Static[Keyed]
    n: Static[Optional[tuple[str, int]]]
    o: tuple[int, ...] = field(static=True, default=(1,))
    p: str = static_field(default="p")


@pytree_dataclass
class Custom:
    w: jax.Array
    name: Static[str]

    def __init__(self, n: int, name: str = "c") -> None:
        jaxdc.attr(self, lambda s: s.w).set(jnp.zeros(n))
        jaxdc.attr(self, lambda s: s.name).set(name)


class Tree(PyTreeNode, Generic[T]):
    child: Custom
    value: T
    label: Static[str] = "tree"
    scratch: dict[str, int] = field(pytree=False, default_factory=dict)
    count: int = field(init=False, default=0)
    registry: ClassVar[list[str]] = []


custom = Custom(3)
with jaxdc.copy_and_mutate(custom) as edited:
    jaxdc.attr(edited, lambda c: c.w).set(jnp.ones(3))
tree = Tree(child=custom, value=1).replace(value=2, label="t")
