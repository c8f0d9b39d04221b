"""Every checker runner refuses a run that is no result (issue 20 §1).

A crashed, empty or garbled run must fail the test that made it, with the checker's
output, never read as "no diagnostics". Each runner's parser is fed canned outputs: one
good run (so a parser that refused everything would fail here too) and the broken runs a
checker can produce: a crash or signal, an exit code that disagrees with the errors listed,
output that does not parse, and a run that analysed no file.
"""

from __future__ import annotations

import json
import subprocess
from collections.abc import Callable
from pathlib import Path

import checkers
import pytest
from checkers import Diagnostic, MypyRun, NoResult

ROOT = Path("/project")
Parse = Callable[[subprocess.CompletedProcess[str], Path], list[Diagnostic]]


def _proc(code: int, stdout: str = "", stderr: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.CompletedProcess(["checker"], code, stdout, stderr)


# ---- pyright and basedpyright: `--outputjson`, whose summary counts files and errors --------


def _pyright(files: int, errors: int, listed: int | None = None, warnings: int = 0) -> str:
    diagnostic = {
        "file": "/project/a.py",
        "severity": "error",
        "message": "m",
        "range": {"start": {"line": 0, "character": 0}},
        "rule": "reportAssignmentType",
    }
    count = errors if listed is None else listed
    summary = {"filesAnalyzed": files, "errorCount": errors, "warningCount": warnings}
    return json.dumps({"generalDiagnostics": [diagnostic] * count, "summary": summary})


def _parse_pyright(proc: subprocess.CompletedProcess[str], root: Path) -> list[Diagnostic]:
    return checkers.parse_pyright(proc, root)


# ---- ty: a GitLab JSON list on stdout, and "Indexed N file(s)" logged with --verbose -------

_TY_ERROR = {
    "check_name": "invalid-assignment",
    "description": "invalid-assignment: m",
    "severity": "major",
    "location": {"path": "a.py", "positions": {"begin": {"line": 1}}},
}
_TY_INDEXED = "INFO Python version: Python 3.11\nINFO Indexed 2 file(s) in 0.003s\n"

# ---- pyrefly: {"errors": [...]} on stdout, and "Checking N files" logged with --verbose ---

_PYREFLY_ERROR = {"path": "a.py", "line": 1, "name": "bad-assignment", "description": "m"}
_PYREFLY_CHECKING = " INFO Checking project\nDEBUG Checking 2 files (listing took 0.00s)\n"


def _pyrefly(*severities: str) -> str:
    return json.dumps({"errors": [{**_PYREFLY_ERROR, "severity": s} for s in severities]})


# ---- zuban (and old dmypy): mypy's text format, ending in the summary line --------------

_TEXT_ERROR = "a.py:1: error: m  [assignment]"
_TEXT_FOUND = "Found 1 error in 1 file (checked 2 source files)"


def _parse_text(proc: subprocess.CompletedProcess[str], root: Path) -> list[Diagnostic]:
    return checkers.parse_mypy_text("zuban", proc, root)


GOOD: list[tuple[str, Parse, subprocess.CompletedProcess[str], int]] = [
    ("pyright clean", _parse_pyright, _proc(0, _pyright(2, 0)), 0),
    ("pyright errors", _parse_pyright, _proc(1, _pyright(2, 1)), 1),
    # basedpyright exits 1 on warnings alone (its failOnWarnings)
    ("basedpyright warning", _parse_pyright, _proc(1, _pyright(2, 0, warnings=1)), 0),
    ("ty clean", checkers.parse_ty, _proc(0, "[]", _TY_INDEXED), 0),
    ("ty errors", checkers.parse_ty, _proc(1, json.dumps([_TY_ERROR]), _TY_INDEXED), 1),
    ("pyrefly clean", checkers.parse_pyrefly, _proc(0, _pyrefly(), _PYREFLY_CHECKING), 0),
    ("pyrefly errors", checkers.parse_pyrefly, _proc(1, _pyrefly("error"), _PYREFLY_CHECKING), 1),
    (
        "pyrefly warning",
        checkers.parse_pyrefly,
        _proc(0, _pyrefly("warn"), _PYREFLY_CHECKING),
        0,
    ),
    ("zuban clean", _parse_text, _proc(0, "Success: no issues found in 2 source files\n"), 0),
    ("zuban errors", _parse_text, _proc(1, f"{_TEXT_ERROR}\na.py:1: note: n\n{_TEXT_FOUND}\n"), 1),
    (
        "dmypy 1.11 text",
        _parse_text,
        _proc(0, "Daemon started\nSuccess: no issues found in 1 source file\n"),
        0,
    ),
]

BROKEN: list[tuple[str, Parse, subprocess.CompletedProcess[str], str]] = [
    ("pyright killed", _parse_pyright, _proc(-11), "not JSON"),
    ("pyright fatal", _parse_pyright, _proc(2, _pyright(2, 0)), "exit code that means"),
    ("pyright no files", _parse_pyright, _proc(0, _pyright(0, 0)), "analysing 0 files"),
    ("pyright garbled", _parse_pyright, _proc(1, '{"summary": {}}'), "lacks the summary"),
    ("pyright miscount", _parse_pyright, _proc(1, _pyright(2, 2, listed=1)), "summary counts"),
    ("pyright exit 1 clean", _parse_pyright, _proc(1, _pyright(2, 0)), "disagrees"),
    ("ty panic", checkers.parse_ty, _proc(101, "", "panicked"), "not JSON"),
    ("ty fatal", checkers.parse_ty, _proc(2, "[]", _TY_INDEXED), "exit code that means"),
    ("ty nothing indexed", checkers.parse_ty, _proc(0, "[]", "INFO Python"), "analysing None"),
    ("ty no files", checkers.parse_ty, _proc(0, "[]", "INFO Indexed 0 file(s)"), "analysing 0"),
    ("ty exit 1 clean", checkers.parse_ty, _proc(1, "[]", _TY_INDEXED), "disagrees"),
    ("ty garbled", checkers.parse_ty, _proc(1, '[{"severity": "major"}]', _TY_INDEXED), "lacks"),
    ("pyrefly killed", checkers.parse_pyrefly, _proc(-9), "not JSON"),
    ("pyrefly no count", checkers.parse_pyrefly, _proc(0, _pyrefly(), ""), "analysing None"),
    (
        "pyrefly exit 1 clean",
        checkers.parse_pyrefly,
        _proc(1, _pyrefly(), _PYREFLY_CHECKING),
        "disagrees",
    ),
    ("pyrefly garbled", checkers.parse_pyrefly, _proc(0, "{}", _PYREFLY_CHECKING), "lacks"),
    ("zuban exit 1, nothing parsed", _parse_text, _proc(1, "boom\n"), "not a diagnostic: 'boom'"),
    ("zuban exit 1, empty", _parse_text, _proc(1), "no summary line"),
    (
        "zuban crash",
        _parse_text,
        _proc(2, "Traceback (most recent call last):\n"),
        "not a diagnostic",
    ),
    ("zuban exit 2", _parse_text, _proc(2, _TEXT_FOUND + "\n"), "summary counts"),
    (
        "zuban checked none",
        _parse_text,
        _proc(0, "Success: no issues found in 0 source files\n"),
        "analysing 0",
    ),
    (
        "zuban dropped error",
        _parse_text,
        _proc(1, f"a.py:1: error m\n{_TEXT_FOUND}\n"),
        "not a diagnostic",
    ),
    (
        "zuban exit 0 with errors",
        _parse_text,
        _proc(0, f"{_TEXT_ERROR}\n{_TEXT_FOUND}\n"),
        "disagrees",
    ),
]


@pytest.mark.parametrize(
    ("parse", "proc", "count"), [g[1:] for g in GOOD], ids=[g[0] for g in GOOD]
)
def test_a_run_that_checked_is_read(
    parse: Parse, proc: subprocess.CompletedProcess[str], count: int
) -> None:
    found = parse(proc, ROOT)
    assert len(found) == count
    assert all(d.file == "a.py" and d.line == 1 for d in found)


@pytest.mark.parametrize(
    ("parse", "proc", "why"), [b[1:] for b in BROKEN], ids=[b[0] for b in BROKEN]
)
def test_a_run_that_is_no_result_fails(
    parse: Parse, proc: subprocess.CompletedProcess[str], why: str
) -> None:
    with pytest.raises(NoResult, match=rf"failed \({proc.returncode}\): .*{_escape(why)}") as info:
        parse(proc, ROOT)
    assert proc.stdout in str(info.value) and proc.stderr in str(info.value)  # the output


def _escape(text: str) -> str:
    return text.replace("(", r"\(").replace(")", r"\)")


# ---- mypy (and dmypy): `--output json`, one JSON line per diagnostic ----------------------

_MYPY_ERROR = json.dumps(
    {
        "file": "a.py",
        "line": 1,
        "column": 0,
        "message": "m",
        "hint": None,
        "code": "assignment",
        "severity": "error",
    }
)
_MYPY_NOTE = _MYPY_ERROR.replace('"error"', '"note"')
_MYPY_SYNTAX = _MYPY_ERROR.replace('"assignment"', '"syntax"')


@pytest.mark.parametrize(
    ("code", "stdout", "errors"),
    [
        (0, "\n", 0),  # --output json hides the success line, leaving its newline
        (0, _MYPY_NOTE + "\n\n", 0),
        (1, _MYPY_ERROR + "\n", 1),
        (0, "Daemon started\nSuccess: no issues found in 1 source file\n", 0),  # dmypy
        (1, "Daemon started\n" + _MYPY_ERROR + "\n", 1),
    ],
    ids=["clean", "notes only", "errors", "dmypy clean", "dmypy errors"],
)
def test_a_mypy_run_that_checked_is_read(code: int, stdout: str, errors: int) -> None:
    run = MypyRun(code, stdout, "", ROOT)
    assert run.check() is run
    assert len(run.errors) == errors


@pytest.mark.parametrize(
    ("code", "stdout", "stderr", "why"),
    [
        (2, "", "error: INTERNAL ERROR", "it crashed"),
        (-11, "", "", "an exit code that means it did not run"),
        (0, "", "", "exit 0 without its success line"),
        (1, "", "", "exit 1 without any error listed"),
        (1, "\n", "", "exit 1 without any error listed"),
        (
            1,
            _MYPY_ERROR + "\nSegmentation fault\n",
            "",
            "a line it printed is not a diagnostic: 'Segmentation fault'",
        ),
        (1, '{"file": "a.py"}\n', "", "a JSON line it printed is not a diagnostic"),
        (1, "{not json\n", "", "a JSON line it printed is not a diagnostic"),
        (1, _MYPY_ERROR + "\n", "Traceback (most recent call last):\n", "it crashed"),
        (0, _MYPY_ERROR + "\n\n", "", "exit 0 without its success line"),
        (2, _MYPY_SYNTAX + "\n", "", "an exit code that means it did not run"),
    ],
    ids=[
        "internal error",
        "signal",
        "exit 0, silent",
        "exit 1, silent",
        "exit 1, blank",
        "garbled line",
        "JSON of another shape",
        "broken JSON",
        "traceback",
        "exit 0 with errors",
        "blocking error unasked",
    ],
)
def test_a_mypy_run_that_is_no_result_fails(code: int, stdout: str, stderr: str, why: str) -> None:
    run = MypyRun(code, stdout, stderr, ROOT)
    assert (run.problem() or "").startswith(why), run.problem()
    with pytest.raises(NoResult, match=rf"^mypy failed \({code}\): {_escape(why)}"):
        run.check()
    if why != "an exit code that means it did not run" or code != 2:
        # Reading the diagnostics of such a run fails the same way: never "no diagnostics".
        with pytest.raises(NoResult, match=rf"^mypy failed \({code}\)"):
            run.diagnostics  # noqa: B018


def test_a_run_stopped_by_a_blocking_error_reports_it() -> None:
    """mypy exits 2 when a syntax error stops it: a result, if the error is listed."""
    run = MypyRun(2, _MYPY_SYNTAX + "\n", "", ROOT)
    assert run.check(blocking=True).diagnostics == {("a.py", 1, "syntax")}
    empty = MypyRun(2, "", "", ROOT)
    with pytest.raises(NoResult, match=r"^mypy failed \(2\): exit 2 without any error listed"):
        empty.check(blocking=True)
