"""Every case in typecheck_cases/ gets exactly its expected diagnostics from every layer.

One test per checker, each running it once over the whole directory (pytest-xdist spreads
the runs over workers); one runs the cases under Python; one keeps the parity table true.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import checkers
import pytest

CASES = checkers.load_cases()
MARKERS = [marker for case in CASES for marker in case.markers]


def _mypy_cache(checker: str, warm_cache: Path) -> Path:
    """The cache the cases' mypy + plugin run keeps between sessions. It starts as a copy of
    the shared warm cache (same plugin, same settings); plain mypy cannot use that one (mypy
    discards a cache written with other plugins) and builds its own once."""
    cache = checkers.REPO / ".mypy_cache" / f"typecheck_cases-{checker}"
    if not cache.exists():
        shutil.copytree(warm_cache, cache)
    return cache


@pytest.mark.parametrize("checker", checkers.CHECKERS)
def test_checker(checker: str, request: pytest.FixtureRequest) -> None:
    cache = None
    if checker == "mypy-plugin":
        cache = _mypy_cache(checker, request.getfixturevalue("warm_cache"))
    elif checker == "mypy":
        cache = checkers.REPO / ".mypy_cache" / "typecheck_cases-mypy"
    problems = checkers.compare(checker, MARKERS, checkers.run_checker(checker, mypy_cache=cache))
    assert not problems, "\n".join(problems)


def test_runtime() -> None:
    problems = checkers.runtime_problems(CASES, checkers.run_cases_in_python(CASES))
    assert not problems, "\n".join(problems)


def test_parity_table_is_current() -> None:
    document = checkers.PARITY_DOC.read_text()
    assert document == checkers.render_parity(CASES, document), (
        "docs/checker-parity.md is stale: run `python tests/checkers.py --write-parity`"
    )
