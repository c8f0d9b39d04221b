"""The classes a class's verdicts depend on, for incremental runs and the daemon.

mypy re-checks a module only when something it depends on changes. A data field's
verdict depends on the MROs of the classes its type mentions; a static field's also on
the fields of dataclasses it mentions (a frozen dataclass holding an array), recursively.
Data fields do not recurse into dataclasses: a pytree class referring to the previous
one would otherwise make the walk quadratic in the length of such chains.
"""

from __future__ import annotations

from collections.abc import Iterator

from _jaxdc_rules.kinds import DATA, STATIC
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

from .compat import class_trigger
from .describe import memo_key
from .fields import own_field_types

# Classes here are typeshed's: nobody edits them between runs, and skipping them keeps the
# walk short (every container type would otherwise add a dozen ABCs).
_STDLIB_CORE = frozenset(
    {"builtins", "typing", "typing_extensions", "collections.abc", "abc", "_typeshed"}
)


def verdict_classes(info: TypeInfo) -> Iterator[TypeInfo]:
    """Classes whose change may change a verdict on a field ``info`` declares."""
    types = own_field_types(info)
    yield from _classes_mentioned([t for k, t in types if k == STATIC], into_dataclasses=True)
    yield from _classes_mentioned([t for k, t in types if k == DATA], into_dataclasses=False)


# Modules found per field type, one table per kind of walk: whether it enters dataclasses
# (see the module docstring), a static field's walk does and a data field's does not.
ModuleMemo = dict[bool, dict[object, frozenset[str]]]


def verdict_modules(info: TypeInfo, memo: ModuleMemo) -> set[str]:
    """The modules of ``verdict_classes(info)``, each field type walked once per run
    (``memo``: most classes share their field types, such as ``jax.Array``, or types
    walked alike, see ``describe.memo_key``)."""
    static_walks = memo.setdefault(True, {})
    data_walks = memo.setdefault(False, {})
    modules: set[str] = set()
    for kind, typ in own_field_types(info):
        if kind == STATIC:
            walks, into_dataclasses = static_walks, True
        elif kind == DATA:
            walks, into_dataclasses = data_walks, False
        else:
            continue  # an excluded field: no verdict
        try:
            found = walks.get(typ)
        except TypeError:  # a type mypy cannot hash: walked every time
            modules |= _modules_mentioned(typ, into_dataclasses)
            continue
        if found is None:  # met for the first time: was a type walked alike?
            shared = memo_key(typ)
            found = walks.get(shared)
            if found is None:
                found = walks[shared] = _modules_mentioned(typ, into_dataclasses)
            walks[typ] = found
        modules |= found
    return modules


def _modules_mentioned(typ: Type, into_dataclasses: bool) -> frozenset[str]:
    return frozenset(
        c.module_name for c in _classes_mentioned([typ], into_dataclasses=into_dataclasses)
    )


# Members deciding a verdict besides the attributes: hashing, equality, and `__init__`, whose
# signature changes when a dataclass gains or loses a field (an absent one fires on addition).
_VERDICT_MEMBERS = frozenset({"__init__", "__eq__", "__hash__"})


def verdict_triggers(info: TypeInfo) -> Iterator[str]:
    """The daemon's triggers for the changes that may change a verdict on ``info``'s fields:
    each class of ``verdict_classes`` (its bases and kind) and the members a verdict reads.

    Never a class's wildcard trigger (any change of any member): re-analysing a module, mypy
    adds renamed copies of the methods it generates for a dataclass (`__init__-redefinition`,
    numbered afresh on every pass for a class inside a nested function), which fires the
    wildcard triggers of that module's dataclasses on every pass. A class depending on one of
    them re-queued its own module after each pass, and the daemon never finished. Such copies
    are not identifiers, and no trigger here names one.
    """
    for depended in verdict_classes(info):
        yield class_trigger(depended.fullname)
        attributes = {
            name
            for name, sym in depended.names.items()
            if isinstance(sym.node, Var) and name.isidentifier()
        }
        for name in sorted(attributes | _VERDICT_MEMBERS):
            yield class_trigger(f"{depended.fullname}.{name}")


def _classes_mentioned(types: list[Type], *, into_dataclasses: bool) -> Iterator[TypeInfo]:
    """Every class reachable from ``types`` (type arguments, MROs, dataclass fields).

    Each type is visited once: a recursive type (a TypedDict or alias holding itself)
    would otherwise keep the walk going forever.
    """
    seen: set[str] = set()
    visited: set[Type] = set()
    pending = list(types)
    while pending:
        written = pending.pop()
        if written in visited:
            continue
        visited.add(written)
        typ = get_proper_type(written)
        if isinstance(typ, Instance):
            pending.extend(typ.args)
            for info in typ.type.mro:
                if info.fullname in seen or info.module_name in _STDLIB_CORE:
                    continue
                seen.add(info.fullname)
                yield info
                if into_dataclasses and "dataclass" in info.metadata:
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
