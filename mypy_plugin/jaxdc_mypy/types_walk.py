"""The classes a field's verdict depends on, for the daemon's dependency map.

``dmypy`` re-checks a module only when something it depends on changes. A field's
hashability depends on every class in the MRO of every class its type mentions, and on
the fields of dataclasses it mentions (a frozen dataclass holding an array). Recording
wildcard dependencies on all of them makes an edit in another module re-check the class.
"""

from __future__ import annotations

from collections.abc import Iterator

from mypy.nodes import TypeInfo, Var
from mypy.types import (
    Instance,
    LiteralType,
    TupleType,
    Type,
    TypedDictType,
    TypeVarType,
    UnionType,
    get_proper_type,
)


def classes_mentioned(types: list[Type]) -> Iterator[TypeInfo]:
    """Every class reachable from ``types`` (type arguments, MROs, dataclass fields)."""
    seen: set[str] = set()
    pending = list(types)
    while pending:
        typ = get_proper_type(pending.pop())
        if isinstance(typ, Instance):
            pending.extend(typ.args)
            for info in typ.type.mro:
                if info.fullname in seen:
                    continue
                seen.add(info.fullname)
                yield info
                if "dataclass" in info.metadata:
                    pending.extend(_attribute_types(info))
        elif isinstance(typ, (TupleType, UnionType)):
            pending.extend(typ.items)
        elif isinstance(typ, TypedDictType):
            pending.extend(typ.items.values())
        elif isinstance(typ, TypeVarType):
            pending.append(typ.upper_bound)
        elif isinstance(typ, LiteralType):
            pending.append(typ.fallback)


def _attribute_types(info: TypeInfo) -> Iterator[Type]:
    for sym in info.names.values():
        if isinstance(sym.node, Var) and sym.node.type is not None:
            yield sym.node.type
