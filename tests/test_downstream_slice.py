"""A bounded slice of `make test-downstream`, offline: jax_dataclasses 1.6.3's own tests,
run as published and migrated to jaxdc, must give the counts docs/downstream.md shows.

The sdist is downloaded once by `make venv` (downstream/run.py fetch jax_dataclasses); the
whole downstream suite is `make test-downstream`. When this fails after a jaxdc change,
run `make test-downstream` (or `.venv-downstream/bin/python downstream/run.py run
jax_dataclasses`) to regenerate the page, and explain any new failure in triage.py.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "downstream"))

import migrate  # noqa: E402
import report  # noqa: E402
import run  # noqa: E402
import triage  # noqa: E402
from checkers import Diagnostic  # noqa: E402
from packages import PACKAGES  # noqa: E402
from results import Outcome  # noqa: E402

PACKAGE = next(p for p in PACKAGES if p.name == "jax_dataclasses")


def _doc_row() -> str:
    text = (REPO / "docs" / "downstream.md").read_text()
    return next(line for line in text.splitlines() if line.startswith(f"| {PACKAGE.name} "))


@pytest.fixture(scope="module")
def outcome(tmp_path_factory: pytest.TempPathFactory) -> Outcome:
    pytest.importorskip("jax_dataclasses")
    work = tmp_path_factory.mktemp("downstream")
    result = Outcome(PACKAGE.name, PACKAGE.version, PACKAGE.family)
    for variant in run.VARIANTS:
        root = run.prepare(PACKAGE, variant, result, work)
        result.tests[variant] = run.run_tests(PACKAGE, root, work / f"{variant}.xml")
    return result


def test_migration_is_the_import_line_only(outcome: Outcome) -> None:
    assert outcome.leftovers == []
    assert outcome.changed_lines == 8  # one `import jax_dataclasses as jdc` per test file
    assert outcome.hand_edits == []


def test_counts_match_the_page(outcome: Outcome) -> None:
    row = _doc_row()
    for variant in run.VARIANTS:
        cell = report.test_cell(outcome.tests[variant])
        assert f"| {cell} |" in row, f"{variant}: {cell} not in {row!r}: regenerate the page"


def test_every_difference_is_explained(outcome: Outcome) -> None:
    base, new = outcome.tests["baseline"], outcome.tests["jaxdc"]
    assert base.failed == base.errors == 0
    assert not (base.timed_out or new.timed_out)
    differences = report.compare_tests(base, new)
    assert len(differences) == 2
    unexplained = [
        d for d in differences if triage.explain(PACKAGE.name, d.subject, d.text) is None
    ]
    assert unexplained == []


def test_migration_rules_rewrite_only_import_lines(tmp_path: Path) -> None:
    (tmp_path / "m.py").write_text(
        "import jax_dataclasses as jdc\nfrom jax_dataclasses import Static\n"
        "x = 'import jax_dataclasses as jdc'\n"
    )
    changes = migrate.migrate(tmp_path, PACKAGE.families)
    assert [c.after for c in changes] == [
        "import jaxdc.compat.jax_dataclasses as jdc",
        "from jaxdc.compat.jax_dataclasses import Static",
    ]
    assert migrate.leftovers(tmp_path, PACKAGE.families) == []


def test_a_diagnostic_differing_only_in_the_callee_named_is_the_same() -> None:
    def error(message: str) -> Diagnostic:
        return Diagnostic("tests/t.py", 23, "reportArgumentType", message)

    published = error('Argument of type "int" cannot be assigned to "args" in function "make"')
    jitted = error('Argument of type "int" cannot be assigned to "args" in function "__call__"')
    assert report.diff([published], [jitted]) == ([], 0)
    other = error('Argument of type "str" cannot be assigned to "args" in function "make"')
    assert report.diff([published], [other]) == ([other], 1)


def test_a_triage_entry_that_explains_nothing_fails_the_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    stale = triage.Verdict(
        PACKAGE.name, "tests.test_fixed::test_gap", "TypeError: gone", triage.MISTAKE, "why"
    )
    monkeypatch.setattr(report, "TRIAGE", (stale,))
    outcome = Outcome(PACKAGE.name, PACKAGE.version, PACKAGE.family)
    assert report.write(tmp_path / "downstream.md", [outcome]) == [
        f"{PACKAGE.name}: stale triage entry, it explains nothing in this run: "
        "tests.test_fixed::test_gap"
    ]
