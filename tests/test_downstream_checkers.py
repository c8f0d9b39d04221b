"""downstream/checkers.py's runners refuse a run that is no result (issue 20 §1).

The downstream report compares two runs' diagnostics: a crashed, empty or garbled run read
as "no errors" would show as errors the migration fixed. Each parser gets one good run and
the broken ones, as canned outputs.
"""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

REPO = Path(__file__).resolve().parent.parent
ROOT = Path("/package")


def _load() -> ModuleType:
    """downstream/checkers.py under its own name (tests/checkers.py is `checkers` here)."""
    spec = importlib.util.spec_from_file_location(
        "downstream_checkers", REPO / "downstream" / "checkers.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


downstream = _load()


def _proc(code: int, stdout: str = "", stderr: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.CompletedProcess(["checker"], code, stdout, stderr)


def _pyright(files: int, errors: int) -> str:
    diagnostic = {
        "file": "/package/a.py",
        "severity": "error",
        "message": "m\nmore",
        "range": {"start": {"line": 0}},
        "rule": "reportAttributeAccessIssue",
    }
    summary = {"filesAnalyzed": files, "errorCount": errors}
    return json.dumps({"generalDiagnostics": [diagnostic] * errors, "summary": summary})


_ERROR = "a.py:1: error: m  [attr-defined]"
_FOUND = "Found 1 error in 1 file (checked 3 source files)"


def test_runs_that_checked_are_read() -> None:
    (error,) = downstream.parse_pyright(_proc(1, _pyright(3, 1)), ROOT)
    assert (error.file, error.line, error.code, error.message) == (
        "a.py",
        1,
        "reportAttributeAccessIssue",
        "m",
    )
    assert downstream.parse_pyright(_proc(0, _pyright(3, 0)), ROOT) == []
    (error,) = downstream.parse_mypy(_proc(1, f"{_ERROR}\na.py:1: note: n\n{_FOUND}\n"), ROOT)
    assert (error.file, error.line, error.code) == ("a.py", 1, "attr-defined")
    clean = _proc(0, "Success: no issues found in 3 source files\n")
    assert downstream.parse_mypy(clean, ROOT) == []


@pytest.mark.parametrize(
    ("proc", "why"),
    [
        (_proc(-11), "no JSON report with a summary"),
        (_proc(3, _pyright(3, 0)), "3 files analysed"),
        (_proc(0, _pyright(0, 0)), "0 files analysed"),
        (_proc(1, _pyright(3, 0)), "the exit code disagrees with 0 errors"),
    ],
    ids=["killed", "fatal", "nothing analysed", "exit 1, no errors"],
)
def test_pyright_runs_that_are_no_result_fail(
    proc: subprocess.CompletedProcess[str], why: str
) -> None:
    with pytest.raises(
        RuntimeError, match=rf"^pyright did not check /package \(exit -?\d+\): {why}"
    ):
        downstream.parse_pyright(proc, ROOT)


@pytest.mark.parametrize(
    ("proc", "why"),
    [
        (_proc(1), "no summary of the files it checked"),
        (_proc(2, "", "Traceback (most recent call last):\n"), "it crashed"),
        (_proc(1, "boom\n"), "a line is not a diagnostic: 'boom'"),
        (_proc(0, "Success: no issues found in 0 source files\n"), "no summary of the files"),
        (_proc(1, f"{_FOUND}\n"), "its summary or exit code disagree with 0 errors"),
        (_proc(2, f"{_ERROR}\n{_FOUND}\n"), "its summary or exit code disagree with 1 errors"),
    ],
    ids=["silent", "traceback", "garbled", "nothing checked", "error dropped", "exit 2"],
)
def test_mypy_runs_that_are_no_result_fail(
    proc: subprocess.CompletedProcess[str], why: str
) -> None:
    with pytest.raises(RuntimeError, match=rf"^mypy did not check /package \(exit -?\d+\): {why}"):
        downstream.parse_mypy(proc, ROOT)
