from collections.abc import Callable, Mapping
from dataclasses import _MISSING_TYPE
from typing import Any, Literal, TypeAlias, TypeVar, overload

_T = TypeVar("_T")
# The runtime's "not given" default is dataclasses.MISSING, spelled as typeshed does.
_Missing: TypeAlias = Literal[_MISSING_TYPE.MISSING]

# Overloads return `_T` (not a `Field[_T]`) so `x: int = field(default=1)` checks the default
# against the annotation (pyright #5102, #7241); `default` and `default_factory` exclude
# each other, as in typeshed's `dataclasses.field`.
@overload
def field(
    *,
    default: _T,
    default_factory: _Missing = ...,
    init: bool = True,
    repr: bool = True,
    hash: bool | None = None,
    compare: bool = True,
    metadata: Mapping[Any, Any] | None = None,
    kw_only: bool | _Missing = ...,
    static: bool | None = None,
    pytree: bool | None = None,
    pytree_node: bool | None = None,
) -> _T: ...
@overload
def field(
    *,
    default: _Missing = ...,
    default_factory: Callable[[], _T],
    init: bool = True,
    repr: bool = True,
    hash: bool | None = None,
    compare: bool = True,
    metadata: Mapping[Any, Any] | None = None,
    kw_only: bool | _Missing = ...,
    static: bool | None = None,
    pytree: bool | None = None,
    pytree_node: bool | None = None,
) -> _T: ...
@overload
def field(
    *,
    default: _Missing = ...,
    default_factory: _Missing = ...,
    init: bool = True,
    repr: bool = True,
    hash: bool | None = None,
    compare: bool = True,
    metadata: Mapping[Any, Any] | None = None,
    kw_only: bool | _Missing = ...,
    static: bool | None = None,
    pytree: bool | None = None,
    pytree_node: bool | None = None,
) -> Any: ...

# `static_field(**kw)` is `field(static=True, **kw)`; spelled out so the same checks apply.
@overload
def static_field(
    *,
    default: _T,
    default_factory: _Missing = ...,
    init: bool = True,
    repr: bool = True,
    hash: bool | None = None,
    compare: bool = True,
    metadata: Mapping[Any, Any] | None = None,
    kw_only: bool | _Missing = ...,
) -> _T: ...
@overload
def static_field(
    *,
    default: _Missing = ...,
    default_factory: Callable[[], _T],
    init: bool = True,
    repr: bool = True,
    hash: bool | None = None,
    compare: bool = True,
    metadata: Mapping[Any, Any] | None = None,
    kw_only: bool | _Missing = ...,
) -> _T: ...
@overload
def static_field(
    *,
    default: _Missing = ...,
    default_factory: _Missing = ...,
    init: bool = True,
    repr: bool = True,
    hash: bool | None = None,
    compare: bool = True,
    metadata: Mapping[Any, Any] | None = None,
    kw_only: bool | _Missing = ...,
) -> Any: ...
