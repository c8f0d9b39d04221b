"""The marker grammar and the comparison every checker test relies on."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest
from checkers import (
    PYTHON,
    WORKER_START_FAILURE,
    Diagnostic,
    MypyRun,
    NoResult,
    Project,
    compare,
    mypy_command,
    parse_markers,
)

SOURCE = (
    "x: int = 'a'  # E: pyright,basedpyright reportAssignmentType  # E: mypy assignment\n"
    "y = 1  # E: mypy-plugin jaxdc-data: data field 'y' is wrong  # runtime: raises TypeError\n"
)


def test_markers_name_checkers_codes_and_messages() -> None:
    markers = parse_markers("case.py", SOURCE)
    assert [(m.line, m.checker, m.code, m.message) for m in markers] == [
        (1, "pyright", "reportAssignmentType", None),
        (1, "basedpyright", "reportAssignmentType", None),
        (1, "mypy", "assignment", None),
        (2, "mypy-plugin", "jaxdc-data", "data field 'y' is wrong"),
    ]


@pytest.mark.parametrize(
    ("line", "why"),
    [
        ("x = 1  # E: mypy", r"^case.py:1: write `# E: <checker>"),  # no code
        ("x = 1  # E: pycharm foo", r"^case.py:1: unknown checker 'pycharm'"),
        (
            "x = 1  # E: mypy-plugin jaxdc-data",
            r"^case.py:1: state the plugin's message for jaxdc-data",
        ),
    ],
)
def test_malformed_markers_are_refused(line: str, why: str) -> None:
    with pytest.raises(ValueError, match=why):
        parse_markers("case.py", line)


def test_compare_reports_missing_unexpected_and_reworded() -> None:
    markers = parse_markers("case.py", SOURCE)
    exact = [Diagnostic("case.py", 2, "jaxdc-data", "data field 'y' is wrong")]
    assert compare("mypy-plugin", markers, exact) == []
    assert compare("mypy-plugin", markers, []) == [
        "case.py:2: mypy-plugin jaxdc-data: expected, not reported"
    ]
    extra = [*exact, Diagnostic("case.py", 1, "misc", "boom")]
    assert compare("mypy-plugin", markers, extra) == [
        "case.py:1: mypy-plugin misc: unexpected: boom"
    ]
    reworded = [Diagnostic("case.py", 2, "jaxdc-data", "other words")]
    (problem,) = compare("mypy-plugin", markers, reworded)
    assert "expected message" in problem and "other words" in problem
    twice = [*exact, *exact]
    assert compare("mypy-plugin", markers, twice) == [
        "case.py:2: mypy-plugin jaxdc-data: unexpected: data field 'y' is wrong"
    ]


# ---- mypy -n: its own worker-start failure, and nothing else, is repeated -----------------

# mypy >= 2 waits a fixed 3 s for each `-n` worker to start (mypy_plugin/README.md, "Known
# gap"); a sitecustomize delaying only the workers stands in for a loaded machine.
SLOW_WORKER_START = """
import os
import sys
import time

if "mypy.build_worker" in sys.orig_argv:
    open(os.environ["JAXDC_SLOWED"], "a").write("slowed\\n")
    time.sleep(4)
"""


def test_a_parallel_run_whose_workers_start_late_is_never_read_as_clean(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text('x: int = "text"\n')
    (tmp_path / "slow").mkdir()
    (tmp_path / "slow" / "sitecustomize.py").write_text(SLOW_WORKER_START)
    paths = [str(tmp_path / "slow"), *filter(None, [os.environ.get("PYTHONPATH")])]
    slowed = tmp_path / "slowed"
    proc = subprocess.run(
        [*mypy_command(), "-n", "2", "--cache-dir", "cache", "--output", "json", "a.py"],
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": os.pathsep.join(paths), "JAXDC_SLOWED": str(slowed)},
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    run = MypyRun(proc.returncode, proc.stdout, proc.stderr, tmp_path)
    # Without a delayed worker this test proves nothing: the hook must still match the
    # module mypy starts its workers as.
    assert slowed.exists(), f"no mypy worker ran {SLOW_WORKER_START!r}:\n{run.stdout}{run.stderr}"
    if run.exit_code in (0, 1):  # a mypy that waits for slow workers
        assert run.check().diagnostics == {("a.py", 1, "assignment")}
        return
    assert run.worker_start_failed, run.stdout + run.stderr
    with pytest.raises(NoResult, match=r"^mypy failed \(2\): "):
        run.check()
    with pytest.raises(NoResult, match=r"^mypy failed \(2\)"):
        run.diagnostics  # noqa: B018  (reading it is the check)


# Stand-ins for mypy: one fails to start its workers on its first call only, one crashes.
FLAKY_MYPY = f"""
import sys
from pathlib import Path

calls = Path("calls")
calls.write_text(calls.read_text() + "x" if calls.exists() else "x")
if len(calls.read_text()) == 1:
    print({WORKER_START_FAILURE!r})
    sys.exit(2)
print('{{"file": "a.py", "line": 1, "column": 0, "message": "m", "hint": null, '
      '"code": "assignment", "severity": "error"}}')
sys.exit(1)
"""
CRASHING_MYPY = """
import sys

print("error: INTERNAL ERROR", file=sys.stderr)
sys.exit(2)
"""


def test_parallel_runs_are_repeated_only_when_workers_did_not_start(tmp_path: Path) -> None:
    (tmp_path / "project").mkdir()
    for name, source in (("flaky.py", FLAKY_MYPY), ("crashing.py", CRASHING_MYPY)):
        (tmp_path / name).write_text(source)
    resets: list[None] = []
    flaky = Project(tmp_path / "project", tmp_path / "cache", [PYTHON, str(tmp_path / "flaky.py")])
    with pytest.warns(UserWarning, match="could not start its workers"):
        run = flaky.mypy_parallel(before_each=lambda: resets.append(None))
    assert run.diagnostics == {("a.py", 1, "assignment")}
    assert len(resets) == 2  # the cold cache is restored before each attempt
    crashing = Project(
        tmp_path / "project", tmp_path / "cache", [PYTHON, str(tmp_path / "crashing.py")]
    )
    with pytest.raises(NoResult, match=r"^mypy failed \(2\): it crashed"):
        crashing.mypy_parallel()
