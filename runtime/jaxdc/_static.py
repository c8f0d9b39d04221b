"""`Static[T]`: the annotation that makes a field (or a `jaxdc.jit` parameter) static.

Static values become part of the treedef, so JAX hashes and compares them as jit cache
keys. `Static[T]` is `Annotated[T, STATIC_MARKER]`, which keeps `T` visible to type
checkers and lets the runtime find the marker without evaluating `T` itself.
"""

from __future__ import annotations

from typing import Annotated, Any, TypeVar, get_args, get_origin

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
    """True for `Static[T]`, bare `Static`, and `Annotated[T, ..., STATIC_MARKER, ...]`."""
    return get_origin(annotation) is Annotated and any(
        meta is STATIC_MARKER for meta in annotation.__metadata__
    )


def strip_static(annotation: Any) -> Any:
    """`Static[T]` -> `T`; anything else unchanged."""
    if is_static_annotation(annotation):
        return get_args(annotation)[0]
    return annotation
