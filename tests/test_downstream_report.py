"""The downstream comparison (downstream/report.py, triage.py, migrate.py, run.py), fed
recorded results: every way a broken or changed run could pass as "explained" fails here.

No package is run (tests/test_downstream_slice.py runs one); each test builds the two
runs' records by hand, as `run.py` writes them to results.json.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "downstream"))

import migrate  # noqa: E402
import report  # noqa: E402
import run  # noqa: E402
import triage  # noqa: E402
from checkers import Diagnostic  # noqa: E402
from packages import CHEX, FLAX_STRUCT, PACKAGES  # noqa: E402
from results import ERROR, FAILED, PASSED, SKIPPED, Outcome, TestRun, Warned  # noqa: E402

PKG = PACKAGES[0]
OTHER_ERROR = "AssertionError: assert 1 == 2"


def _run(statuses: dict[str, str], failures: dict[str, str] | None = None, **kw: object) -> TestRun:
    counts = {s: sum(1 for v in statuses.values() if v == s) for s in (PASSED, FAILED, ERROR)}
    return TestRun(
        passed=counts[PASSED],
        failed=counts[FAILED],
        errors=counts[ERROR],
        skipped=sum(1 for v in statuses.values() if v == SKIPPED),
        statuses=statuses,
        failures=failures or {},
        **kw,  # type: ignore[arg-type]
    )


def _outcome(base: TestRun, new: TestRun, **checkers: list[Diagnostic]) -> Outcome:
    o = Outcome(PKG.name, PKG.version, PKG.family, tests={"baseline": base, "jaxdc": new})
    if checkers:
        o.pyright = {"baseline": checkers.get("baseline", []), "jaxdc": checkers["jaxdc"]}
    return o


def _problems(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    outcome: Outcome,
    *entries: triage.Verdict,
) -> list[str]:
    monkeypatch.setattr(triage, "TRIAGE", entries)
    monkeypatch.setattr(report, "TRIAGE", entries)
    return report.write(tmp_path / "downstream.md", [outcome])


def _entry(subject: str, text: str, kind: str = triage.MISTAKE) -> triage.Verdict:
    return triage.Verdict(PKG.name, subject, text, kind, "why")


# --- triage entries name exactly one thing ------------------------------------------------


@pytest.mark.parametrize(
    "subject",
    [
        r"tests\.test_(actions|environments|grid)\b",  # the navix entry: seven modules at once
        "tests.test_actions",  # a whole module
        r"^navix\.tasks:1[23] \[jaxdc-data\]",  # two lines
        "tests.test_copy_and_mutate:\\d+ [reportInvalidTypeForm]",  # any line with a code
    ],
)
def test_an_entry_that_names_more_than_one_test_or_line_is_refused(subject: str) -> None:
    with pytest.raises(ValueError, match=r"name one test id .* or one diagnostic place"):
        _entry(subject, "TypeError: x")


def test_an_entry_without_the_exact_text_it_explains_is_refused() -> None:
    with pytest.raises(ValueError, match="give the exact text it explains"):
        _entry("tests.test_a::test_b", "")


def test_an_entry_explains_its_test_failing_with_its_text_only(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    entry = _entry("tests.test_a::test_one", "TypeError: unhashable")
    base = _run({"tests.test_a::test_one": PASSED, "tests.test_a::test_two": PASSED})
    same = _run(
        {"tests.test_a::test_one": FAILED, "tests.test_a::test_two": PASSED},
        {"tests.test_a::test_one": "TypeError: unhashable"},
    )
    assert _problems(tmp_path, monkeypatch, _outcome(base, same), entry) == []
    # The same test failing for another reason, and another test failing with the same
    # text, are both unexplained: the entry names one test and one text.
    other = _run(
        {"tests.test_a::test_one": FAILED, "tests.test_a::test_two": FAILED},
        {"tests.test_a::test_one": OTHER_ERROR, "tests.test_a::test_two": "TypeError: unhashable"},
    )
    assert _problems(tmp_path, monkeypatch, _outcome(base, other), entry) == [
        f"{PKG.name}: tests.test_a::test_one: fails only on jaxdc: {OTHER_ERROR}",
        f"{PKG.name}: tests.test_a::test_two: fails only on jaxdc: TypeError: unhashable",
        f"{PKG.name}: stale triage entry, it explains nothing in this run: tests.test_a::test_one",
    ]


def test_an_entry_explains_one_diagnostic_line_only(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    message = 'Could not specialize type "type[StaticTypeMustBeHashable@Static]"'
    entry = _entry("tests.test_x:72 [reportInvalidTypeForm]", message)
    runs = _run({"tests.test_x::test_a": PASSED})
    at_72 = Diagnostic("tests/test_x.py", 72, "reportInvalidTypeForm", message)
    at_90 = Diagnostic("tests/test_x.py", 90, "reportInvalidTypeForm", message)
    explained = _outcome(runs, runs, jaxdc=[at_72])
    assert _problems(tmp_path, monkeypatch, explained, entry) == []
    assert _problems(tmp_path, monkeypatch, _outcome(runs, runs, jaxdc=[at_72, at_90]), entry) == [
        f"{PKG.name}: tests.test_x:90 [reportInvalidTypeForm]: pyright: {message}"
    ]


def test_an_open_gap_is_listed_under_its_owner_and_still_fails_the_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    entry = _entry("tests.test_a::test_one", "TypeError: x", triage.open_in("branch hooks"))
    base = _run({"tests.test_a::test_one": PASSED})
    new = _run({"tests.test_a::test_one": ERROR}, {"tests.test_a::test_one": "TypeError: x"})
    problems = _problems(tmp_path, monkeypatch, _outcome(base, new), entry)
    assert problems == [
        f"{PKG.name}: tests.test_a::test_one: open, owned by branch hooks (see docs/downstream.md)"
    ]
    page = (tmp_path / "downstream.md").read_text()
    assert f"- **branch hooks**:\n  - why ({PKG.name} `tests.test_a::test_one`)" in page


# --- the two runs must run the same tests ------------------------------------------------


def test_a_test_that_vanishes_on_jaxdc_is_unexplained(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # flashbax 0.1.3 as it was recorded: 16 tests as published, 15 on jaxdc.
    ids = [f"flashbax.buffers.flat_buffer_test::test_{i}" for i in range(16)]
    base = _run(dict.fromkeys(ids, PASSED))
    new = _run(dict.fromkeys(ids[:15], PASSED))
    assert _problems(tmp_path, monkeypatch, _outcome(base, new)) == [
        f"{PKG.name}: {ids[15]}: passed as published, not run on jaxdc"
    ]


def test_a_test_run_only_on_jaxdc_or_skipped_only_on_jaxdc_is_unexplained(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    base = _run({"tests.t::test_a": PASSED, "tests.t::test_b": PASSED})
    new = _run({"tests.t::test_a": SKIPPED, "tests.t::test_b": PASSED, "tests.t::test_c": PASSED})
    assert _problems(tmp_path, monkeypatch, _outcome(base, new)) == [
        f"{PKG.name}: tests.t::test_a: passes as published, skipped on jaxdc",
        f"{PKG.name}: tests.t::test_c: passed on jaxdc, not run as published",
    ]


def test_a_test_failing_in_both_runs_with_another_error_is_unexplained(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    base = _run({"tests.t::test_a": FAILED}, {"tests.t::test_a": "ValueError: published"})
    same = _run({"tests.t::test_a": FAILED}, {"tests.t::test_a": "ValueError: published"})
    assert _problems(tmp_path, monkeypatch, _outcome(base, same)) == []
    page = (tmp_path / "downstream.md").read_text()
    assert "fail in both runs with the same error (1):\n- `tests.t::test_a`" in page
    other = _run({"tests.t::test_a": FAILED}, {"tests.t::test_a": "TypeError: on jaxdc"})
    assert _problems(tmp_path, monkeypatch, _outcome(base, other)) == [
        f"{PKG.name}: tests.t::test_a: fails in both runs, as published with "
        "`ValueError: published`: TypeError: on jaxdc"
    ]
    entry = _entry("tests.t::test_a", "TypeError: on jaxdc", triage.DIFFERENCE)
    assert _problems(tmp_path, monkeypatch, _outcome(base, other), entry) == []


def test_runs_cut_by_their_time_budget_are_not_compared_test_by_test(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    base = _run(dict.fromkeys(("tests.t::test_a", "tests.t::test_b"), PASSED), timed_out=True)
    new = _run({"tests.t::test_a": PASSED}, timed_out=True)
    problems = _problems(tmp_path, monkeypatch, _outcome(base, new))
    assert problems == [
        f"{PKG.name}: a run was cut by its time budget ({PKG.budget_s} s); cut runs are not "
        "compared test by test: raise `budget_s` or pin a subset (packages.py)"
    ]
    assert "tests not compared" in (tmp_path / "downstream.md").read_text()


def test_a_record_without_each_tests_outcome_is_not_compared(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # results.json as written before per-test outcomes were recorded: counts only.
    base = TestRun(passed=23)
    new = TestRun(passed=4, errors=7, failures={"::tests.test_grid": "TypeError: x"})
    assert _problems(tmp_path, monkeypatch, _outcome(base, new)) == [
        f"{PKG.name}: the run as published counts 23 tests but records 0 outcomes: run it "
        "again (`downstream/run.py run NAME`)"
    ]


def test_a_test_pytest_timeout_stopped_marks_its_run_cut(tmp_path: Path) -> None:
    junit = tmp_path / "r.xml"
    junit.write_text(
        '<testsuites><testsuite><testcase classname="flashbax.t" name="test_a">'
        '<failure message="Failed: Timeout (&gt;75.0s) from pytest-timeout.">...</failure>'
        '</testcase><testcase classname="flashbax.t" name="test_b"/></testsuite></testsuites>'
    )
    recorded = TestRun()
    run._read_junit(junit, recorded)
    assert recorded.timed_out
    assert recorded.statuses == {"flashbax.t::test_a": FAILED, "flashbax.t::test_b": PASSED}


def test_a_module_that_fails_to_import_is_recorded_with_its_exception_line() -> None:
    traceback = textwrap.dedent(
        """\
        tests/test_grid.py:3: in <module>
            import navix as nx
        navix/environments/environment.py:60: in <module>
            class Environment(struct.PyTreeNode):
        E   TypeError: static field 'observation_space' of class 'Environment' has unhashable
        E   type 'Space'."""
    )
    assert run.failure_text("collection failure", traceback, "error") == (
        "TypeError: static field 'observation_space' of class 'Environment' has unhashable"
    )
    assert run.failure_text("Failed: DID NOT RAISE", "...", "failure") == "Failed: DID NOT RAISE"


# --- the migration is the documented line, measured ---------------------------------------


def test_hand_edits_are_every_line_no_migration_rule_made(tmp_path: Path) -> None:
    source = "import chex\n\n\n@chex.dataclass(frozen=True)\nclass S:\n    x: int\n"
    published, migrated = tmp_path / "published", tmp_path / "migrated"
    for root in (published, migrated):
        (root / "pkg").mkdir(parents=True)
        (root / "pkg" / "m.py").write_text(source)
        (root / "data.txt").write_text("unchanged\n")
    changes = migrate.migrate(migrated, (CHEX,))
    # The added import moves the decorator down a line; its change is recorded there.
    assert [(c.line, c.after) for c in changes] == [
        (5, "@chex_dataclass.dataclass(frozen=True)"),
        (1, "from jaxdc.compat import chex_dataclass"),
    ]
    assert migrate.hand_edits(published, migrated, changes) == []
    edited = (migrated / "pkg" / "m.py").read_text().replace("x: int", "x: float")
    (migrated / "pkg" / "m.py").write_text(edited)
    (migrated / "data.txt").write_text("changed\n")
    assert migrate.hand_edits(published, migrated, changes) == ["data.txt", "pkg/m.py:7"]


def test_a_leftover_is_a_use_in_code_not_a_mention_in_a_docstring(tmp_path: Path) -> None:
    # evojax 0.2.17's task/base.py says "This should be a flax.struct.dataclass instance."
    (tmp_path / "m.py").write_text(
        'def f():\n    """Takes a\n    flax.struct.dataclass instance."""\n'
        "X = flax.struct.dataclass  # not flax.struct.field\n"
    )
    assert migrate.leftovers(tmp_path, (FLAX_STRUCT,)) == ["m.py:4"]


def test_a_project_on_two_libraries_is_migrated_by_both_lines(tmp_path: Path) -> None:
    # jaxmarl 0.2.0 builds its pytrees with flax.struct and chex.dataclass.
    (tmp_path / "m.py").write_text(
        "import chex\nfrom flax import struct\n\n\n@chex.dataclass\nclass S:\n    x: int\n"
    )
    changes = migrate.migrate(tmp_path, (FLAX_STRUCT, CHEX))
    assert (tmp_path / "m.py").read_text() == (
        "from jaxdc.compat import chex_dataclass\nimport chex\n"
        "from jaxdc.compat import flax_struct as struct\n\n\n"
        "@chex_dataclass.dataclass\nclass S:\n    x: int\n"
    )
    assert sorted(c.line for c in changes) == [1, 3, 6]
    assert migrate.leftovers(tmp_path, (FLAX_STRUCT, CHEX)) == []


def test_hand_edits_fail_the_run_and_show_in_the_table(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    runs = _run({"tests.t::test_a": PASSED})
    outcome = _outcome(runs, runs)
    outcome.changed_lines, outcome.hand_edits = 8, ["tests/t.py:3"]
    assert _problems(tmp_path, monkeypatch, outcome) == [
        f"{PKG.name}: changed by no migration rule: tests/t.py:3"
    ]
    assert (
        f"| {PKG.name} {PKG.version} | {PKG.family} | 8 / 1 |"
        in (tmp_path / "downstream.md").read_text()
    )


# --- warnings -----------------------------------------------------------------------------


def test_the_warnings_column_counts_each_class() -> None:
    warned = [
        Warned("jaxdc.JaxdcMigrationWarning", "pkg.env:83", "static field ...", 2),
        Warned("jaxdc.JaxdcMigrationWarning", "pkg.env:84", "static field ...", 1),
        Warned("_jaxdc_rules.OtherWarning", "pkg.tasks:12", "data field ...", 1),
    ]
    assert report.warnings_cell(TestRun(warnings=warned)) == (
        "4 (JaxdcMigrationWarning ×3, OtherWarning ×1)"
    )
    assert report.warnings_cell(TestRun()) == "0"


def test_the_probe_records_jaxdc_warnings_by_class_and_user_line(tmp_path: Path) -> None:
    """The pytest plugin the runs load counts warnings whose class lives in jaxdc (by module,
    so a class added later counts too), raised at import (class definition) or in a test,
    at the line they point to; other warnings are not counted."""
    (tmp_path / "test_user.py").write_text(
        textwrap.dedent(
            """\
            import warnings

            class MigrationWarning(UserWarning):
                pass

            MigrationWarning.__module__ = "jaxdc._warnings"
            warnings.warn(MigrationWarning("static field 'a' of class 'A' ..."), stacklevel=1)
            warnings.warn(UserWarning("not jaxdc's"), stacklevel=1)

            def test_warns():
                warnings.warn(MigrationWarning("data field 'b' ..."), stacklevel=1)
            """
        )
    )
    out = tmp_path / "warnings.json"
    env = {"PATH": "/usr/bin:/bin", **run.probe_env(tmp_path, out)}
    args = [sys.executable, "-m", "pytest", "-q", "-p", run.PROBE_PLUGIN, "test_user.py"]
    proc = subprocess.run(args, cwd=tmp_path, env=env, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert json.loads(out.read_text()) == [
        {
            "category": "jaxdc._warnings.MigrationWarning",
            "where": "test_user:11",
            "message": "data field 'b' ...",
            "count": 1,
        },
        {
            "category": "jaxdc._warnings.MigrationWarning",
            "where": "test_user:7",
            "message": "static field 'a' of class 'A' ...",
            "count": 1,
        },
    ]


# --- README quotes the page ---------------------------------------------------------------


def test_readme_quotes_the_summary_the_page_was_generated_with(tmp_path: Path) -> None:
    readme = tmp_path / "README.md"
    readme.write_text((REPO / "README.md").read_text())
    report.write_summary(readme, REPO / "docs" / "downstream.md")
    assert readme.read_text() == (REPO / "README.md").read_text(), (
        "README.md's downstream paragraph differs from docs/downstream.md's summary: "
        "run `make test-downstream` (or `downstream/run.py report`)"
    )
