"""Is a data field's type array-like, i.e. something JAX can trace as pytree leaves?

Matches fullnames in the MRO rather than asking ``is_subtype``: that never imports or
resolves jax or numpy unless the user's code already mentions them, and lets the config
add array types and pytree base classes by name. jaxtyping annotations such as
``Float[Array, "n"]`` reach mypy as ``jax.Array``, so they need no special case.
"""

from __future__ import annotations

from collections.abc import Sequence

from mypy.types import (
    AnyType,
    CallableType,
    Instance,
    LiteralType,
    Overloaded,
    TupleType,
    Type,
    TypedDictType,
    TypeOfAny,
    TypeType,
    TypeVarType,
    UnionType,
    get_proper_type,
)

from . import names
from .messages import Problem

ANY = Problem("any")
"""An ``Any``/unconstrained part: fine, unless the user opted into check_any."""


class ArrayLikeRules:
    """Finds the first part of a type that is not array-like (None if all of it is)."""

    def __init__(self, extra_arrays: frozenset[str], extra_pytree_bases: frozenset[str]) -> None:
        self._leaves = names.ARRAY_TYPES | names.SCALAR_TYPES | extra_arrays
        self._pytrees = extra_pytree_bases | {names.PYTREE_NODE}

    def non_array_part(self, typ: Type) -> Problem | None:
        """The worst part: a real problem beats ``ANY``, which beats nothing."""
        typ = get_proper_type(typ)
        if isinstance(typ, AnyType):
            return None if typ.type_of_any == TypeOfAny.from_error else ANY
        if isinstance(typ, (UnionType, TupleType)):
            return self._worst(typ.items)
        if isinstance(typ, TypedDictType):
            return self._worst(list(typ.items.values()))
        if isinstance(typ, TypeVarType):
            bound = get_proper_type(typ.upper_bound)
            if isinstance(bound, Instance) and bound.type.fullname == "builtins.object":
                return ANY  # unconstrained: decided by concrete subclasses
            return self.non_array_part(bound)
        if isinstance(typ, LiteralType):
            return self.non_array_part(typ.fallback)
        if isinstance(typ, (CallableType, Overloaded)):
            return Problem("callable")
        if isinstance(typ, TypeType):
            return Problem("class-object")
        if isinstance(typ, Instance):
            return self._instance(typ)
        return None  # None, NoReturn, ...: nothing to trace

    def _worst(self, items: Sequence[Type]) -> Problem | None:
        found = None
        for item in items:
            problem = self.non_array_part(item)
            if problem is not None and problem is not ANY:
                return problem
            found = found or problem
        return found

    def _instance(self, typ: Instance) -> Problem | None:
        info = typ.type
        if info.fullname in names.PYTREE_CONTAINERS:
            # JAX flattens exactly these; a dict's keys are part of the treedef.
            return self._worst(typ.args[-1:])
        mro = {base.fullname for base in info.mro}
        if mro & self._leaves or mro & self._pytrees:
            return None
        if any(names.METADATA_KEY in base.metadata for base in info.mro):
            return None
        if info.fullname in ("builtins.str", "builtins.bytes"):
            return Problem("text", info.name)
        return Problem("not-array", info.name)
