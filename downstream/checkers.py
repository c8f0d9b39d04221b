"""Run pyright and mypy (+ the jaxdc plugin) on a package's sources; parse their output.

Both runs of a package (baseline and jaxdc) use the same settings, so the difference of
the two diagnostic lists is what the migration changed. Only errors count (pyright
"error" severity, mypy "error:" lines; notes and warnings are context, not findings).
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

__all__ = ["Diagnostic", "mypy", "parse_mypy", "parse_pyright", "pyright"]

BIN = Path(sys.executable).parent
_MYPY_LINE = re.compile(
    r"^(?P<file>[^:]+):(?P<line>\d+):(?:\d+:)? error: (?P<msg>.*?)(?:  \[(?P<code>[\w-]+)\])?$"
)
_MYPY_OTHER = re.compile(r"^[^:\n]+:(?:\d+:){0,2} (?:note|warning): ")
# The summary, which says how many files mypy checked (a crash prints none).
_MYPY_SUMMARY = re.compile(
    r"^(?:Success: no issues found in (?P<clean>\d+) source files?"
    r"|Found (?P<errors>\d+) errors? in \d+ files? \(checked (?P<checked>\d+) source files?\))$"
)


@dataclass(frozen=True, order=True)
class Diagnostic:
    file: str  # relative to the checked root
    line: int
    code: str
    message: str


def pyright(root: Path, sources: tuple[str, ...], timeout: int) -> list[Diagnostic]:
    config = {
        "include": list(sources),
        "pythonVersion": f"{sys.version_info.major}.{sys.version_info.minor}",
        "typeCheckingMode": "standard",
    }
    (root / "pyrightconfig.json").write_text(json.dumps(config))
    proc = subprocess.run(
        [str(BIN / "pyright"), "--outputjson", "--pythonpath", sys.executable],
        cwd=root,
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    return parse_pyright(proc, root)


def _no_result(
    name: str, root: Path, proc: subprocess.CompletedProcess[str], why: str
) -> Exception:
    output = f"{proc.stdout}\n{proc.stderr}"
    return RuntimeError(f"{name} did not check {root} (exit {proc.returncode}): {why}:\n{output}")


def parse_pyright(proc: subprocess.CompletedProcess[str], root: Path) -> list[Diagnostic]:
    """The errors of a pyright ``--outputjson`` run; RuntimeError (with its output) unless it
    exited 0 or 1 and its summary counts at least one file analysed: a crash is no result."""
    try:
        report = json.loads(proc.stdout)
        listed, analysed = report["generalDiagnostics"], report["summary"]["filesAnalyzed"]
    except (json.JSONDecodeError, KeyError, TypeError):
        raise _no_result("pyright", root, proc, "no JSON report with a summary") from None
    if proc.returncode not in (0, 1) or not analysed:
        raise _no_result("pyright", root, proc, f"{analysed} files analysed")
    found = []
    for d in listed:
        if d["severity"] != "error":
            continue
        file = str(Path(d["file"]).resolve().relative_to(root.resolve()))
        message = d["message"].splitlines()[0]
        found.append(Diagnostic(file, d["range"]["start"]["line"] + 1, d.get("rule", ""), message))
    if (proc.returncode == 1) != bool(found):
        raise _no_result("pyright", root, proc, f"the exit code disagrees with {len(found)} errors")
    return sorted(found)


def mypy(root: Path, sources: tuple[str, ...], timeout: int) -> list[Diagnostic]:
    """mypy with the jaxdc plugin (it only acts on jaxdc classes, so the baseline run is
    plain mypy in effect); imports of untyped third-party code are not followed into."""
    ini = root / "downstream-mypy.ini"
    ini.write_text(
        "[mypy]\nplugins = jaxdc_mypy\nignore_missing_imports = True\n"
        "follow_imports = silent\nshow_error_codes = True\n"
        "cache_dir = .downstream_mypy_cache\n"
    )
    proc = subprocess.run(
        [sys.executable, "-m", "mypy", "--config-file", ini.name, *sources],
        cwd=root,
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    return parse_mypy(proc, root)


def parse_mypy(proc: subprocess.CompletedProcess[str], root: Path) -> list[Diagnostic]:
    """The errors of a mypy run (text format); RuntimeError (with its output) unless every
    line is a diagnostic or the summary, the summary counts at least one checked file and
    the errors listed, and the exit code agrees: a crash or a garbled run is no result."""
    if "Traceback" in proc.stderr:
        raise _no_result("mypy", root, proc, "it crashed")
    found, summary = [], None
    for line in proc.stdout.splitlines():
        if m := _MYPY_LINE.match(line):
            found.append(Diagnostic(m["file"], int(m["line"]), m["code"] or "", m["msg"].strip()))
        elif summary is None and (ending := _MYPY_SUMMARY.match(line)):
            summary = ending
        elif not _MYPY_OTHER.match(line):
            raise _no_result("mypy", root, proc, f"a line is not a diagnostic: {line!r}")
    if summary is None or int(summary["checked"] or summary["clean"]) < 1:
        raise _no_result("mypy", root, proc, "no summary of the files it checked")
    if int(summary["errors"] or 0) != len(found) or (proc.returncode == 1) != bool(found):
        raise _no_result(
            "mypy", root, proc, f"its summary or exit code disagree with {len(found)} errors"
        )
    return sorted(found)
