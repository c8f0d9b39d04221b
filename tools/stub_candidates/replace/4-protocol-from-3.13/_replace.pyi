# Candidate: the Protocol design for a 3.13 target only (older targets keep any keyword),
# one signature, the result typed from `__class__` (see the chosen `_replace.pyi`).
import sys
from typing import Any, Protocol, TypeVar

from typing_extensions import ParamSpec, Self

_T = TypeVar("_T")
_T_co = TypeVar("_T_co", covariant=True)
_P = ParamSpec("_P")

class _SupportsReplace(Protocol[_P, _T_co]):
    @property  # type: ignore[misc]
    def __class__(self) -> type[_T_co]: ...  # type: ignore[override]
    def __replace__(self, *args: _P.args, **kwargs: _P.kwargs) -> object: ...

if sys.version_info >= (3, 13):
    def replace(obj: _SupportsReplace[_P, _T], /, *args: _P.args, **changes: _P.kwargs) -> _T: ...

else:
    def replace(obj: _T, /, **changes: Any) -> _T: ...

class _ReplaceMixin:
    if sys.version_info >= (3, 13):
        def replace(self: _SupportsReplace[_P, _T], *args: _P.args, **changes: _P.kwargs) -> _T: ...
    else:
        def replace(self, **changes: Any) -> Self: ...
