from collections.abc import Callable, Mapping
from typing import Any, TypeVar, overload

_T = TypeVar("_T")

# Overloads return `_T` (not a `Field[_T]`) so `x: int = field(default=1)` type-checks the
# default against the annotation, as typeshed does for `dataclasses.field`.
@overload
def field(
    *,
    default: _T,
    init: bool = True,
    repr: bool = True,
    hash: bool | None = None,
    compare: bool = True,
    metadata: Mapping[Any, Any] | None = None,
    kw_only: bool = ...,
    static: bool | None = None,
    pytree: bool | None = None,
) -> _T: ...
@overload
def field(
    *,
    default_factory: Callable[[], _T],
    init: bool = True,
    repr: bool = True,
    hash: bool | None = None,
    compare: bool = True,
    metadata: Mapping[Any, Any] | None = None,
    kw_only: bool = ...,
    static: bool | None = None,
    pytree: bool | None = None,
) -> _T: ...
@overload
def field(
    *,
    init: bool = True,
    repr: bool = True,
    hash: bool | None = None,
    compare: bool = True,
    metadata: Mapping[Any, Any] | None = None,
    kw_only: bool = ...,
    static: bool | None = None,
    pytree: bool | None = None,
) -> Any: ...

# `static_field(**kw)` is `field(static=True, **kw)`; spelled out so the same overloads apply.
@overload
def static_field(
    *,
    default: _T,
    init: bool = True,
    repr: bool = True,
    hash: bool | None = None,
    compare: bool = True,
    metadata: Mapping[Any, Any] | None = None,
    kw_only: bool = ...,
) -> _T: ...
@overload
def static_field(
    *,
    default_factory: Callable[[], _T],
    init: bool = True,
    repr: bool = True,
    hash: bool | None = None,
    compare: bool = True,
    metadata: Mapping[Any, Any] | None = None,
    kw_only: bool = ...,
) -> _T: ...
@overload
def static_field(
    *,
    init: bool = True,
    repr: bool = True,
    hash: bool | None = None,
    compare: bool = True,
    metadata: Mapping[Any, Any] | None = None,
    kw_only: bool = ...,
) -> Any: ...
