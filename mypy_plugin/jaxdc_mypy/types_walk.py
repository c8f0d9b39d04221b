"""The classes a class's verdicts depend on, for incremental runs and the daemon.

mypy re-checks a module only when something it depends on changes. A data field's
verdict depends on the MROs of the classes its type mentions; a static field's also on
the fields of dataclasses it mentions (a frozen dataclass holding an array), recursively.
Data fields do not recurse into dataclasses: a pytree class referring to the previous
one would otherwise make the walk quadratic in the length of such chains.

For incremental runs, mypy already depends on the module of every class in the MRO of
every type it stores for the module, the declared type of each field included (its own
"indirect dependencies", ``mypy.indirection``). So ``VerdictModules`` adds only what mypy
cannot see: what a static field's walk finds inside dataclasses. The daemon follows
triggers, not modules, so ``verdict_triggers`` names every class of the walk.
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
from .fields import own_field_declarations

# Classes here are typeshed's: nobody edits them between runs, and skipping them keeps the
# walk short (every container type would otherwise add a dozen ABCs).
_STDLIB_CORE = frozenset(
    {"builtins", "typing", "typing_extensions", "collections.abc", "abc", "_typeshed"}
)


def verdict_classes(info: TypeInfo) -> Iterator[TypeInfo]:
    """Classes whose change may change a verdict on a field ``info`` declares."""
    declared = own_field_declarations(info)
    ancestors = _Ancestors()
    yield from _mro_classes([t for _, k, t in declared if k == STATIC], True, ancestors)
    yield from _mro_classes([t for _, k, t in declared if k == DATA], False, ancestors)


def _mro_classes(
    types: list[Type], into_dataclasses: bool, ancestors: _Ancestors
) -> Iterator[TypeInfo]:
    """The classes in the MROs of ``_classes_written(types)``, each once."""
    seen: set[str] = set()
    for written in _classes_written(types, into_dataclasses, ancestors):
        for info in written.mro:
            if info.fullname not in seen and info.module_name not in _STDLIB_CORE:
                seen.add(info.fullname)
                yield info


class _Ancestors:
    """What walks read of a class's MRO, read once per class: its modules, and the
    dataclasses a static field's walk enters (none for most classes, such as ``str``)."""

    def __init__(self) -> None:
        self._modules: dict[TypeInfo, frozenset[str]] = {}
        self._dataclasses: dict[TypeInfo, tuple[TypeInfo, ...]] = {}

    def modules(self, info: TypeInfo) -> frozenset[str]:
        found = self._modules.get(info)
        if found is None:
            found = self._modules[info] = frozenset(
                c.module_name for c in info.mro if c.module_name not in _STDLIB_CORE
            )
        return found

    def dataclasses(self, info: TypeInfo) -> tuple[TypeInfo, ...]:
        found = self._dataclasses.get(info)
        if found is None:
            found = self._dataclasses[info] = tuple(
                c
                for c in info.mro
                if "dataclass" in c.metadata and c.module_name not in _STDLIB_CORE
            )
        return found


class VerdictModules:
    """The modules of the classes a static field's walk finds inside dataclasses (see the
    module docstring), for one run's classes, with what they share found once: the
    modules of each field type (most classes have the same ones, such as ``str``), and of
    each class's MRO (a type walked for the first time often mentions a class walked
    before, such as a user dataclass)."""

    def __init__(self) -> None:
        self._walks: dict[Type, frozenset[str]] = {}  # modules found per field type
        self._ancestors = _Ancestors()

    def forget(self) -> None:
        """A class may have changed (the daemon read a module again)."""
        self._walks.clear()
        self._ancestors = _Ancestors()

    def add(self, info: TypeInfo, modules: set[str]) -> None:
        """Add to ``modules`` those of the classes ``info``'s static fields' walks find
        inside dataclasses: mypy depends on the rest of ``verdict_classes(info)`` itself."""
        walks = self._walks
        for _, kind, typ in own_field_declarations(info):
            if kind != STATIC:
                continue  # a data field's walk enters no dataclass; an excluded one has none
            try:
                found = walks.get(typ)
            except TypeError:  # a type mypy cannot hash: walked every time
                modules |= self._walk(typ)
                continue
            if found is None:  # met for the first time: was a type walked alike?
                found = walks[typ] = self._walked_alike(_walk_start(typ))
            modules |= found

    def _walked_alike(self, start: Type) -> frozenset[str]:
        try:
            found = self._walks.get(start)
        except TypeError:  # what an alias stands for may hold a type mypy cannot hash
            return self._walk(start)
        if found is None:
            found = self._walks[start] = self._walk(start)
        return found

    def _walk(self, typ: Type) -> frozenset[str]:
        ancestors = self._ancestors
        modules: set[str] = set()
        for written in _classes_inside_dataclasses(typ, ancestors):
            modules |= ancestors.modules(written)
        return frozenset(modules)


def _walk_start(typ: Type) -> Type:
    """Where the walk of ``typ`` really starts: it reads nothing of an alias but what it
    stands for, and of a type variable only its bound (each generic class has its own
    ``T``, and each module its own aliases of ``Static[str]``)."""
    proper = get_proper_type(typ)
    while isinstance(proper, TypeVarType):
        proper = get_proper_type(proper.upper_bound)
    return proper


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


def _classes_written(
    types: list[Type], into_dataclasses: bool, ancestors: _Ancestors
) -> Iterator[TypeInfo]:
    """The class of every instance type reachable from ``types`` (type arguments, union
    members, ..., and, entering dataclasses, the attribute types of each dataclass among
    those classes' MROs), each time it is met.

    Each type is visited once: a recursive type (a TypedDict or alias holding itself)
    would otherwise keep the walk going forever.
    """
    entered: set[str] = set()
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
            yield typ.type
            if into_dataclasses:
                for info in ancestors.dataclasses(typ.type):
                    if info.fullname not in entered:
                        entered.add(info.fullname)
                        pending.extend(_attribute_types(info))
        elif isinstance(typ, (TupleType, UnionType)):
            pending.extend(typ.items)
        elif isinstance(typ, TypedDictType):
            pending.extend(typ.items.values())
        elif isinstance(typ, TypeVarType):
            pending.append(typ.upper_bound)
        elif isinstance(typ, LiteralType):
            pending.append(typ.fallback)


def _classes_inside_dataclasses(typ: Type, ancestors: _Ancestors) -> Iterator[TypeInfo]:
    """What ``_classes_written([typ], True, ...)`` finds by entering dataclasses: the classes
    written in the attribute types of the dataclasses among the MROs of the classes written
    in ``typ``, recursively (and those of ``typ`` again, when an attribute mentions them)."""
    entered: set[str] = set()
    attribute_types: list[Type] = []
    for written in _classes_written([typ], False, ancestors):
        for info in ancestors.dataclasses(written):
            if info.fullname not in entered:
                entered.add(info.fullname)
                attribute_types.extend(_attribute_types(info))
    return _classes_written(attribute_types, True, ancestors)


def _attribute_types(info: TypeInfo) -> Iterator[Type]:
    for sym in info.names.values():
        if isinstance(sym.node, Var) and sym.node.type is not None:
            yield sym.node.type
