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

__all__ = ["Diagnostic", "mypy", "pyright"]

BIN = Path(sys.executable).parent
_MYPY_LINE = re.compile(
    r"^(?P<file>[^:]+):(?P<line>\d+):(?:\d+:)? error: (?P<msg>.*?)(?:  \[(?P<code>[\w-]+)\])?$"
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
    try:
        report = json.loads(proc.stdout)
    except json.JSONDecodeError:
        raise RuntimeError(f"pyright failed in {root}:\n{proc.stdout}\n{proc.stderr}") from None
    found = []
    for d in report["generalDiagnostics"]:
        if d["severity"] != "error":
            continue
        file = str(Path(d["file"]).resolve().relative_to(root.resolve()))
        message = d["message"].splitlines()[0]
        found.append(Diagnostic(file, d["range"]["start"]["line"] + 1, d.get("rule", ""), message))
    return sorted(found)


def mypy(root: Path, sources: tuple[str, ...], timeout: int) -> list[Diagnostic]:
    """mypy with the jaxdc plugin (it only acts on jaxdc classes, so the baseline run is
    plain mypy in effect); imports of untyped third-party code are not followed into."""
    ini = root / "downstream-mypy.ini"
    ini.write_text(
        "[mypy]\nplugins = jaxdc_mypy\nignore_missing_imports = True\n"
        "follow_imports = silent\nshow_error_codes = True\nno_error_summary = True\n"
        "cache_dir = .downstream_mypy_cache\n"
    )
    proc = subprocess.run(
        [sys.executable, "-m", "mypy", "--config-file", ini.name, *sources],
        cwd=root,
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    if proc.returncode not in (0, 1) or "Traceback" in proc.stderr:
        raise RuntimeError(f"mypy crashed in {root}:\n{proc.stdout}\n{proc.stderr}")
    found = []
    for line in proc.stdout.splitlines():
        m = _MYPY_LINE.match(line)
        if m:
            found.append(Diagnostic(m["file"], int(m["line"]), m["code"] or "", m["msg"].strip()))
    return sorted(found)
