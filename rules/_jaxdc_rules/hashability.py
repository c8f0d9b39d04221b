"""Is a static type hashable? Python's own rules, over a ``TypeDesc``.

A static value is a jit cache key, so its type must be hashable. The verdict follows what
Python does with an instance, not what a type checker's ``Hashable`` protocol says:

- unions, tuples and ``frozenset``s are hashable when every part is;
- a class is decided by the first class of its MRO that says something about hashing:
  arrays and the mutable containers (list, dict, set, deque, ``MutableMapping``, ...) are
  not hashable, nor are ``Mapping`` and ``AbstractSet``; a ``__hash__`` the author wrote
  makes it hashable; ``__eq__`` without ``__hash__`` makes it unhashable;
- a dataclass whose ``__hash__`` dataclasses generates (``frozen=True`` with ``eq=True``,
  or ``unsafe_hash=True``) is hashable when its hashed fields are (``field(hash=False)`` or
  ``compare=False`` leaves one out); ``eq=True`` without ``frozen`` sets ``__hash__`` to None;
  ``eq=False`` inherits the identity hash;
- a NamedTuple is hashable when its fields are; a TypedDict never is (it is a dict);
- a NewType is its supertype; a TypeVar its bound, or each of its constraints (as a union);
- anything else, including ``Any``, Protocols and types a layer cannot resolve, is not
  reported: the rules only reject what they can prove unhashable. Values are still
  checked (``hash()``) when an instance is built.
"""

from __future__ import annotations

from collections.abc import Iterable

from _jaxdc_rules import names
from _jaxdc_rules.messages import Problem
from _jaxdc_rules.typedesc import (
    HASH_ABSENT,
    HASH_DEFINED,
    HASH_GENERATED,
    HASH_NONE,
    INSTANCE,
    TUPLE,
    TYPEDDICT,
    TYPEVAR,
    UNION,
    Base,
    TypeDesc,
    show,
)

_CONTINUE = object()  # a class that says nothing about hashing: look further up the MRO
_HASHABLE = object()


class HashabilityRules:
    """Finds the first unhashable part of a type (None if it may be hashable)."""

    def __init__(
        self, extra_arrays: Iterable[str] = (), extra_hashable: Iterable[str] = ()
    ) -> None:
        self._arrays = names.ARRAY_TYPES | {names.canonical(n) for n in extra_arrays}
        self._hashable = frozenset(names.canonical(n) for n in extra_hashable)

    def unhashable_part(self, desc: TypeDesc) -> Problem | None:
        return self._check(desc, set())

    def _check(self, desc: TypeDesc, seen: set[object]) -> Problem | None:
        if id(desc) in seen:  # a recursive type: its other parts decide
            return None
        seen.add(id(desc))
        form = desc.form
        if form in (UNION, TUPLE, TYPEVAR):
            return self._first(desc.items, seen)
        if form == TYPEDDICT:
            return Problem("typeddict", desc.name, show(desc))
        if form == INSTANCE:
            return self._instance(desc, seen)
        return None  # Any, None, Literal, callables, type[...]: hashable or not ours to judge

    def _first(self, items: Iterable[TypeDesc], seen: set[object]) -> Problem | None:
        for item in items:
            problem = self._check(item, seen)
            if problem is not None:
                return problem
        return None

    def _instance(self, desc: TypeDesc, seen: set[object]) -> Problem | None:
        if desc.supertype is not None:  # a NewType: judged as what it wraps
            problem = self._check(desc.supertype, seen)
            return problem._replace(part=show(desc)) if problem is not None else None
        if desc.protocol:
            return None  # any class may implement it: not provably unhashable
        for position, base in enumerate(desc.bases):
            verdict = self._base(desc, base, position == 0, seen)
            if verdict is _HASHABLE:
                return None
            if verdict is not _CONTINUE:
                assert isinstance(verdict, Problem) or verdict is None
                return verdict
        return None

    def _base(self, desc: TypeDesc, base: Base, own: bool, seen: set[object]) -> object:
        """What ``base`` decides for an instance of ``desc``: ``_HASHABLE``, ``_CONTINUE``,
        a Problem, or None (hashable as far as the rules can tell)."""
        fullname = base.fullname
        if fullname in self._hashable:
            return _HASHABLE
        if fullname in self._arrays:
            return Problem("array", desc.name, show(desc))
        if fullname in names.MUTABLE_TYPES:
            return Problem("mutable", desc.name, show(desc))
        if fullname in names.UNHASHABLE_TYPES:
            return Problem("hash-none", desc.name, show(desc), base=base.name)
        if own and fullname in names.HASHED_BY_ELEMENTS:
            return self._first(desc.items, seen)
        if base.namedtuple and base.hash != HASH_DEFINED:
            return self._fields(desc, base, "tuple-field", seen)
        if base.dataclass is not None:
            return self._dataclass(desc, base, seen)
        if base.hash in (HASH_DEFINED, HASH_GENERATED):
            return _HASHABLE
        if base.hash == HASH_NONE or base.eq:
            kind = "eq-without-hash" if base.eq else "hash-none"
            return Problem(
                kind, desc.name if kind == "hash-none" else base.name, show(desc), base=base.name
            )
        return _CONTINUE

    def _dataclass(self, desc: TypeDesc, base: Base, seen: set[object]) -> object:
        """dataclasses' table: what it does to ``__hash__`` given its options."""
        options = base.dataclass
        assert options is not None
        if base.hash == HASH_DEFINED:
            return _HASHABLE
        generated = options.unsafe_hash or (options.eq and options.frozen)
        if base.hash == HASH_GENERATED or (base.hash == HASH_ABSENT and generated):
            kind = "frozen-field" if options.frozen else "hashed-field"
            return self._fields(desc, base, kind, seen)
        if base.hash == HASH_NONE or options.eq:
            if options.eq and not options.frozen:
                return Problem("not-frozen", base.name, show(desc))
            return Problem("hash-none", desc.name, show(desc), base=base.name)
        return _CONTINUE  # eq=False: the inherited (identity) hash

    def _fields(self, desc: TypeDesc, base: Base, kind: str, seen: set[object]) -> object:
        """A class hashed through its fields: the first field that is not hashable.

        Each class's fields are checked once per walk, whatever its type arguments: a
        generic class referring to itself with new arguments (``Grow[list[T]]`` inside
        ``Grow[T]``) would otherwise be expanded forever.
        """
        if ("fields", base.fullname) in seen:
            return _HASHABLE
        seen.add(("fields", base.fullname))
        for field in base.fields():
            if not field.hashed:
                continue
            inner = self._check(field.type, seen)
            if inner is not None:
                return Problem(kind, base.name, show(desc), via=field.name, inner=inner)
        return _HASHABLE
