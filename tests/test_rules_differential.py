"""The runtime and the plugin judge static types alike, and as Python's `hash()` does; the
plugin judges data types as `jax.jit` does (the second half of this file).

A generator builds field types from atoms (builtins, containers, arrays, dataclass
variants, NamedTuples, TypedDicts, NewTypes, Protocols, recursive aliases, jaxdc classes)
and combinators (Optional, unions, tuples, frozensets, quoting, NamedTuple and dataclass
wrappers, nesting). Each type becomes one `Static[...]` field of its own class:

- the runtime defines each class and records whether it is rejected, and with what text;
- mypy + plugin checks one module holding every class (one mypy run), reporting
  `jaxdc-static` on the lines it rejects;
- where a representative value exists, `hash()` on it says what Python does.

All three must agree, and the two messages must be the same text. `make test` runs a
slice (the atoms and four combinators); `make test-full` (JAXDC_TEST_FULL=1) runs them all.
"""

from __future__ import annotations

import contextlib
import dataclasses
import os
import sys
import textwrap
import types
import uuid
import warnings
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import jax
from checkers import Project

FULL = os.environ.get("JAXDC_TEST_FULL") == "1"

PRELUDE = """import array
import collections
import collections.abc
import dataclasses
import datetime
import decimal
import enum
import fractions
import io
import pathlib
import queue
import re
import types
import typing
import uuid
import weakref
from collections import ChainMap, Counter, OrderedDict, UserDict, UserList, UserString
from collections import defaultdict, deque
from collections.abc import AsyncIterable, Awaitable, Callable, Collection, Container
from collections.abc import Generator, Hashable, ItemsView, Iterable, Iterator, KeysView
from collections.abc import Mapping, MappingView, MutableMapping, MutableSequence, MutableSet
from collections.abc import Reversible, Sequence, Sized, ValuesView
from typing import AbstractSet, Any, Generic, Literal, NamedTuple, NewType, Optional, Protocol
from typing import TypedDict, TypeVar, Union

import jax
import jax.numpy as jnp
import numpy as np
from jaxdc import PyTreeNode, Static, pytree_dataclass


class Color(enum.Enum):
    RED = 1


@dataclasses.dataclass(frozen=True)
class FrozenPoint:
    x: int
    y: int


@dataclasses.dataclass
class Loose:
    x: int


@dataclasses.dataclass(eq=False)
class LooseNoEq:
    items: list[int]


@dataclasses.dataclass(unsafe_hash=True)
class UnsafeHash:
    x: int


@dataclasses.dataclass(unsafe_hash=True)
class UnsafeHashList:
    items: list[int]


@dataclasses.dataclass(frozen=True)
class FrozenList:
    items: list[int]


@dataclasses.dataclass(frozen=True)
class Holder:
    table: jax.Array


@dataclasses.dataclass(frozen=True, eq=False)
class FrozenNoEq:
    items: list[int]


@dataclasses.dataclass(frozen=True)
class FrozenListNoHash:
    x: int
    items: list[int] = dataclasses.field(hash=False)


@dataclasses.dataclass(frozen=True)
class FrozenListNoCompare:
    x: int
    items: list[int] = dataclasses.field(compare=False)


class Pair(NamedTuple):
    a: int
    b: str


class ListPair(NamedTuple):
    items: list[int]
    n: int


class ArrayPair(NamedTuple):
    w: jax.Array
    n: int


class Row(TypedDict):
    a: int


class Plain:
    pass


class EqOnly:
    def __eq__(self, other: object) -> bool:
        return True


class Keyed:
    def __eq__(self, other: object) -> bool:
        return True

    def __hash__(self) -> int:
        return 0


class NoHash:
    __hash__ = None  # type: ignore[assignment]


class HashDict(dict[str, int]):
    def __hash__(self) -> int:  # type: ignore[override]
        return 0


class PlainList(list[int]):
    pass


class Named(Protocol):
    name: str


class Outer:
    @dataclasses.dataclass
    class Inner:
        x: int


Number = TypeVar("Number", int, float)
NumberOrText = TypeVar("NumberOrText", int, str)
NumberOrList = TypeVar("NumberOrList", int, list[int])
Text = TypeVar("Text", bound=str)
UserId = NewType("UserId", int)
UserIds = NewType("UserIds", list[int])
Shape = Union[int, tuple["Shape", ...]]
Tree = Union[int, list["Tree"]]
ArrayTree = Union[jax.Array, Iterable["ArrayTree"], Mapping[Any, "ArrayTree"]]  # optax's


@pytree_dataclass
class Model:
    w: jax.Array


@pytree_dataclass
class Config:
    depth: Static[int]


@pytree_dataclass(eq=False)
class Identity:
    w: jax.Array


class IdentityNode(PyTreeNode, eq=False):
    w: jax.Array


class Node(PyTreeNode):
    w: jax.Array
"""

# (annotation, representative value or None when Python cannot decide, a NewType may wrap it)
ATOMS: list[tuple[str, str | None, bool]] = [
    ("int", "1", True),
    ("str", "'s'", True),
    ("bytes", "b'b'", True),
    ("float", "1.0", True),
    ("bool", "True", False),
    ("complex", "1j", True),
    ("None", "None", False),
    ("Any", None, False),
    ("object", "object()", True),
    ("Hashable", "1", False),
    ("frozenset[int]", "frozenset({1})", True),
    ("tuple[int, ...]", "(1,)", True),
    ("tuple[int, str]", "(1, 's')", True),
    ("Literal['a']", "'a'", False),
    ("type[int]", "int", False),
    ("Callable[[int], int]", "abs", False),
    ("Color", "Color.RED", False),
    ("FrozenPoint", "FrozenPoint(1, 2)", True),
    ("Pair", "Pair(1, 's')", True),
    ("Named", None, False),
    ("Plain", "Plain()", True),
    ("Keyed", "Keyed()", True),
    ("HashDict", "HashDict()", True),
    ("FrozenNoEq", "FrozenNoEq([1])", True),
    ("FrozenListNoHash", "FrozenListNoHash(1, [1])", True),
    ("FrozenListNoCompare", "FrozenListNoCompare(1, [1])", True),
    ("LooseNoEq", "LooseNoEq([1])", True),
    ("UnsafeHash", "UnsafeHash(1)", True),
    ("UserId", "UserId(1)", False),
    ("Sequence[int]", "(1,)", False),
    ("Iterable[int]", "(1,)", False),
    ("Shape", "(1, (2,))", False),
    ("Config", "Config(1)", True),
    ("list[int]", "[1]", True),
    ("dict[str, int]", "{}", True),
    ("set[int]", "{1}", True),
    ("bytearray", "bytearray()", True),
    ("deque[int]", "deque()", True),
    ("jax.Array", "jnp.zeros(1)", False),
    ("np.ndarray", "np.zeros(1)", False),
    ("Loose", "Loose(1)", True),
    ("Outer.Inner", "Outer.Inner(1)", False),
    ("EqOnly", "EqOnly()", True),
    ("NoHash", "NoHash()", True),
    ("PlainList", "PlainList()", True),
    ("UnsafeHashList", "UnsafeHashList([1])", True),
    ("FrozenList", "FrozenList([1])", True),
    ("Holder", "Holder(jnp.zeros(1))", True),
    ("ListPair", "ListPair([1], 1)", True),
    ("ArrayPair", "ArrayPair(jnp.zeros(1), 1)", True),
    ("Row", "Row(a=1)", False),
    ("Mapping[str, int]", "types.MappingProxyType({})", False),
    ("MutableMapping[str, int]", "{}", False),
    ("ChainMap[str, int]", "ChainMap()", False),
    ("UserDict[str, int]", "UserDict()", False),
    ("OrderedDict[str, int]", "OrderedDict()", False),
    ("defaultdict[str, int]", "defaultdict(int)", False),
    ("Counter[str]", "Counter()", False),
    ("AbstractSet[int]", "{}.keys()", False),
    ("MutableSequence[int]", "[1]", False),
    ("UserIds", "UserIds([1])", False),
    ("Tree", "[1]", False),
    ("Model", "Model(jnp.zeros(1))", True),
    # (no NewType of PyTreeNode subclasses: plain mypy 2.4 crashes on a NewType of a class
    # made by a dataclass_transform base class, plugin or not)
    ("Node", "Node(jnp.zeros(1))", False),
    ("Identity", "Identity(jnp.zeros(1))", True),
    ("IdentityNode", "IdentityNode(jnp.zeros(1))", False),
    # The rest of the standard library's containers and ABCs, and typing's aliases of them.
    # An ABC is judged by what its class says (`Set` and `Mapping` set `__hash__ = None`),
    # so its value is one of its own subclasses' instances (`{}.keys()` is a `KeysView`).
    ("array.array", "array.array('i')", True),
    ("memoryview", "memoryview(b'x')", False),
    ("range", "range(1)", False),
    ("slice", "slice(1)", False),  # hashable from Python 3.12: every layer follows Python
    ("UserList[int]", "UserList()", False),
    ("UserString", "UserString('a')", False),
    ("Container[int]", "(1,)", False),
    ("Iterator[int]", "iter(())", False),
    ("Reversible[int]", "(1,)", False),
    ("Generator[int, None, None]", "(i for i in ())", False),
    ("Sized", "(1,)", False),
    ("Collection[int]", "(1,)", False),
    ("MutableSet[int]", "set()", False),
    ("MappingView", "MappingView({})", False),
    ("KeysView[int]", "{}.keys()", False),
    ("ItemsView[int, int]", "{}.items()", False),
    ("ValuesView[int]", "{}.values()", False),
    ("Awaitable[int]", None, False),
    ("AsyncIterable[int]", None, False),
    ("types.MappingProxyType[str, int]", "types.MappingProxyType({})", False),
    ("types.SimpleNamespace", "types.SimpleNamespace()", False),
    ("weakref.WeakSet[Plain]", "weakref.WeakSet()", False),
    ("weakref.WeakKeyDictionary[Plain, int]", "weakref.WeakKeyDictionary()", False),
    ("weakref.WeakValueDictionary[int, Plain]", "weakref.WeakValueDictionary()", False),
    ("typing.List[int]", "[1]", False),
    ("typing.Dict[str, int]", "{}", False),
    ("typing.Set[int]", "set()", False),
    ("typing.FrozenSet[int]", "frozenset()", False),
    ("typing.Tuple[int, ...]", "(1,)", False),
    ("typing.Deque[int]", "deque()", False),
    ("typing.DefaultDict[str, int]", "defaultdict(int)", False),
    ("typing.OrderedDict[str, int]", "OrderedDict()", False),
    ("typing.Counter[str]", "Counter()", False),
    ("typing.ChainMap[str, int]", "ChainMap()", False),
    ("typing.Type[int]", "int", False),
    ("typing.Text", "'a'", False),
    ("typing.Pattern[str]", "re.compile('a')", False),
    ("re.Pattern[str]", "re.compile('a')", False),
    ("decimal.Decimal", "decimal.Decimal(1)", False),
    ("fractions.Fraction", "fractions.Fraction(1)", False),
    ("datetime.date", "datetime.date(2020, 1, 1)", False),
    ("pathlib.Path", "pathlib.Path('.')", False),
    ("uuid.UUID", "uuid.UUID(int=1)", False),
    ("queue.Queue[int]", "queue.Queue()", False),
    ("io.BytesIO", "io.BytesIO()", False),
]

# TypeVars, judged in a generic class (`class C(Generic[T])`): a bound is the type, the
# constraints are judged as a union of them.
TYPEVAR_ATOMS: list[tuple[str, str | None]] = [
    ("Number", "1"),
    ("NumberOrText", "'s'"),
    ("NumberOrList", "[1]"),
    ("Text", "'s'"),
]


@dataclass(frozen=True)
class Case:
    name: str
    annotation: str
    value: str | None
    wrappers: str = ""
    """Module-level definitions the annotation needs (wrapper classes)."""
    typevar: str = ""
    """The TypeVar the case's class is generic in (`class C(Generic[T])`), if any."""

    def source(self, field: str) -> str:
        """The case's class, its field written as `field` says (`{}`: the annotation)."""
        generic = f"(Generic[{self.typevar}])" if self.typevar else ""
        header = f"@pytree_dataclass\nclass C_{self.name}{generic}:\n"
        return header + "    f: " + field.format(self.annotation) + "\n"


def _plain(name: str, atom: str, value: str | None) -> list[Case]:
    return [Case(name, atom, value)]


def _combined(name: str, atom: str, value: str | None) -> list[Case]:
    v = value
    return [
        Case(f"{name}_opt", f"Optional[{atom}]", v),
        Case(f"{name}_union", f"Union[int, {atom}]", v),
        Case(f"{name}_pair", f"tuple[int, {atom}]", v and f"(1, {v})"),
        Case(f"{name}_many", f"tuple[{atom}, ...]", v and f"({v},)"),
    ]


def _full(name: str, atom: str, value: str | None) -> list[Case]:
    v = value
    nt, fd, fdh = f"NT_{name}", f"FD_{name}", f"FDH_{name}"
    wrappers = textwrap.dedent(
        f"""
        class {nt}(NamedTuple):
            v: {atom}


        @dataclasses.dataclass(frozen=True)
        class {fd}:
            v: {atom}


        @dataclasses.dataclass(frozen=True)
        class {fdh}:
            v: {atom} = dataclasses.field(hash=False)
        """
    )
    quoted = atom.replace('"', "'")
    return [
        Case(f"{name}_set", f"frozenset[{atom}]", v and f"frozenset([{v}])"),
        Case(f"{name}_quoted", f'"{quoted}"', v),
        Case(f"{name}_nested", f"Optional[tuple[int, Union[str, {atom}]]]", v and f"(1, {v})"),
        Case(f"{name}_nt", nt, v and f"{nt}({v})", wrappers),
        Case(f"{name}_fd", fd, v and f"{fd}({v})"),
        Case(f"{name}_fdh", fdh, v and f"{fdh}({v})"),
        Case(f"{name}_ntmany", f"tuple[{nt}, ...]", v and f"({nt}({v}),)"),
    ]


def _newtype(name: str, atom: str, value: str | None) -> Case:
    wrapper = f'NEW_{name} = NewType("NEW_{name}", {atom})\n'
    return Case(f"{name}_newtype", f"NEW_{name}", value and f"NEW_{name}({value})", wrapper)


def generate(full: bool) -> list[Case]:
    cases = []
    for i, (atom, value, newtype_ok) in enumerate(ATOMS):
        name = f"a{i:02d}"
        cases += _plain(name, atom, value) + _combined(name, atom, value)
        if full:
            cases += _full(name, atom, value)
            if newtype_ok:
                cases.append(_newtype(name, atom, value))
    for i, (typevar, value) in enumerate(TYPEVAR_ATOMS):
        cases += [
            dataclasses.replace(case, typevar=typevar)
            for case in _plain(f"t{i:02d}", typevar, value) + _combined(f"t{i:02d}", typevar, value)
        ]
    return cases


STATIC_FIELD = "Static[{}]"


def module_source(cases: list[Case], field: str = STATIC_FIELD) -> tuple[str, dict[int, Case]]:
    """One module: the prelude, the wrappers, one class per case; field line -> case."""
    lines = PRELUDE.splitlines()
    for case in cases:
        lines += case.wrappers.splitlines()
    by_line: dict[int, Case] = {}
    for case in cases:
        lines += ["", "", *case.source(field).splitlines()]
        by_line[len(lines)] = case
    return "\n".join(lines) + "\n", by_line


@dataclass(frozen=True)
class Verdict:
    unhashable: bool
    message: str = ""


@contextlib.contextmanager
def _prelude_module(cases: list[Case]) -> Iterator[tuple[str, dict[str, Any]]]:
    """A fresh module holding the prelude and the cases' wrappers: (its name, namespace)."""
    name = f"jaxdc_differential_{uuid.uuid4().hex[:8]}"
    module = types.ModuleType(name)
    sys.modules[name] = module
    try:
        source = PRELUDE + "".join(case.wrappers for case in cases)
        exec(compile(source, name, "exec"), module.__dict__)
        yield name, module.__dict__
    finally:
        del sys.modules[name]


def runtime_verdicts(cases: list[Case]) -> tuple[dict[str, Verdict], dict[str, bool]]:
    """(class-definition verdict, `hash()` on the representative value) per case."""
    verdicts = {}
    hashes = {}
    with _prelude_module(cases) as (name, namespace):
        for case in cases:
            try:
                exec(compile(case.source(STATIC_FIELD), name, "exec"), namespace)
            except TypeError as exc:
                verdicts[case.name] = Verdict(True, str(exc))
            else:
                verdicts[case.name] = Verdict(False)
            if case.value is not None:
                hashes[case.name] = _unhashable_value(case.value, namespace)
    return verdicts, hashes


def _unhashable_value(expression: str, namespace: dict[str, Any]) -> bool:
    try:
        hash(eval(expression, namespace))
    except TypeError:  # building a frozenset of it raises it too
        return True
    return False


def plugin_verdicts(
    project: Project, cases: list[Case], field: str = STATIC_FIELD, code: str = "jaxdc-static"
) -> dict[str, Verdict]:
    """True where mypy + plugin reports `code` on the case's field."""
    source, by_line = module_source(cases, field)
    project.write({"generated.py": source})
    run = project.mypy("--show-traceback", "generated.py")
    assert "INTERNAL ERROR" not in run.stdout + run.stderr, run.stdout + run.stderr
    verdicts = {case.name: Verdict(False) for case in cases}
    for _, line, found, message in run.errors:
        if found == code:
            verdicts[by_line[line].name] = Verdict(True, message)
    return verdicts


def _disagreements(
    cases: list[Case],
    runtime: dict[str, Verdict],
    plugin: dict[str, Verdict],
    hashes: dict[str, bool],
) -> Iterator[str]:
    for case in cases:
        ours, theirs = runtime[case.name], plugin[case.name]
        where = f"Static[{case.annotation}] ({case.name})"
        if ours != theirs:
            yield f"{where}: runtime {ours}, plugin {theirs}"
        if case.name in hashes and hashes[case.name] != ours.unhashable:
            yield f"{where}: hash({case.value}) says unhashable={hashes[case.name]}"


def test_generator_covers_enough_types() -> None:
    assert len(generate(full=False)) >= 150
    assert len(generate(full=True)) >= 600


def test_runtime_plugin_and_python_agree_on_generated_static_types(project: Project) -> None:
    cases = generate(full=FULL)
    runtime, hashes = runtime_verdicts(cases)
    plugin = plugin_verdicts(project, cases)
    problems = list(_disagreements(cases, runtime, plugin, hashes))
    assert not problems, f"{len(problems)} disagreements:\n" + "\n".join(problems)
    # Both verdicts occur: a generator that only produced one would prove nothing.
    assert {v.unhashable for v in runtime.values()} == {True, False}


# --- data fields: the plugin and JAX ------------------------------------------------------
# A data field's type is array-like to the plugin (no `jaxdc-data`) exactly when JAX takes a
# value of it: an instance holding the value goes through `jax.jit`. The runtime does not
# judge data types (jit does, when it is given the value). An abstract type's value is the
# one of its common values JAX treats differently from a list, tuple or dict, where it has
# one (a set is an `Iterable` and a `Collection`); `Sequence` and `Mapping` are the
# spellings of "a list or tuple" and "a dict" (rules/_jaxdc_rules/arraylike.py).

DATA_ATOMS: list[tuple[str, str]] = [
    ("int", "1"),
    ("float", "1.0"),
    ("bool", "True"),
    ("complex", "1j"),
    ("str", "'s'"),
    ("bytes", "b'b'"),
    ("None", "None"),
    ("jax.Array", "jnp.zeros(1)"),
    ("np.ndarray", "np.zeros(1)"),
    ("np.float32", "np.float32(1)"),
    ("list[int]", "[1]"),
    ("tuple[int, ...]", "(1,)"),
    ("tuple[int, str]", "(1, 's')"),
    ("dict[str, int]", "{'a': 1}"),
    ("OrderedDict[str, int]", "OrderedDict(a=1)"),
    ("defaultdict[str, int]", "defaultdict(int, a=1)"),
    ("Sequence[int]", "(1,)"),
    ("MutableSequence[int]", "[1]"),
    ("Mapping[str, int]", "{'a': 1}"),
    ("MutableMapping[str, int]", "{'a': 1}"),
    ("Iterable[int]", "{1}"),
    ("Collection[int]", "frozenset({1})"),
    ("Iterator[int]", "iter([1])"),
    ("Generator[int, None, None]", "(i for i in [1])"),
    ("Container[int]", "range(1)"),
    ("Reversible[int]", "range(1)"),
    ("Sized", "{1}"),
    ("AbstractSet[int]", "frozenset({1})"),
    ("MutableSet[int]", "{1}"),
    ("set[int]", "{1}"),
    ("frozenset[int]", "frozenset({1})"),
    ("deque[int]", "deque([1])"),
    ("Counter[str]", "Counter('a')"),
    ("ChainMap[str, int]", "ChainMap({'a': 1})"),
    ("UserDict[str, int]", "UserDict(a=1)"),
    ("UserList[int]", "UserList([1])"),
    ("KeysView[str]", "{'a': 1}.keys()"),
    ("ValuesView[int]", "{'a': 1}.values()"),
    ("ItemsView[str, int]", "{'a': 1}.items()"),
    ("array.array", "array.array('f', [1.0])"),
    ("memoryview", "memoryview(b'x')"),
    ("range", "range(1)"),
    ("bytearray", "bytearray(b'x')"),
    ("types.MappingProxyType[str, int]", "types.MappingProxyType({'a': 1})"),
    ("types.SimpleNamespace", "types.SimpleNamespace()"),
    ("decimal.Decimal", "decimal.Decimal(1)"),
    ("fractions.Fraction", "fractions.Fraction(1)"),
    ("typing.List[int]", "[1]"),
    ("typing.Dict[str, int]", "{'a': 1}"),
    ("typing.Tuple[int, ...]", "(1,)"),
    ("typing.Set[int]", "{1}"),
    ("typing.FrozenSet[int]", "frozenset({1})"),
    ("typing.Deque[int]", "deque([1])"),
    ("typing.DefaultDict[str, int]", "defaultdict(int, a=1)"),
    ("typing.OrderedDict[str, int]", "OrderedDict(a=1)"),
    ("typing.Counter[str]", "Counter('a')"),
    ("Pair", "Pair(1, 's')"),
    ("ArrayPair", "ArrayPair(jnp.zeros(1), 1)"),
    ("Model", "Model(jnp.zeros(1))"),
    ("Optional[int]", "None"),
    ("Union[int, str]", "'s'"),
    ("Tree", "[1, [2]]"),
    ("ArrayTree", "[jnp.zeros(1), {'a': (jnp.ones(1),)}]"),
]


def generate_data() -> list[Case]:
    cases = [Case(f"d{i:02d}", atom, value) for i, (atom, value) in enumerate(DATA_ATOMS)]
    for i, (typevar, value) in enumerate(TYPEVAR_ATOMS):
        cases.append(Case(f"dt{i:02d}", typevar, value, typevar=typevar))
    return cases


def jax_rejects(cases: list[Case]) -> dict[str, bool]:
    """Per case: whether `jax.jit` rejects an instance holding the representative value."""
    rejected = {}
    with _prelude_module(cases) as (name, namespace):
        for case in cases:
            exec(compile(case.source("{}"), name, "exec"), namespace)
            instance = namespace[f"C_{case.name}"](eval(case.value or "None", namespace))
            try:
                with warnings.catch_warnings():  # JAX warns before rejecting an iterable
                    warnings.simplefilter("ignore", DeprecationWarning)
                    jax.jit(lambda c: c)(instance)
            except TypeError:  # "... is not a valid JAX type"
                rejected[case.name] = True
            else:
                rejected[case.name] = False
    return rejected


def test_plugin_and_jax_agree_on_data_types(project: Project) -> None:
    cases = generate_data()
    by_jax = jax_rejects(cases)
    by_plugin = plugin_verdicts(project, cases, field="{}", code="jaxdc-data")
    problems = [
        f"{case.annotation} ({case.value}): jit rejects={by_jax[case.name]}, plugin "
        f"{by_plugin[case.name]}"
        for case in cases
        if by_jax[case.name] != by_plugin[case.name].unhashable
    ]
    assert not problems, f"{len(problems)} disagreements:\n" + "\n".join(problems)
    assert set(by_jax.values()) == {True, False}
