from collections.abc import Callable, Mapping
from dataclasses import _MISSING_TYPE
from typing import Any, Literal, TypeAlias, TypeVar, overload

_T = TypeVar("_T")
_S = TypeVar("_S")
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
    converter: None = None,
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
    converter: None = None,
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
    converter: None = None,
) -> Any: ...

# `converter=` (the typing spec's dataclass_transform converter): `__init__` (and, from
# 3.13, `replace`) takes the converter's first parameter type `_S`; a default must be of that
# type. The return is `Any`, not `_T`: pyright, basedpyright and ty check the converter's
# return against the annotation themselves, and `_T` made pyright report that mistake twice
# (pyrefly and zuban then miss it; the mypy plugin reports it as `jaxdc-converter`).
@overload
def field(
    *,
    default: _S,
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
    converter: Callable[[_S], _T],
) -> Any: ...
@overload
def field(
    *,
    default: _Missing = ...,
    default_factory: Callable[[], _S],
    init: bool = True,
    repr: bool = True,
    hash: bool | None = None,
    compare: bool = True,
    metadata: Mapping[Any, Any] | None = None,
    kw_only: bool | _Missing = ...,
    static: bool | None = None,
    pytree: bool | None = None,
    pytree_node: bool | None = None,
    converter: Callable[[_S], _T],
) -> Any: ...
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
    converter: Callable[[Any], object],
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
    converter: None = None,
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
    converter: None = None,
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
    converter: None = None,
) -> Any: ...
@overload
def static_field(
    *,
    default: _S,
    default_factory: _Missing = ...,
    init: bool = True,
    repr: bool = True,
    hash: bool | None = None,
    compare: bool = True,
    metadata: Mapping[Any, Any] | None = None,
    kw_only: bool | _Missing = ...,
    converter: Callable[[_S], _T],
) -> Any: ...
@overload
def static_field(
    *,
    default: _Missing = ...,
    default_factory: Callable[[], _S],
    init: bool = True,
    repr: bool = True,
    hash: bool | None = None,
    compare: bool = True,
    metadata: Mapping[Any, Any] | None = None,
    kw_only: bool | _Missing = ...,
    converter: Callable[[_S], _T],
) -> Any: ...
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
    converter: Callable[[Any], object],
) -> Any: ...
