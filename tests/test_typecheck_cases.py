"""Every case in typecheck_cases/ gets exactly its expected diagnostics from every layer.

One test per layer, each running its checker once over the whole directory (pytest-xdist
spreads the four runs over workers instead of repeating them).
"""

from __future__ import annotations

import pytest
import typecheck_harness as harness

CASES = harness.load_cases()


def test_cases_exist() -> None:
    assert len(CASES) >= 20, "typecheck_cases/ went missing"


@pytest.mark.parametrize("checker", [harness.PYRIGHT, harness.MYPY, harness.PLUGIN])
def test_checker(checker: str) -> None:
    got = harness.run_checker(checker)
    problems = harness.compare(checker, harness.expected(CASES, checker), got)
    assert not problems, "\n".join(problems)


def test_runtime() -> None:
    problems = harness.runtime_problems(CASES, harness.run_cases_in_python(CASES))
    assert not problems, "\n".join(problems)


def test_parity_table_is_current() -> None:
    assert harness.PARITY_DOC.read_text() == harness.render_parity(CASES), (
        "docs/checker-parity.md is stale: run `python tests/typecheck_harness.py --write-parity`"
    )
