# Candidate: the design as it stands, for every target and checker: `replace`
# takes an object matching a Protocol over `__replace__` with a ParamSpec.
from typing import Protocol, TypeVar

from typing_extensions import ParamSpec

_T = TypeVar("_T")
_T_co = TypeVar("_T_co", covariant=True)
_P = ParamSpec("_P")

class _SupportsReplace(Protocol[_P, _T_co]):
    def __replace__(self, *args: _P.args, **kwargs: _P.kwargs) -> _T_co: ...

def replace(obj: _SupportsReplace[_P, _T], /, *args: _P.args, **changes: _P.kwargs) -> _T: ...

class _ReplaceMixin:
    def replace(self: _SupportsReplace[_P, _T], *args: _P.args, **changes: _P.kwargs) -> _T: ...
