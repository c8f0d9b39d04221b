"""The runtime and the plugin judge static types alike, and as Python's `hash()` does.

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

import os
import sys
import textwrap
import types
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from checkers import Project

FULL = os.environ.get("JAXDC_TEST_FULL") == "1"

PRELUDE = """import collections
import dataclasses
import enum
import types
from collections import ChainMap, Counter, OrderedDict, UserDict, defaultdict, deque
from collections.abc import Callable, Hashable, Iterable, Mapping, MutableMapping
from collections.abc import MutableSequence, Sequence
from typing import AbstractSet, Any, Literal, NamedTuple, NewType, Optional, Protocol, TypedDict
from typing import Union

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


UserId = NewType("UserId", int)
UserIds = NewType("UserIds", list[int])
Shape = Union[int, tuple["Shape", ...]]
Tree = Union[int, list["Tree"]]


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
]


@dataclass(frozen=True)
class Case:
    name: str
    annotation: str
    value: str | None
    wrappers: str = ""
    """Module-level definitions the annotation needs (wrapper classes)."""


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
    return cases


def module_source(cases: list[Case]) -> tuple[str, dict[int, Case]]:
    """One module: the prelude, the wrappers, one class per case; line -> case."""
    lines = PRELUDE.splitlines()
    for case in cases:
        lines += case.wrappers.splitlines()
    by_line: dict[int, Case] = {}
    for case in cases:
        lines += ["", "", "@pytree_dataclass", f"class C_{case.name}:"]
        lines.append(f"    f: Static[{case.annotation}]")
        by_line[len(lines)] = case
    return "\n".join(lines) + "\n", by_line


@dataclass(frozen=True)
class Verdict:
    unhashable: bool
    message: str = ""


def runtime_verdicts(cases: list[Case]) -> tuple[dict[str, Verdict], dict[str, bool]]:
    """(class-definition verdict, `hash()` on the representative value) per case."""
    name = f"jaxdc_differential_{uuid.uuid4().hex[:8]}"
    module = types.ModuleType(name)
    sys.modules[name] = module
    try:
        source = PRELUDE + "".join(case.wrappers for case in cases)
        exec(compile(source, name, "exec"), module.__dict__)
        verdicts = {}
        hashes = {}
        for case in cases:
            code = f"@pytree_dataclass\nclass C_{case.name}:\n    f: Static[{case.annotation}]\n"
            try:
                exec(compile(code, name, "exec"), module.__dict__)
            except TypeError as exc:
                verdicts[case.name] = Verdict(True, str(exc))
            else:
                verdicts[case.name] = Verdict(False)
            if case.value is not None:
                hashes[case.name] = _unhashable_value(case.value, module.__dict__)
        return verdicts, hashes
    finally:
        del sys.modules[name]


def _unhashable_value(expression: str, namespace: dict[str, Any]) -> bool:
    try:
        hash(eval(expression, namespace))
    except TypeError:  # building a frozenset of it raises it too
        return True
    return False


def plugin_verdicts(project: Project, cases: list[Case]) -> dict[str, Verdict]:
    source, by_line = module_source(cases)
    project.write({"generated.py": source})
    run = project.mypy("--show-traceback", "generated.py")
    assert "INTERNAL ERROR" not in run.stdout + run.stderr, run.stdout + run.stderr
    verdicts = {case.name: Verdict(False) for case in cases}
    for _, line, code, message in run.errors:
        if code == "jaxdc-static":
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
