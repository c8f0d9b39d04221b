"""Is a static field's type hashable? The runtime's class-definition rules, on mypy types.

``is_subtype(t, Hashable)`` is not enough: ``jax.Array``'s stub does not set
``__hash__ = None``, a class defining ``__eq__`` without ``__hash__`` loses its hash only
at runtime, a non-frozen dataclass is unhashable, and tuples, unions and frozen
dataclasses can hold an unhashable part. So the rules of ``jaxdc._hashability`` are
spelled out here, and the first offending part is returned with its reason.
"""

from __future__ import annotations

from mypy.nodes import MypyFile, TypeInfo, Var
from mypy.options import Options
from mypy.types import (
    Instance,
    NoneType,
    TupleType,
    Type,
    TypedDictType,
    TypeVarType,
    UnionType,
    get_proper_type,
)

from . import compat, names
from .display import show
from .messages import Problem

_HASHABLE = object()


class HashabilityRules:
    """Finds the first unhashable part of a type (None if hashable)."""

    def __init__(
        self,
        extra_arrays: frozenset[str],
        extra_hashable: frozenset[str],
        modules: dict[str, MypyFile],
        options: Options,
    ) -> None:
        self._arrays = names.ARRAY_TYPES | extra_arrays
        self._hashable = extra_hashable
        self._modules = modules
        self._options = options

    def unhashable_part(self, typ: Type) -> Problem | None:
        return self._check(typ, seen=frozenset())

    def _check(self, typ: Type, seen: frozenset[str]) -> Problem | None:
        typ = get_proper_type(typ)
        if isinstance(typ, (TupleType, UnionType)):
            for item in typ.items:
                problem = self._check(item, seen)
                if problem is not None:
                    return problem
            return None
        if isinstance(typ, TypeVarType):
            return self._check(typ.upper_bound, seen)
        if isinstance(typ, TypedDictType):
            return Problem("mutable", "dict", show(typ, self._options))
        if isinstance(typ, Instance):
            return self._instance(typ, seen)
        # Any, None, Literal, callables, type[...]: hashable (or not ours to judge).
        return None

    def _instance(self, typ: Instance, seen: frozenset[str]) -> Problem | None:
        info = typ.type
        mro = {base.fullname for base in info.mro}
        if mro & self._hashable:
            return None
        part = show(typ, self._options)
        if mro & self._arrays:
            return Problem("array", info.name, part)
        if mro & names.MUTABLE_BUILTINS:
            return Problem("mutable", info.name, part)
        if info.fullname in ("builtins.tuple", "builtins.frozenset") and typ.args:
            return self._check(typ.args[0], seen)
        for base in info.mro[:-1]:  # object's hash is fine
            verdict = self._own_hash(base, part)
            if isinstance(verdict, Problem):
                return verdict
            if verdict is _HASHABLE:
                break
        if "dataclass" not in info.metadata or info.fullname in seen:
            return None
        return self._frozen_dataclass_fields(typ, part, seen | {info.fullname})

    def _own_hash(self, base: TypeInfo, part: str) -> Problem | object | None:
        """What ``base``'s own body says about hashing.

        A Problem, ``_HASHABLE`` (it defines a hash: further bases do not matter), or None
        (it says nothing: look further up the MRO).
        """
        hash_sym = base.names.get("__hash__")
        if hash_sym is not None:
            node = hash_sym.node
            if isinstance(node, Var) and isinstance(get_proper_type(node.type), NoneType):
                # `__hash__: ClassVar[None]` in a stub; the runtime words it by module.
                kind = "mutable" if base.module_name == "builtins" else "eq-without-hash"
                return Problem(kind, base.name, part)
            return _HASHABLE
        dataclass = base.metadata.get("dataclass")
        if dataclass is not None:
            # eq=True (the default) without frozen=True sets __hash__ = None.
            return _HASHABLE if dataclass.get("frozen") else Problem("not-frozen", base.name, part)
        if "__eq__" in base.names and not self._is_stub(base):
            # Python sets __hash__ = None on such a class; stubs often omit __hash__.
            return Problem("eq-without-hash", base.name, part)
        return None

    def _frozen_dataclass_fields(
        self, typ: Instance, part: str, seen: frozenset[str]
    ) -> Problem | None:
        """A frozen dataclass hashes its fields: check them (e.g. an array inside)."""
        for name, _ in compat.dataclass_fields(typ.type):
            field_type = compat.member_type(typ, name)
            inner = None if field_type is None else self._check(field_type, seen)
            if inner is not None:
                return Problem("frozen-field", typ.type.name, part, via=name, inner=inner)
        return None

    def _is_stub(self, info: TypeInfo) -> bool:
        module = self._modules.get(info.module_name)
        return module is not None and module.is_stub
