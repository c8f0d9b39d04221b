from collections.abc import Callable
from typing import Generic, TypeVar, final

_T = TypeVar("_T")
_V = TypeVar("_V")

@final
class Attr(Generic[_V]):
    def __init__(self, obj: object, path: tuple[str, ...]) -> None: ...
    # Returns None (not a new object) because it assigns in place, unlike jax's `.at[].set()`.
    def set(self, value: _V, /) -> None: ...

def attr(obj: _T, where: Callable[[_T], _V], /) -> Attr[_V]: ...
