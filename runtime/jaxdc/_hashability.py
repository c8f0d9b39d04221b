"""Which static *types* are certainly unhashable, decided at class definition.

The same rules and the same wording are used by the mypy plugin (`jaxdc_mypy`), so a
user sees one message whichever layer catches the mistake. Types that cannot be
resolved at runtime are not judged here; their values are still checked (`hash()`)
when an instance is constructed.
"""

from __future__ import annotations

import collections
import collections.abc
import dataclasses
import types
import typing
from dataclasses import dataclass
from typing import Any, get_args, get_origin

import jax
import numpy as np

from jaxdc._annotations import Namespaces, UnresolvedName, resolve

__all__ = ["Unhashable", "class_name", "find_unhashable", "static_type_message", "type_name"]

_MUTABLE_BUILTINS = (list, dict, set, bytearray, collections.deque)
_ALWAYS_HASHABLE_ORIGINS = {type, typing.Literal, collections.abc.Callable, typing.ClassVar}


@dataclass(frozen=True)
class Unhashable:
    """The offending part of a static type, why it is unhashable, and the fix."""

    type: str
    reason: str
    fix: str


def class_name(klass: type) -> str:
    """A class as shown in messages: its qualified name without `<locals>` noise."""
    return klass.__qualname__.rsplit("<locals>.", 1)[-1]


def type_name(tp: Any) -> str:
    """How a type is shown in messages: `list[int]`, `jax.Array`, `numpy.ndarray`, `Cfg`."""
    if isinstance(tp, type) and not isinstance(tp, types.GenericAlias):
        if tp is jax.Array:
            return "jax.Array"
        if tp.__module__ == "numpy":
            return f"numpy.{tp.__qualname__}"
        return class_name(tp)
    return repr(tp).replace("typing.", "")


def static_type_message(cls_name: str, field_name: str, problem: Unhashable) -> str:
    """The class-definition error; `jaxdc_mypy` emits the same sentence."""
    return (
        f"static field '{field_name}' of class '{cls_name}' has unhashable type "
        f"'{problem.type}': {problem.reason}. Static values are part of the treedef and "
        f"used as jit cache keys, so they must be hashable. Fix: {problem.fix}."
    )


def find_unhashable(
    tp: Any, field_name: str, _seen: frozenset[int] = frozenset()
) -> Unhashable | None:
    """The first certainly-unhashable part of the resolved type `tp`, or None."""
    if id(tp) in _seen:
        return None
    seen = _seen | {id(tp)}
    origin = get_origin(tp)
    if origin in (typing.Annotated,):
        return find_unhashable(get_args(tp)[0], field_name, seen)
    if isinstance(tp, typing.TypeVar):
        return find_unhashable(tp.__bound__, field_name, seen) if tp.__bound__ else None
    if origin in (typing.Union, types.UnionType, tuple, frozenset):
        for arg in get_args(tp):
            if arg is not Ellipsis and (problem := find_unhashable(arg, field_name, seen)):
                return problem
        return None
    if origin in _ALWAYS_HASHABLE_ORIGINS or tp in _ALWAYS_HASHABLE_ORIGINS:
        return None
    klass = origin if isinstance(origin, type) else tp
    if not isinstance(klass, type):
        return None  # Any, NewType, strings we could not resolve, ...
    return _class_problem(klass, tp, field_name, seen)


def _class_problem(
    klass: type, tp: Any, field_name: str, seen: frozenset[int]
) -> Unhashable | None:
    shown = type_name(tp)
    if issubclass(klass, (np.ndarray, jax.Array)):
        return Unhashable(
            shown,
            "arrays are not hashable",
            f"make '{field_name}' a data field (drop Static[...] / static=True)",
        )
    if issubclass(klass, _MUTABLE_BUILTINS) or (
        klass.__module__ == "builtins" and klass.__hash__ is None
    ):
        return Unhashable(
            shown,
            f"'{class_name(klass)}' is mutable and not hashable",
            "use an immutable type such as tuple[...] or frozenset[...], "
            f"or make '{field_name}' a data field",
        )
    if dataclasses.is_dataclass(klass):
        if not klass.__dataclass_params__.frozen and klass.__hash__ is None:  # type: ignore[attr-defined]
            return Unhashable(
                shown,
                f"dataclass '{class_name(klass)}' is not frozen",
                f"declare '{class_name(klass)}' with @dataclass(frozen=True)",
            )
        return _frozen_dataclass_problem(klass, field_name, seen)
    if klass.__hash__ is None:
        return Unhashable(
            shown,
            f"'{class_name(klass)}' defines __eq__ but not __hash__",
            f"define __hash__ on '{class_name(klass)}'",
        )
    return None


def _frozen_dataclass_problem(
    klass: type, field_name: str, seen: frozenset[int]
) -> Unhashable | None:
    """A frozen dataclass is hashable only if all its compared fields are."""
    ns = Namespaces.for_class(klass, None)
    for f in dataclasses.fields(klass):
        if not f.compare and f.hash is not True:
            continue
        try:
            field_type = resolve(f.type, ns)
        except UnresolvedName:
            continue
        inner = find_unhashable(field_type, field_name, seen)
        if inner is not None:
            return Unhashable(
                type_name(klass),
                f"frozen dataclass '{class_name(klass)}' has field '{f.name}' of "
                f"unhashable type '{inner.type}' ({inner.reason})",
                f"make '{field_name}' a data field, or give '{class_name(klass)}."
                f"{f.name}' a hashable type",
            )
    return None
