from typing import Annotated, Any, Final, Protocol, TypeAlias, TypeVar, type_check_only

# What a static type must be: static values are jit cache keys. Written as a Protocol rather
# than `collections.abc.Hashable`: `__eq__` must return bool, which every checker can check,
# so `Static[jax.Array]` (whose `==` returns an array) is rejected by pyrefly and zuban too,
# and so are lists, dicts, sets, NumPy arrays and non-frozen dataclasses (`__hash__` None).
# `type[Any]` because `type[int]` is hashable at runtime but not structurally `Hashable` for
# every checker; `None` because `None` is not an instance of a Protocol for mypy.
@type_check_only
class HashableValue(Protocol):
    def __hash__(self) -> int: ...
    def __eq__(self, other: object, /) -> bool: ...

# The type variable's name is the rule: pyright's message for `Static[list[int]]` reads
# `Could not specialize type "type[StaticTypeMustBeHashable@Static]"`.
StaticTypeMustBeHashable = TypeVar(
    "StaticTypeMustBeHashable", bound=HashableValue | type[Any] | None
)

class _StaticMarker: ...

STATIC_MARKER: Final[_StaticMarker]

Static: TypeAlias = Annotated[StaticTypeMustBeHashable, STATIC_MARKER]
"""`Static[T]`: a static field (or `jaxdc.jit` parameter) of type `T`.

Static means part of the pytree's structure (its treedef), not a leaf: JAX never traces it,
so `jit`, `vmap` and `grad` see its value as a constant, and the value is part of the jit
cache key (a new value compiles again). jaxdc compares and hashes it, so `T` must be
hashable with an `__eq__` returning `bool`: `tuple[int, ...]`, not `list[int]`, and never an
array. The field's own type stays `T` (`layer.name` is a `str`). Checked by every type
checker through this alias's bound, by the mypy plugin, and by jaxdc when the class is
defined and when an instance is built or replaced.
"""
