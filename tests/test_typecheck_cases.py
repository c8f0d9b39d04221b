"""Every case in typecheck_cases/ gets exactly its expected diagnostics from every layer.

One test per checker and target Python (checkers.TARGETS), each running the checker once
over the whole directory (pytest-xdist spreads the runs over workers); one runs the cases
under Python; one keeps the parity table true.
"""

from __future__ import annotations

import re
from pathlib import Path

import checkers
import pytest

CASES = checkers.available_cases()
MARKERS = [marker for case in CASES for marker in case.markers]


def _mypy_cache(checker: str, target: str) -> Path:
    """The cache the cases' mypy run for ``target`` keeps between sessions (one per checker
    and target: mypy discards a cache written with other plugins, and two workers must not
    write one cache at once). The first run over jax for a target builds it (~1 minute)."""
    return checkers.REPO / ".mypy_cache" / f"typecheck_cases-{checker}-{target}"


@pytest.mark.parametrize("target", checkers.TARGETS)
@pytest.mark.parametrize("checker", checkers.CHECKERS)
def test_checker(checker: str, target: str) -> None:
    cache = _mypy_cache(checker, target) if checker.startswith("mypy") else None
    found = checkers.run_checker(checker, target, mypy_cache=cache)
    problems = checkers.compare(checker, MARKERS, checkers.available_diagnostics(found), target)
    assert not problems, "\n".join(problems)


def test_runtime() -> None:
    problems = checkers.runtime_problems(CASES, checkers.run_cases_in_python(CASES))
    assert not problems, "\n".join(problems)


def test_cases_left_out_on_this_jax() -> None:
    """The cases written for newer jax (checkers.NEEDS_NEWER_JAX) exist and use the API they
    are left out for; exactly those this jax lacks the API for are left out, as a skip."""
    sources = {case.name: case.path.read_text() for case in checkers.load_cases()}
    named = [(case, needs) for needs in checkers.NEEDS_NEWER_JAX for case in needs.cases]
    assert named, "NEEDS_NEWER_JAX names no case"
    for case, needs in named:
        assert case in sources, f"{case}: no such case"
        assert needs.api in sources[case], f"{case} does not use {needs.api}"
    left_out = {case for case, needs in named if not needs.available()}
    assert set(checkers.UNAVAILABLE) == left_out
    assert left_out.isdisjoint(case.name for case in CASES)
    if checkers.UNAVAILABLE:
        pytest.skip("; ".join(f"{n}: {why}" for n, why in checkers.UNAVAILABLE.items()))


def test_parity_table_is_current() -> None:
    document = checkers.PARITY_DOC.read_text()
    assert document == checkers.render_parity(checkers.load_cases(), document), (
        "docs/checker-parity.md is stale: run `python tests/checkers.py --write-parity`"
    )


def test_the_settings_files_name_files_that_exist() -> None:
    """The cases' checker settings say in comments which harness runs them: the files named
    there exist (pyrightconfig.json once named a harness that did not)."""
    named = {
        (settings.name, path)
        for settings in sorted(checkers.CASES_DIR.glob("*"))
        if settings.suffix in {".json", ".toml", ".ini"}
        for path in re.findall(r"\b(?:tests|tools|downstream)/[\w/]+\.py\b", settings.read_text())
    }
    assert named, "no settings file names the harness"
    assert [(s, p) for s, p in sorted(named) if not (checkers.REPO / p).is_file()] == []
