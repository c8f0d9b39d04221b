# Candidate: the Protocol design, falling back to any keyword for an object without
# `__replace__` (older targets, zuban, a class pyright gives none).
from typing import Any, Protocol, TypeVar, overload

from typing_extensions import ParamSpec, Self

_T = TypeVar("_T")
_T_co = TypeVar("_T_co", covariant=True)
_P = ParamSpec("_P")

class _SupportsReplace(Protocol[_P, _T_co]):
    def __replace__(self, *args: _P.args, **kwargs: _P.kwargs) -> _T_co: ...

@overload
def replace(obj: _SupportsReplace[_P, _T], /, *args: _P.args, **changes: _P.kwargs) -> _T: ...
@overload
def replace(obj: _T, /, **changes: Any) -> _T: ...

class _ReplaceMixin:
    @overload
    def replace(self: _SupportsReplace[_P, _T], *args: _P.args, **changes: _P.kwargs) -> _T: ...
    @overload
    def replace(self, **changes: Any) -> Self: ...
