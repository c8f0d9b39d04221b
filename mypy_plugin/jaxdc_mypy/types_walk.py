"""The classes a class's verdicts depend on, for incremental runs and the daemon.

mypy re-checks a module only when something it depends on changes. A data field's
verdict depends on the MROs of the classes its type mentions; a static field's also on
the fields of dataclasses it mentions (a frozen dataclass holding an array), recursively.
Data fields do not recurse into dataclasses: a pytree class referring to the previous
one would otherwise make the walk quadratic in the length of such chains.

For incremental runs, mypy already depends on the module of every class in the MRO of
every type it records while checking a module, the declared type of each field included
(its own "indirect dependencies", ``mypy.indirection``; a class in a function body mypy
does not check gets no verdict either). So ``VerdictModules`` adds only what mypy cannot
see: what a static field's walk finds inside dataclasses. The daemon follows triggers,
not modules, so ``verdict_triggers`` names every class of the walk.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

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
from .fields import own_field_declarations, own_field_types

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
    module docstring), for one run's classes, with what they share found once: per field
    type (most are alike, such as ``Static[str]``), per dataclass (several classes hold
    the same ``Config``), per attribute type (each module's ``Config`` holds ``int``,
    ``tuple[str, ...]``, and the ``Field`` table every dataclass has), and per class MRO."""

    def __init__(self) -> None:
        # Modules found inside the dataclasses a static field's type mentions, per type.
        self._field_walks: dict[Type, frozenset[str]] = {}
        # Modules of everything reachable from an attribute type, entering dataclasses.
        self._attribute_walks: dict[Type, frozenset[str]] = {}
        # Modules found inside the dataclasses among a class's MRO, per class.
        self._class_walks: dict[TypeInfo, frozenset[str]] = {}
        self._ancestors = _Ancestors()

    def forget(self) -> None:
        """A class may have changed (the daemon read a module again)."""
        self._field_walks.clear()
        self._attribute_walks.clear()
        self._class_walks.clear()
        self._ancestors = _Ancestors()

    def add(self, info: TypeInfo, modules: set[str]) -> None:
        """Add to ``modules`` those of the classes ``info``'s static fields' walks find
        inside dataclasses: mypy depends on the rest of ``verdict_classes(info)`` itself (a
        data field's walk enters no dataclass; an excluded field gets no verdict)."""
        class_walks = self._class_walks
        for typ in own_field_types(info, STATIC):
            proper = get_proper_type(typ)
            if isinstance(proper, Instance) and not proper.args:
                # Most static types (`str`, a `Config`): the class alone, looked up by
                # identity, where a type is hashed whole.
                found = class_walks.get(proper.type)
                if found is None:
                    found = self._inside_class(proper.type)
            else:
                found = _memoised(self._field_walks, typ, self._inside_dataclasses)
            if found:
                modules |= found

    def _inside_dataclasses(self, typ: Type) -> frozenset[str]:
        """What the static walk of ``typ`` finds by entering the dataclasses among the MROs
        of the classes ``typ`` writes."""
        found: set[str] = set()
        for written in _classes_written([typ], False, self._ancestors):
            found |= self._inside_class(written)
        return frozenset(found)

    def _inside_class(self, info: TypeInfo) -> frozenset[str]:
        """The walks of the attribute types of the dataclasses among ``info``'s MRO."""
        found = self._class_walks.get(info)
        if found is None:
            modules: set[str] = set()
            for dataclass in self._ancestors.dataclasses(info):
                for typ in _attribute_types(dataclass):
                    modules |= _memoised(self._attribute_walks, typ, self._walk)
            found = self._class_walks[info] = frozenset(modules)
        return found

    def _walk(self, typ: Type) -> frozenset[str]:
        """The modules of the classes a static field of type ``typ`` depends on."""
        ancestors = self._ancestors
        modules: set[str] = set()
        for written in _classes_written([typ], True, ancestors):
            modules |= ancestors.modules(written)
        return frozenset(modules)


def _memoised(
    walks: dict[Type, frozenset[str]], typ: Type, walk: Callable[[Type], frozenset[str]]
) -> frozenset[str]:
    """``walk(typ)``, found once per type, and once for types walked alike (``_walk_start``)."""
    try:
        found = walks.get(typ)
    except TypeError:  # a type mypy cannot hash: walked every time
        return walk(typ)
    if found is None:  # met for the first time: was a type walked alike?
        start = _walk_start(typ)
        try:
            found = walks.get(start)
        except TypeError:  # what an alias stands for may hold a type mypy cannot hash
            return walk(start)
        if found is None:
            found = walks[start] = walk(start)
        walks[typ] = found
    return found


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


def _attribute_types(info: TypeInfo) -> Iterator[Type]:
    for sym in info.names.values():
        if isinstance(sym.node, Var) and sym.node.type is not None:
            yield sym.node.type
