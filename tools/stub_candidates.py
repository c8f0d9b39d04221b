"""Measure stub designs on all seven checker configurations and both target Pythons
(docs/checker-parity.md has the tables this prints).

A question is a probe file whose lines are tagged (`# TAG` at the end) and the stub files a
candidate replaces; every tag says whether its line must be reported (a mistake) or clean
(code the runtime accepts). Each candidate's stubs are installed as `jaxdc-stubs` into a
scratch venv (which sees jax & co. of this one, not the editable jaxdc), and every checker
configuration runs over the probe against it, for each target Python. A cell lists what
the configuration gets wrong: a mistake it misses, or correct code it reports.

    python tools/stub_candidates.py [replace] [copy_and_mutate]

Takes several minutes (four pyright-based and four mypy runs per candidate); not part of
`make test`. The replace candidates live in tools/stub_candidates/replace/<candidate>/
(each a `_replace.pyi`, whose `_ReplaceMixin` is PyTreeNode's `replace`); "chosen" is the
stubs as they are.
"""

from __future__ import annotations

import shutil
import sys
import tempfile
import textwrap
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
CANDIDATES = REPO / "tools" / "stub_candidates"
sys.path.insert(0, str(REPO / "tests"))
import checkers  # noqa: E402


@dataclass(frozen=True)
class Question:
    probe: str
    wanted: dict[str, tuple[str, bool]]
    """tag -> (what the line is, whether a checker should report it)."""
    candidates: dict[str, dict[str, str]]
    """title -> {stub file name: its text}; {} is the stubs as they are."""
    targets: tuple[str, ...] = checkers.TARGETS


# Where the stubs declare PyTreeNode's `replace`: the last member of the class.
NODE_REPLACE = "    # `obj.replace(**changes)`"
MIXIN = "class _ReplaceMixin:\n"
# What a candidate's `replace` method may use, for `_node.pyi` to import.
NODE_IMPORTS = (
    "import sys\nfrom typing import Any, overload\n\nfrom typing_extensions import Self\n"
)


def _split_candidate(text: str) -> dict[str, str]:
    """A candidate's `_replace.pyi` and the `_node.pyi` it implies: the stubs' own, with
    PyTreeNode's `replace` replaced by the body of the candidate's `_ReplaceMixin` (written
    as a class for reading; the method must be PyTreeNode's own, as the plugin requires)."""
    replace_text, _, method = text.partition(MIXIN)
    node = (REPO / "stubs" / "jaxdc-stubs" / "_node.pyi").read_text()
    assert method and NODE_REPLACE in node
    private = sorted(
        n
        for n in ("_P", "_T", "_SupportsReplace")
        if f"\n{n} " in replace_text or f"class {n}(" in replace_text
    )
    imports = NODE_IMPORTS + (
        f"from jaxdc._replace import {', '.join(private)}\n" if private else ""
    )
    chosen_import = (
        "if sys.version_info >= (3, 13):\n    from jaxdc._replace import _ReplaceMethod\n"
    )
    assert chosen_import in node
    node = node[: node.index(NODE_REPLACE)].replace(chosen_import, "")
    return {"_replace.pyi": replace_text, "_node.pyi": imports + node + method}


def _replace_candidates() -> dict[str, dict[str, str]]:
    """The candidates under tools/stub_candidates/replace/, then the chosen stubs."""
    found = {
        folder.name: _split_candidate((folder / "_replace.pyi").read_text())
        for folder in sorted((CANDIDATES / "replace").iterdir())
        if folder.is_dir()
    }
    return {**found, "chosen (the stubs)": {}}


REPLACE_PROBE = """\
from typing import TypeVar

import jax
import jax.numpy as jnp
from typing_extensions import Self

import jaxdc
from jaxdc import PyTreeNode, Static, pytree_dataclass


@pytree_dataclass
class State:
    params: jax.Array
    step: Static[int] = 0
    count: int = jaxdc.field(default=0, init=False)

    def bump(self) -> Self:
        return jaxdc.replace(self, step=self.step + 1)  # SELF


@pytree_dataclass
class Custom:
    w: jax.Array

    def __init__(self, n: int) -> None:
        jaxdc.attr(self, lambda s: s.w).set(jnp.zeros(n))


class Node(PyTreeNode):
    value: jax.Array

    def bump(self) -> Self:
        return self.replace(value=self.value + 1)  # SELF


class Linear(PyTreeNode):
    w: jax.Array

    def __init__(self, n: int) -> None:
        jaxdc.attr(self, lambda s: s.w).set(jnp.zeros(n))


S = TypeVar("S", bound=State)


def restep(state: S) -> S:
    return jaxdc.replace(state, step=2)  # TYPEVAR


state = State(jnp.zeros(3))
node = Node(jnp.zeros(2))
jaxdc.replace(state, step=1)  # PLAIN
node.replace(value=jnp.ones(2))  # PLAIN
jaxdc.replace(Custom(3), w=jnp.ones(3))  # OWN_INIT
Linear(3).replace(w=jnp.ones(3))  # OWN_INIT
jaxdc.replace(state, count=1)  # INIT_FALSE
jaxdc.replace(state, stpe=1)  # TYPO
jaxdc.replace(state, step="one")  # TYPE
node.replace(valeu=jnp.ones(2))  # TYPO
node.replace(value="one")  # TYPE
"""

COPY_AND_MUTATE_PROBE = """\
import jax
import jax.numpy as jnp
from typing_extensions import assert_type

import jaxdc


@jaxdc.pytree_dataclass
class Inner:
    x: jax.Array


@jaxdc.pytree_dataclass
class State:
    inner: Inner
    layers: list[Inner]
    step: jax.Array


def use(state: State) -> None: ...


state = State(Inner(jnp.zeros(2)), [Inner(jnp.zeros(2))], jnp.zeros(()))
with jaxdc.copy_and_mutate(state) as new:
    assert_type(new.step, jax.Array)  # READ
    use(new)  # PASS
    new.inner.x = jnp.ones(2)  # WRITE
    new.layers[0].x = jnp.ones(2)  # WRITE
    new.step = new.step + 1  # WRITE
    jaxdc.attr(new, lambda n: n.step).set("one")  # ATTR
new.step = jnp.ones(())  # AFTER
state.step = jnp.ones(())  # FINISHED
"""

_CM_HEAD = """\
from contextlib import AbstractContextManager
from typing import Any, Generic, TypeVar

_T = TypeVar("_T")
"""
_EDITABLE = """
class _Editable(Generic[_T]):
    def __getattr__(self, name: str) -> Any: ...
    def __setattr__(self, name: str, value: Any) -> None: ...
"""


def _copy_and_mutate_returning(returns: str, extra: str = "") -> dict[str, str]:
    signature = "def copy_and_mutate(obj: _T, validate: bool = True)"
    text = f"{_CM_HEAD}{extra}\n{signature} -> AbstractContextManager[{returns}]: ...\n"
    return {"_copy_and_mutate.pyi": text}


QUESTIONS = {
    "replace": Question(
        probe=REPLACE_PROBE,
        wanted={
            "TYPO": ("a misspelt keyword", True),
            "TYPE": ("a value of the wrong type", True),
            "PLAIN": ("a field changed", False),
            "SELF": ("`replace(self, ...)` / `self.replace(...)` returned as `Self`", False),
            "TYPEVAR": ("`replace(x, ...)` returned as `x`'s type variable", False),
            "OWN_INIT": ("a class with its own `__init__`", False),
            "INIT_FALSE": ("an `init=False` field changed", False),
        },
        candidates=_replace_candidates(),
    ),
    "copy_and_mutate": Question(
        probe=COPY_AND_MUTATE_PROBE,
        wanted={
            "WRITE": ("block writes", False),
            "FINISHED": ("assignment to a finished object", True),
            "AFTER": ("assignment to the copy after the block", True),
            "READ": ("reads typed (`assert_type`)", False),
            "PASS": ("the copy passed as the class", False),
            "ATTR": ("`jaxdc.attr` in the block with a wrong value type", True),
        },
        candidates={
            "`AbstractContextManager[T]`": _copy_and_mutate_returning("_T"),
            "`AbstractContextManager[Any]` (chosen)": {},
            "`AbstractContextManager[T | Any]`": _copy_and_mutate_returning("_T | Any"),
            "`AbstractContextManager[Editable[T]]`, `__getattr__`/`__setattr__` typed `Any`": (
                _copy_and_mutate_returning("_Editable[_T]", _EDITABLE)
            ),
        },
        targets=("3.13",),  # the copy's type does not depend on the target
    ),
}

Runner = Callable[[Path, str], list[checkers.Diagnostic]]


def _runners(python: str) -> dict[str, Runner]:
    def mypy(plugin: bool) -> Runner:
        def run(work: Path, target: str) -> list[checkers.Diagnostic]:
            ini = work / f"mypy-{plugin}.ini"
            ini.write_text(checkers.mypy_ini(plugin=plugin))
            cache = REPO / ".mypy_cache" / f"stub-candidates-{plugin}"
            args = ["--config-file", str(ini), "probe.py"]
            run = checkers.run_mypy(work, args, cache_dir=cache, python=python, target=target)
            return run.check().errors

        return run

    def stub_only(runner: Callable[..., list[checkers.Diagnostic]]) -> Runner:
        return lambda work, target: runner(work, ["probe.py"], python=python, target=target)

    return {
        "pyright": stub_only(checkers.run_pyright),
        "basedpyright": stub_only(checkers.run_basedpyright),
        "ty": stub_only(checkers.run_ty),
        "pyrefly": stub_only(checkers.run_pyrefly),
        "zuban": stub_only(checkers.run_zuban),
        "mypy": mypy(plugin=False),
        "mypy-plugin": mypy(plugin=True),
    }


def _lines(probe: str, tag: str) -> set[int]:
    return {n for n, line in enumerate(probe.splitlines(), 1) if line.endswith(f"# {tag}")}


def _verdict(question: Question, diagnostics: list[checkers.Diagnostic]) -> str:
    """What the configuration got wrong, by tag: `-` when nothing."""
    flagged = {d.line for d in diagnostics if d.file == "probe.py"}
    wrong = []
    for tag, (_, reported) in question.wanted.items():
        lines = _lines(question.probe, tag)
        if reported and not lines <= flagged:
            wrong.append(f"misses {tag}")
        if not reported and lines & flagged:
            wrong.append(f"reports {tag}")
    return "; ".join(wrong) or "-"


def measure(question: Question) -> dict[str, dict[str, str]]:
    """candidate -> "<configuration>@<target>" -> verdict."""
    table: dict[str, dict[str, str]] = {}
    for title, stubs_text in question.candidates.items():
        with tempfile.TemporaryDirectory() as tmp:
            work = Path(tmp)
            python, site = checkers.bare_venv(work / "env")
            stubs = site / "jaxdc-stubs"
            shutil.copytree(REPO / "stubs" / "jaxdc-stubs", stubs)
            for name, text in stubs_text.items():
                (stubs / name).write_text(text)
            (work / "probe.py").write_text(question.probe)
            # The harness's settings (pyright's standard mode, pyrefly's default preset).
            shutil.copy(checkers.CASES_DIR / "pyrightconfig.json", work)
            (work / "pyrefly.toml").write_text('project-includes = ["probe.py"]\n')
            row = {}
            for target in question.targets:
                for name, run in _runners(str(python)).items():
                    row[f"{name}@{target}"] = _verdict(question, run(work, target))
            table[title] = row
    return table


def render(question: Question, table: dict[str, dict[str, str]]) -> str:
    legend = ", ".join(
        f"{tag}: {what} ({'a mistake' if reported else 'clean code'})"
        for tag, (what, reported) in question.wanted.items()
    )
    lines = [f"What each configuration gets wrong (`-`: nothing). {legend}.", ""]
    for target in question.targets:
        names = list(checkers.CHECKERS)
        header = " | ".join(checkers.TITLES.get(c, c) for c in names)
        lines += [
            f"Target Python {target}:",
            "",
            f"| candidate | {header} |",
            "|---" * (len(names) + 1) + "|",
        ]
        for title, row in table.items():
            cells = [row[f"{name}@{target}"] for name in names]
            escaped = title.replace("|", "\\|")  # a bare | would split the cell
            lines.append(f"| {escaped} | " + " | ".join(cells) + " |")
        lines.append("")
    return "\n".join(lines)


if __name__ == "__main__":
    for name in sys.argv[1:] or list(QUESTIONS):
        print(f"## {name}\n")
        print(textwrap.dedent(render(QUESTIONS[name], measure(QUESTIONS[name]))))
