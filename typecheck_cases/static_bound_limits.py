"""Static[...] of a type the stubs' bound cannot judge (TypeVars, Protocols, Hashable): correct code."""

from collections.abc import Hashable
from typing import Generic, Protocol, TypeVar

import jax
import jax.numpy as jnp

from jaxdc import Static, pytree_dataclass

T = TypeVar("T")
O = TypeVar("O", bound=object)  # the same type variable, as ty accepts it in Static[...]
H = TypeVar("H", bound=Hashable)


class Runner(Protocol):
    def run(self) -> int: ...


class HashableRunner(Protocol):
    """The spelling that is clean everywhere: the Protocol promises what a static needs."""

    def run(self) -> int: ...
    def __hash__(self) -> int: ...
    def __eq__(self, other: object, /) -> bool: ...


class Job:
    def run(self) -> int:
        return 1


@pytree_dataclass
class Model(Generic[T, H, O]):
    w: jax.Array
    key: Static[T]  # E: ty invalid-type-arguments
    tag: Static[H]  # E: mypy type-var
    runner: Static[Runner]  # E: ty invalid-type-arguments  # E: zuban,mypy type-var
    anything: Static[Hashable]  # E: mypy type-var
    promised: Static[HashableRunner]
    said: Static[O]


Model(jnp.zeros(2), 1, "t", Job(), 3, Job(), 4)
