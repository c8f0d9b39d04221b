from collections.abc import Hashable
from typing import Annotated, Any, Final, TypeAlias, TypeVar

# The bound is what makes checkers reject `Static[list[int]]` without a plugin: static values
# are jit cache keys, so they must be hashable. `type` is listed separately because
# `type[int]` is hashable at runtime but not a structural `Hashable` for every checker.
_H = TypeVar("_H", bound=Hashable | type[Any])

class _StaticMarker: ...

STATIC_MARKER: Final[_StaticMarker]

Static: TypeAlias = Annotated[_H, STATIC_MARKER]
