"""Static fields the plugin rejects, in every spelling and decorator form."""

import dataclasses
from collections import deque
from typing import Optional, TypedDict, Union

import jax
import numpy as np
from jaxdc import PyTreeNode, Static, field, pytree_dataclass, static_field
import jaxdc as jdc


@dataclasses.dataclass
class Settings:
    lr: float


@dataclasses.dataclass(frozen=True)
class Holder:
    table: jax.Array


class Tag:
    def __eq__(self, other: object) -> bool:
        return True


class Row(TypedDict):
    a: int


@pytree_dataclass  # runtime: raises TypeError
class Bare:
    a: Static[list[int]]  # E: pyright,basedpyright reportInvalidTypeForm  # E: ty invalid-type-arguments  # E: pyrefly bad-specialization  # E: zuban,mypy type-var  # E: mypy-plugin jaxdc-static: static field 'a' of class 'Bare' has unhashable type 'list[int]': 'list' is mutable and not hashable. Static values are part of the treedef and used as jit cache keys, so they must be hashable. Fix: use an immutable type such as tuple[...] or frozenset[...], or make 'a' a data field.
    b: Static[jax.Array]  # E: pyright,basedpyright reportInvalidTypeForm  # E: ty invalid-type-arguments  # E: pyrefly bad-specialization  # E: zuban,mypy type-var  # E: mypy-plugin jaxdc-static: static field 'b' of class 'Bare' has unhashable type 'jax.Array': arrays are not hashable. Static values are part of the treedef and used as jit cache keys, so they must be hashable. Fix: make 'b' a data field (drop Static[...] / static=True).
    c: Static[np.ndarray]  # E: pyright,basedpyright reportInvalidTypeForm  # E: ty invalid-type-arguments  # E: pyrefly bad-specialization  # E: zuban,mypy type-var  # E: mypy-plugin jaxdc-static: static field 'c' of class 'Bare' has unhashable type 'numpy.ndarray': arrays are not hashable. Static values are part of the treedef and used as jit cache keys, so they must be hashable. Fix: make 'c' a data field (drop Static[...] / static=True).
    d: Static[Settings]  # E: pyright,basedpyright reportInvalidTypeForm  # E: ty invalid-type-arguments  # E: pyrefly bad-specialization  # E: zuban type-var  # E: mypy-plugin jaxdc-static: static field 'd' of class 'Bare' has unhashable type 'Settings': dataclass 'Settings' is not frozen. Static values are part of the treedef and used as jit cache keys, so they must be hashable. Fix: declare 'Settings' with @dataclass(frozen=True).
    e: Static[Tag]  # E: pyright,basedpyright reportInvalidTypeForm  # E: ty invalid-type-arguments  # E: mypy-plugin jaxdc-static: static field 'e' of class 'Bare' has unhashable type 'Tag': 'Tag' defines __eq__ but not __hash__. Static values are part of the treedef and used as jit cache keys, so they must be hashable. Fix: define __hash__ on 'Tag'.
    f: Static[Holder]  # E: mypy-plugin jaxdc-static: static field 'f' of class 'Bare' has unhashable type 'Holder': frozen dataclass 'Holder' has field 'table' of unhashable type 'jax.Array' (arrays are not hashable). Static values are part of the treedef and used as jit cache keys, so they must be hashable. Fix: make 'f' a data field, or give 'Holder.table' a hashable type.
    g: Static[tuple[int, list[str]]]  # E: ty invalid-type-arguments  # E: zuban type-var  # E: mypy-plugin jaxdc-static: static field 'g' of class 'Bare' has unhashable type 'list[str]': 'list' is mutable and not hashable. Static values are part of the treedef and used as jit cache keys, so they must be hashable. Fix: use an immutable type such as tuple[...] or frozenset[...], or make 'g' a data field.
    h: Static[Optional[dict[str, int]]]  # E: pyright,basedpyright reportInvalidTypeForm  # E: ty invalid-type-arguments  # E: pyrefly bad-specialization  # E: zuban,mypy type-var  # E: mypy-plugin jaxdc-static: static field 'h' of class 'Bare' has unhashable type 'dict[str, int]': 'dict' is mutable and not hashable. Static values are part of the treedef and used as jit cache keys, so they must be hashable. Fix: use an immutable type such as tuple[...] or frozenset[...], or make 'h' a data field.
    i: Static[Union[int, set[int]]]  # E: pyright,basedpyright reportInvalidTypeForm  # E: ty invalid-type-arguments  # E: pyrefly bad-specialization  # E: zuban,mypy type-var  # E: mypy-plugin jaxdc-static: static field 'i' of class 'Bare' has unhashable type 'set[int]': 'set' is mutable and not hashable. Static values are part of the treedef and used as jit cache keys, so they must be hashable. Fix: use an immutable type such as tuple[...] or frozenset[...], or make 'i' a data field.
    j: jdc.Static[bytearray]  # E: pyright,basedpyright reportInvalidTypeForm  # E: ty invalid-type-arguments  # E: pyrefly bad-specialization  # E: zuban,mypy type-var  # E: mypy-plugin jaxdc-static: static field 'j' of class 'Bare' has unhashable type 'bytearray': 'bytearray' is mutable and not hashable. Static values are part of the treedef and used as jit cache keys, so they must be hashable. Fix: use an immutable type such as tuple[...] or frozenset[...], or make 'j' a data field.
    k: Static[deque[int]]  # E: pyright,basedpyright reportInvalidTypeForm  # E: ty invalid-type-arguments  # E: pyrefly bad-specialization  # E: zuban,mypy type-var  # E: mypy-plugin jaxdc-static: static field 'k' of class 'Bare' has unhashable type 'deque[int]': 'deque' is mutable and not hashable. Static values are part of the treedef and used as jit cache keys, so they must be hashable. Fix: use an immutable type such as tuple[...] or frozenset[...], or make 'k' a data field.
    m: Static[Row]  # E: pyright,basedpyright reportInvalidTypeForm  # E: ty invalid-type-arguments  # E: mypy-plugin jaxdc-static: static field 'm' of class 'Bare' has unhashable type 'Row': TypedDict 'Row' is a dict, which is mutable and not hashable. Static values are part of the treedef and used as jit cache keys, so they must be hashable. Fix: use a NamedTuple or a frozen dataclass instead of 'Row', or make 'm' a data field.


@pytree_dataclass(kw_only=True)
class CallForm:
    a: list[int] = field(static=True)  # E: mypy-plugin jaxdc-static: static field 'a' of class 'CallForm' has unhashable type 'list[int]': 'list' is mutable and not hashable. Static values are part of the treedef and used as jit cache keys, so they must be hashable. Fix: use an immutable type such as tuple[...] or frozenset[...], or make 'a' a data field.
    b: dict[str, int] = field(metadata={"static": True})  # E: mypy-plugin jaxdc-static: static field 'b' of class 'CallForm' has unhashable type 'dict[str, int]': 'dict' is mutable and not hashable. Static values are part of the treedef and used as jit cache keys, so they must be hashable. Fix: use an immutable type such as tuple[...] or frozenset[...], or make 'b' a data field.
    c: jax.Array = static_field()  # E: mypy-plugin jaxdc-static: static field 'c' of class 'CallForm' has unhashable type 'jax.Array': arrays are not hashable. Static values are part of the treedef and used as jit cache keys, so they must be hashable. Fix: make 'c' a data field (drop Static[...] / static=True).
    d: Static[jax.Array] = field(pytree=False, default_factory=lambda: jax.numpy.zeros(1))  # E: pyright,basedpyright reportInvalidTypeForm  # E: ty invalid-type-arguments  # E: pyrefly bad-specialization  # E: zuban,mypy type-var


class Node(PyTreeNode, kw_only=True):
    a: Static[jax.Array]  # E: pyright,basedpyright reportInvalidTypeForm  # E: ty invalid-type-arguments  # E: pyrefly bad-specialization  # E: zuban,mypy type-var  # E: mypy-plugin jaxdc-static: static field 'a' of class 'Node' has unhashable type 'jax.Array': arrays are not hashable. Static values are part of the treedef and used as jit cache keys, so they must be hashable. Fix: make 'a' a data field (drop Static[...] / static=True).
    b: set[int] = field(static=True)  # E: mypy-plugin jaxdc-static: static field 'b' of class 'Node' has unhashable type 'set[int]': 'set' is mutable and not hashable. Static values are part of the treedef and used as jit cache keys, so they must be hashable. Fix: use an immutable type such as tuple[...] or frozenset[...], or make 'b' a data field.
    ok: jax.Array


class Ignored(PyTreeNode):
    a: Static[jax.Array]  # type: ignore[jaxdc-static]  # E: ty invalid-type-arguments  # E: zuban,mypy type-var  # E: mypy unused-ignore
