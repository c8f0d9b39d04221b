"""Measure stub designs for `copy_and_mutate` on every checker (docs/checker-parity.md).

A stub cannot tell a checker that fields may be assigned inside a `with` block only, so the
question is which return type of `copy_and_mutate` serves users best. Each candidate
replaces `_copy_and_mutate.pyi` in a copy of the stubs installed as `jaxdc-stubs` into a
scratch venv (which sees jax & co. of this one, not the editable jaxdc), and every checker
runs over one probe against that venv. Prints a Markdown table:

    python tools/stub_candidates.py

Takes a few minutes (two pyright-based runs per candidate); not part of `make test`.
"""

from __future__ import annotations

import shutil
import sys
import tempfile
import textwrap
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "tests"))
import checkers  # noqa: E402

HEAD = """\
from contextlib import AbstractContextManager
from typing import Any, Generic, TypeVar

_T = TypeVar("_T")
"""
CANDIDATES = {
    "`AbstractContextManager[T]`": "",
    "`AbstractContextManager[Any]` (chosen)": "",
    "`AbstractContextManager[T | Any]`": "",
    "`AbstractContextManager[Editable[T]]`, `__getattr__`/`__setattr__` typed `Any`": """
        class _Editable(Generic[_T]):
            def __getattr__(self, name: str) -> Any: ...
            def __setattr__(self, name: str, value: Any) -> None: ...
        """,
}
RETURNS = ["_T", "Any", "_T | Any", "_Editable[_T]"]

PROBE = """\
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
# What each tagged line should get: nothing for correct code, a diagnostic for a mistake.
WANTED = {
    "WRITE": ("block writes clean", False),
    "FINISHED": ("finished object reported", True),
    "AFTER": ("copy after the block reported", True),
    "READ": ("reads typed", False),
    "PASS": ("copy passes as the class", False),
    "ATTR": ("`jaxdc.attr` typed in the block", True),
}


def _lines(tag: str) -> set[int]:
    return {n for n, line in enumerate(PROBE.splitlines(), 1) if line.endswith(f"# {tag}")}


def _run_all(work: Path, python: str) -> dict[str, list[checkers.Diagnostic]]:
    ini = work / "mypy.ini"
    ini.write_text(checkers.mypy_ini(plugin=False))
    cache = REPO / ".mypy_cache" / "stub-candidates"
    found = {
        name: run(work, ["probe.py"], python=python)
        for name, run in [
            ("pyright", checkers.run_pyright),
            ("basedpyright", checkers.run_basedpyright),
            ("ty", checkers.run_ty),
            ("pyrefly", checkers.run_pyrefly),
            ("zuban", checkers.run_zuban),
        ]
    }
    args = ["--config-file", str(ini), "probe.py"]
    found["mypy"] = checkers.run_mypy(work, args, cache_dir=cache, python=python).errors
    return found


def measure() -> dict[str, dict[str, str]]:
    table: dict[str, dict[str, str]] = {}
    for (title, extra), returns in zip(CANDIDATES.items(), RETURNS, strict=True):
        with tempfile.TemporaryDirectory() as tmp:
            work = Path(tmp)
            python, site = checkers.bare_venv(work / "env")
            stubs = site / "jaxdc-stubs"
            shutil.copytree(REPO / "stubs" / "jaxdc-stubs", stubs)
            (stubs / "_copy_and_mutate.pyi").write_text(
                HEAD
                + textwrap.dedent(extra)
                + "\ndef copy_and_mutate(obj: _T, validate: bool = True)"
                + f" -> AbstractContextManager[{returns}]: ...\n"
            )
            (work / "probe.py").write_text(PROBE)
            row: dict[str, str] = {}
            for checker, diagnostics in _run_all(work, str(python)).items():
                flagged = {d.line for d in diagnostics if d.file == "probe.py"}
                cells = []
                for tag, (_, reported) in WANTED.items():
                    hit = bool(_lines(tag) & flagged)
                    cells.append("yes" if hit == reported else "**no**")
                row[checker] = " / ".join(cells)
            table[title] = row
    return table


def render(table: dict[str, dict[str, str]]) -> str:
    checker_names = list(next(iter(table.values())))
    lines = [
        "Each cell: " + " / ".join(label for label, _ in WANTED.values()) + ".",
        "",
        "| `copy_and_mutate` returns | " + " | ".join(checker_names) + " |",
        "|---" * (len(checker_names) + 1) + "|",
    ]
    for title, row in table.items():
        lines.append(f"| {title} | " + " | ".join(row[c] for c in checker_names) + " |")
    return "\n".join(lines)


if __name__ == "__main__":
    print(render(measure()))
