"""Every documented spelling of a static field gets the same verdict in every layer.

A generated module per (decorator or `PyTreeNode` subclass) x (plain or `from __future__
import annotations`) declares one class per (spelling, inner type). Each layer gives each
case a verdict — the field is *static*, *data*, or the class is *rejected* — and all must
match what the spelling means:

- runtime: `TypeError` at class definition (rejected), else the field's kind;
- mypy + jaxdc_mypy: an unhashable-static error (`jaxdc-static`, or `type-var` from the
  stubs' bound on `Static`) on the case's lines is *rejected*; `jaxdc-data` is *data*; no
  diagnostic is *static* for an inner type that is hashable and not array-like, *data* for
  one that is array-like;
- pyright (only the stubs): rejects exactly the spellings that go through the `Static` alias
  with an unhashable inner type, and is silent on everything else.

Inner types are chosen so that the two kinds are told apart by the plugin: hashable and not
array-like (`str`: static is fine, data is `jaxdc-data`) or unhashable and array-like
(`list[int]`: static is rejected, data is fine). `make test` runs two inner types;
`make test-full` (JAXDC_TEST_FULL=1) all of them.
"""

from __future__ import annotations

import importlib
import json
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
from checkers import Project, run_pyright

FULL = os.environ.get("JAXDC_TEST_FULL") == "1"
# `jax.tree.static()` (JAX's own field specifier) exists from jax 0.9.1 on.
JAX_TREE_STATIC = hasattr(importlib.import_module("jax.tree"), "static")

STATIC, DATA, REJECTED = "static", "data", "rejected"


@dataclass(frozen=True)
class Spelling:
    name: str
    kind: str  # what the spelling means: STATIC or DATA
    field: str  # `{T}` is the inner type, `{n}` makes names unique
    prelude: str = ""  # module-level lines the case needs (aliases)
    via_static_alias: bool = True  # pyright sees `Static[...]` (and its hashable bound)


SPELLINGS = [
    Spelling("Static[T]", STATIC, "x: Static[{T}]"),
    Spelling("jdc.Static[T]", STATIC, "x: jdc.Static[{T}]"),
    Spelling("quoted", STATIC, 'x: "jdc.Static[{T}]"'),
    Spelling("quoted inner", STATIC, 'x: jdc.Static["{T}"]'),
    Spelling("import alias", STATIC, "x: S[{T}]"),  # from jaxdc import Static as S
    Spelling("bare alias", STATIC, "x: Bare{n}[{T}]", "Bare{n} = jdc.Static"),
    Spelling("TypeAlias", STATIC, "x: Name{n}", "Name{n}: TypeAlias = jdc.Static[{T}]"),
    Spelling("generic alias", STATIC, "x: Gen{n}[{T}]", "Gen{n} = jdc.Static[H]"),
    Spelling("Annotated marker", STATIC, "x: Annotated[{T}, STATIC_MARKER]", "", False),
    Spelling("Annotated over Static", STATIC, 'x: Annotated[jdc.Static[{T}], "doc"]'),
    Spelling("Static over Annotated", STATIC, 'x: jdc.Static[Annotated[{T}, "doc"]]'),
    Spelling("Static | None", STATIC, "x: jdc.Static[{T}] | None = None"),
    Spelling("Optional[Static]", STATIC, "x: Optional[jdc.Static[{T}]] = None"),
    Spelling("Union[Static, None]", STATIC, "x: Union[jdc.Static[{T}], None] = None"),
    Spelling("Static[Optional]", STATIC, "x: jdc.Static[Optional[{T}]] = None"),
    Spelling("field(static=True)", STATIC, "x: {T} = jdc.field(static=True)", "", False),
    Spelling("static_field()", STATIC, "x: {T} = jdc.static_field()", "", False),
    Spelling(
        "dataclasses metadata",
        STATIC,
        'x: {T} = dataclasses.field(metadata={{"static": True}})',
        "",
        False,
    ),
    # JAX's documented spellings (jax.tree_util.register_dataclass reads the same key).
    Spelling(
        "dataclasses metadata dict()",
        STATIC,
        "x: {T} = dataclasses.field(metadata=dict(static=True))",
        "",
        False,
    ),
    *(
        [
            Spelling("jax.tree.static()", STATIC, "x: {T} = jax.tree.static()", "", False),
            Spelling(
                "jax.tree.static(keywords)",
                STATIC,
                "x: {T} = jax.tree.static(kw_only=True, repr=False)",
                "",
                False,
            ),
        ]
        if JAX_TREE_STATIC
        else []
    ),
    Spelling("plain", DATA, "x: {T}", "", False),
    Spelling("Annotated", DATA, 'x: Annotated[{T}, "doc"]', "", False),
    Spelling("Optional", DATA, "x: Optional[{T}] = None", "", False),
]


@dataclass(frozen=True)
class Inner:
    source: str
    hashable: bool
    arraylike: bool  # the plugin accepts it as a data field


INNERS = [
    Inner("str", hashable=True, arraylike=False),
    Inner("list[int]", hashable=False, arraylike=True),
]
if FULL:
    INNERS += [
        Inner("tuple[str, ...]", hashable=True, arraylike=False),
        Inner("Key", hashable=True, arraylike=False),  # a frozen dataclass
        Inner("Literal['a', 'b']", hashable=True, arraylike=False),
        Inner("jax.Array", hashable=False, arraylike=True),
        Inner("dict[str, jax.Array]", hashable=False, arraylike=True),
        Inner("Settings", hashable=False, arraylike=False),  # a dataclass, not frozen
    ]

HEADER = """\
import dataclasses
from typing import Annotated, Literal, Optional, TypeVar, Union
from collections.abc import Hashable

import jax
from typing_extensions import TypeAlias

import jaxdc as jdc
from jaxdc import PyTreeNode, Static
from jaxdc import Static as S
from jaxdc._static import STATIC_MARKER

H = TypeVar("H", bound=Hashable)
REJECTED: dict[str, str] = {}


@dataclasses.dataclass(frozen=True)
class Key:
    name: str


@dataclasses.dataclass
class Settings:
    lr: float
"""


@dataclass(frozen=True)
class Case:
    cls: str
    spelling: Spelling
    inner: Inner
    lines: tuple[int, ...]  # the case's own lines (prelude and field)

    @property
    def expected(self) -> str:
        if self.spelling.kind == DATA:
            return DATA
        return STATIC if self.inner.hashable else REJECTED


def _module(form: str, future: bool) -> tuple[str, list[Case]]:
    lines = (["from __future__ import annotations"] if future else []) + HEADER.splitlines()
    cases = []
    for i, spelling in enumerate(SPELLINGS):
        for j, inner in enumerate(INNERS):
            n = f"{i}_{j}"
            cls = f"C{n}"
            own = []
            if spelling.prelude:
                lines += ["", spelling.prelude.format(T=inner.source, n=n)]
                own.append(len(lines))
            head = (
                ["@jdc.pytree_dataclass", f"class {cls}:"]
                if form == "decorator"
                else [f"class {cls}(PyTreeNode):"]
            )
            lines += ["", "", "try:", *("    " + h for h in head)]
            lines.append("        " + spelling.field.format(T=inner.source, n=n))
            own.append(len(lines))
            lines += ["except TypeError as exc:", f"    REJECTED[{cls!r}] = str(exc)"]
            cases.append(Case(cls, spelling, inner, tuple(own)))
    return "\n".join(lines) + "\n", cases


MODULES = {
    f"{form}_{'future' if future else 'plain'}": _module(form, future)
    for form in ("decorator", "node")
    for future in (False, True)
}


# ---- each layer's verdicts ---------------------------------------------------------------

_RUNTIME = """
import importlib, json, sys
sys.path.insert(0, sys.argv[1])
from jaxdc._spec import spec_of
verdicts = {}
for name in sys.argv[2:]:
    module = importlib.import_module(name)
    for cls, message in module.REJECTED.items():
        verdicts[f"{name}.{cls}"] = ["rejected", message]
    for attr, value in vars(module).items():
        spec = spec_of(value) if isinstance(value, type) else None
        if attr.startswith("C") and spec is not None:
            kind = next(f.kind for f in spec.fields if f.name == "x")
            verdicts[f"{name}.{attr}"] = [kind, ""]
print(json.dumps(verdicts))
"""


def _runtime_verdicts(root: Path) -> dict[str, list[str]]:
    proc = subprocess.run(
        [sys.executable, "-c", _RUNTIME, str(root), *MODULES],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)  # type: ignore[no-any-return]


def _plugin_verdict(case: Case, codes: set[str]) -> str:
    if codes & {"jaxdc-static", "type-var"}:
        return REJECTED
    if "jaxdc-data" in codes:
        return DATA
    return DATA if case.inner.arraylike else STATIC


def _pyright_lines(root: Path) -> set[tuple[str, int]]:
    """(module, line) of pyright's errors (run_pyright: a run that is no result
    fails here rather than reading as "nothing rejected")."""
    return {(Path(d.file).stem, d.line) for d in run_pyright(root, ["."])}


def _write(root: Path) -> None:
    for name, (source, _) in MODULES.items():
        (root / f"{name}.py").write_text(source)


def _disagreements(verdicts: dict[str, str]) -> list[str]:
    wrong = []
    for module, (_, cases) in MODULES.items():
        for case in cases:
            got = verdicts.get(f"{module}.{case.cls}", "missing")
            if got != case.expected:
                wrong.append(
                    f"{module}: {case.spelling.name} with {case.inner.source}: expected "
                    f"{case.expected}, got {got}"
                )
    return wrong


def test_runtime_verdicts(tmp_path: Path) -> None:
    _write(tmp_path)
    found = _runtime_verdicts(tmp_path)
    assert not _disagreements({key: kind for key, (kind, _) in found.items()})
    for module, (_, cases) in MODULES.items():
        for case in cases:
            kind, message = found[f"{module}.{case.cls}"]
            if kind == REJECTED:  # the message names the class, the field and the fix
                assert f"class '{case.cls}'" in message and "'x'" in message, message
                assert "Fix:" in message, message


def test_mypy_plugin_verdicts(tmp_path: Path, request: pytest.FixtureRequest) -> None:
    project = Project.create(tmp_path, request.getfixturevalue("warm_cache"))
    _write(project.root)
    run = project.mypy()
    assert "INTERNAL ERROR" not in run.stdout + run.stderr, run.stdout
    verdicts = {}
    for module, (_, cases) in MODULES.items():
        for case in cases:
            codes = {
                code
                for path, line, code in run.diagnostics
                if path == f"{module}.py" and line in case.lines
            }
            verdicts[f"{module}.{case.cls}"] = _plugin_verdict(case, codes)
    assert not _disagreements(verdicts), run.stdout
    # Nothing else is reported: no diagnostic off the cases' lines.
    lines = {
        (f"{m}.py", line) for m, (_, cases) in MODULES.items() for c in cases for line in c.lines
    }
    stray = [d for d in run.diagnostics if (d[0], d[1]) not in lines]
    assert not stray, run.stdout


# Classes in a function, naming aliases defined there: mypy expands such aliases where they
# are used, so the analysed type no longer shows `Static` and the plugin must read the name
# as written (`fields.record_fields` looks names up only when it cannot tell otherwise).
LOCAL_ALIASES = """\
from typing import Optional

import jax

import jaxdc as jdc

REJECTED: dict[str, str] = {}


def build() -> None:
    Name = jdc.Static[list[int]]
    Fine = jdc.Static[str]
    try:
        @jdc.pytree_dataclass
        class ByName:
            x: Name  # rejected
    except TypeError as exc:
        REJECTED["ByName"] = str(exc)
    try:
        @jdc.pytree_dataclass
        class ByOptionalName:
            x: Optional[Name] = None  # rejected
    except TypeError as exc:
        REJECTED["ByOptionalName"] = str(exc)

    @jdc.pytree_dataclass
    class Accepted:
        name: Fine
        w: jax.Array
        b: Optional[jax.Array] = None


build()
"""


def test_function_local_aliases(tmp_path: Path, request: pytest.FixtureRequest) -> None:
    project = Project.create(tmp_path, request.getfixturevalue("warm_cache"))
    (project.root / "local_aliases.py").write_text(LOCAL_ALIASES)
    rejected = [n + 1 for n, line in enumerate(LOCAL_ALIASES.splitlines()) if "# rejected" in line]
    run = project.mypy()
    found = {(path, line, code) for path, line, code in run.diagnostics if code != "type-var"}
    assert found == {("local_aliases.py", line, "jaxdc-static") for line in rejected}, run.stdout
    proc = subprocess.run(
        [sys.executable, "-c", "import local_aliases; print(sorted(local_aliases.REJECTED))"],
        cwd=project.root,
        capture_output=True,
        text=True,
        check=True,
    )
    assert proc.stdout.split() == ["['ByName',", "'ByOptionalName']"], proc.stderr


def test_pyright_verdicts(tmp_path: Path) -> None:
    _write(tmp_path)
    flagged = _pyright_lines(tmp_path)
    wrong = []
    for module, (_, cases) in MODULES.items():
        for case in cases:
            rejected = any((module, line) in flagged for line in case.lines)
            expected = case.expected == REJECTED and case.spelling.via_static_alias
            if rejected != expected:
                wrong.append(
                    f"{module}: {case.spelling.name} with {case.inner.source}: pyright "
                    f"{'rejects' if rejected else 'accepts'} it"
                )
    assert not wrong, "\n".join(wrong)


if __name__ == "__main__":  # write the modules somewhere to look at them
    _write(Path(sys.argv[1]))
