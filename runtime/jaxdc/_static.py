"""`Static[T]`: the annotation that makes a field (or a `jaxdc.jit` parameter) static.

Static values become part of the treedef, so JAX hashes and compares them as jit cache
keys. `Static[T]` is `Annotated[T, STATIC_MARKER]`, which keeps `T` visible to type
checkers and lets the runtime find the marker without evaluating `T` itself.
"""

from __future__ import annotations

import types
from typing import Annotated, Any, TypeVar, Union, get_args, get_origin

__all__ = ["STATIC_MARKER", "Static", "is_static_annotation", "strip_static"]

_T = TypeVar("_T")


class _StaticMarker:
    """The metadata object inside `Static[T]`; a singleton that survives pickling."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "jaxdc.STATIC_MARKER"

    def __reduce__(self) -> str:
        return "STATIC_MARKER"


STATIC_MARKER = _StaticMarker()

Static = Annotated[_T, STATIC_MARKER]


def is_static_annotation(annotation: Any) -> bool:
    """True for `Static[T]`, bare `Static`, `Annotated[T, ..., STATIC_MARKER, ...]`, and a
    union holding one of those (`Static[int] | None`, `Optional[Static[int]]`): the union
    is the field's type and the field is static, as the user marked it."""
    if get_origin(annotation) is Annotated:
        if any(meta is STATIC_MARKER for meta in annotation.__metadata__):
            return True
        return is_static_annotation(annotation.__origin__)  # Annotated[Static[int] | None, ...]
    if _is_union(annotation):
        return any(is_static_annotation(arg) for arg in get_args(annotation))
    return False


def strip_static(annotation: Any) -> Any:
    """The field's value type: `Static[T]` -> `T`, `Static[int] | None` -> `int | None`;
    anything without the marker unchanged."""
    if not is_static_annotation(annotation):
        return annotation
    if get_origin(annotation) is Annotated:
        return strip_static(annotation.__origin__)
    return Union[tuple(strip_static(arg) for arg in get_args(annotation))]  # noqa: UP007


def _is_union(annotation: Any) -> bool:
    return get_origin(annotation) in (Union, types.UnionType)
