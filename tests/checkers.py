"""One harness for every type checker jaxdc supports, and the cases they run on.

Runners (one per checker, each parsing the checker's machine-readable output into
`Diagnostic`s, errors only: warnings and notes ask nothing of the user). A run counts only
if the checker exited with a code that means it ran, printed nothing the parser cannot
read, and said it analysed files (pyright's summary, ty's and pyrefly's `--verbose` file
count, mypy's and zuban's summary line); anything else raises `NoResult` with the
checker's output, never "no diagnostics" (tests/test_checkers_validity.py):

| checker | command |
|---|---|
| `pyright`, `basedpyright` | `--outputjson`, settings in typecheck_cases/pyrightconfig.json |
| `ty` | `ty check --output-format gitlab` (JSON), settings in typecheck_cases/ty.toml |
| `pyrefly` | `pyrefly check --output-format json`, settings in typecheck_cases/pyrefly.toml |
| `zuban` | `zuban check` (its default mode); zuban has no JSON output, so its mypy-style lines |
| `mypy`, `mypy-plugin` | `mypy --output json`, typecheck_cases/mypy.ini (+ the plugin) |

Cases (`typecheck_cases/**/*.py`) state what every layer must report, next to the code:

- the module docstring's first line names the behaviour (a row of docs/checker-parity.md);
- `# E: <checker>[,<checker>...] <code>[: <message>]` expects a diagnostic on that line from
  each listed checker (several markers per line allowed; repeat a marker for a code reported
  twice). With `: <message>` the message must be exactly that text; the plugin's own codes
  (`jaxdc-...`) always state their message, so every plugin sentence is pinned somewhere.
- A checker may carry a target Python: `pyright@3.13` expects the diagnostic only when the
  checker targets Python 3.13 or newer, `pyright@<3.13` only when it targets an older one;
  without it the diagnostic is expected for every target. The cases run for each of
  `TARGETS` (`--python-version` or its equivalent), whatever Python runs the checker:
  what a checker synthesises (e.g. `__replace__`, from 3.13) follows the target.
- `# runtime: raises <Exception>` on one line: running the file under Python raises that
  exception from that line; without it the file must run to completion.
- `# jaxdc-mypy: <setting> = <value>` on a line of its own: mypy + plugin checks the file
  with that setting of the plugin (`[jaxdc-mypy]`, e.g. an opt-in check), in a run of its
  own; every other checker, and the plugin's default run, never see the setting.

Every line without a marker must be clean (for every target): a diagnostic nobody expected
is a false alarm.
`python tests/checkers.py --write-parity` regenerates the table in docs/checker-parity.md.
"""

from __future__ import annotations

import ast
import collections
import configparser
import dataclasses
import fcntl
import importlib
import json
import re
import runpy
import shutil
import subprocess
import sys
import sysconfig
import tempfile
import textwrap
import time
import traceback
import venv
import warnings
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any, NamedTuple, TypeVar

import pytest

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "tools"))
import docblocks  # noqa: E402  (tools/ is not a package)

CASES_DIR = REPO / "typecheck_cases"
PARITY_DOC = REPO / "docs" / "checker-parity.md"
BIN = Path(sys.executable).parent
PYTHON = sys.executable

PLUGIN_CODE_PREFIX = "jaxdc-"
# The order of the parity table's columns.
CHECKERS = ("pyright", "basedpyright", "ty", "pyrefly", "zuban", "mypy", "mypy-plugin")
TITLES = {"mypy-plugin": "mypy + plugin"}
# The Python versions every case is checked for: the oldest supported, and the first whose
# dataclasses have `__replace__` (which checkers then synthesise, typing `jaxdc.replace`).
TARGETS = ("3.10", "3.13")
# What a checker targets when not told: the Python running it (test projects, downstream).
RUNNING = f"{sys.version_info.major}.{sys.version_info.minor}"


def numpy_defaults_array_type_arguments() -> bool:
    """Whether the installed numpy's stubs give `ndarray`'s type parameters defaults:
    numpy 2.x does, 1.26 (the oldest supported) does not, and there a bare `np.ndarray`
    is partly unknown to pyright and a missing type argument to basedpyright."""
    import numpy

    stub = (Path(numpy.__file__).parent / "__init__.pyi").read_text()
    return re.search(r"_DType\w*_co = TypeVar\([^)]*default=", stub) is not None


class Diagnostic(NamedTuple):
    file: str
    """Path relative to the directory the checker ran in, with `/` separators."""
    line: int
    """1-based; a diagnostic a checker reports without a line (mypy: -1) counts on line 1."""
    code: str
    message: str


def _relative(path: str, root: Path) -> str:
    candidate = Path(path)
    if candidate.is_absolute():
        candidate = candidate.resolve().relative_to(root.resolve())
    return candidate.as_posix()


def _run(
    command: Sequence[str], cwd: Path, timeout: float = 900
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        list(command), capture_output=True, text=True, cwd=cwd, timeout=timeout, check=False
    )


class NoResult(RuntimeError):
    """A checker run that is no result: it exited with a code that does not mean "ran",
    printed what the runner cannot read, or did not report having analysed any file.

    Every runner raises it rather than return no diagnostics (a crash read as "clean" is a
    test that cannot fail); the message carries the checker's whole output.
    """


def _fail(name: str, proc: subprocess.CompletedProcess[str], why: str = "") -> NoResult:
    reason = f": {why}" if why else ""
    return NoResult(f"{name} failed ({proc.returncode}){reason}:\n{proc.stdout}\n{proc.stderr}")


def _ran(
    name: str, proc: subprocess.CompletedProcess[str], errors: int, *, warnings: int = 0
) -> None:
    """Raise unless ``proc`` exited 0 with no errors or 1 with some (or, where a checker
    fails on them, with ``warnings``): for pyright, ty, pyrefly and zuban, 2 and above are
    fatal errors, bad options or panics, and a negative code is a signal."""
    if proc.returncode not in (0, 1):
        raise _fail(name, proc, "an exit code that means it did not run")
    if (proc.returncode == 0 and errors) or (proc.returncode == 1 and not errors + warnings):
        raise _fail(name, proc, f"its exit code disagrees with the {errors} errors it listed")


def _json_report(name: str, proc: subprocess.CompletedProcess[str]) -> Any:
    try:
        return json.loads(proc.stdout)
    except json.JSONDecodeError:
        raise _fail(name, proc, "its output is not JSON") from None


def _analysed(name: str, proc: subprocess.CompletedProcess[str], files: object) -> None:
    """Raise unless the checker said it analysed at least one file (``files``: its count)."""
    if not isinstance(files, int) or files < 1:
        raise _fail(name, proc, f"it reported analysing {files} files")


# --- pyright and basedpyright ---------------------------------------------------------------


def _version_option(flag: str, target: str | None) -> list[str]:
    return [flag, target] if target else []


def run_pyright(
    root: Path,
    paths: Sequence[str] = (),
    *,
    python: str = PYTHON,
    target: str | None = None,
    name: str = "pyright",
) -> list[Diagnostic]:
    """Errors of one pyright (or basedpyright: same options, same JSON) run in ``root``,
    resolving imports in the environment of ``python`` (each runner takes it), checking
    for Python ``target`` (each runner takes it; default: its configuration's, else that
    of ``python``)."""
    proc = _run(
        [
            str(BIN / name),
            "--outputjson",
            "--pythonpath",
            python,
            *_version_option("--pythonversion", target),
            *paths,
        ],
        root,
    )
    return parse_pyright(proc, root, name)


def parse_pyright(
    proc: subprocess.CompletedProcess[str], root: Path, name: str = "pyright"
) -> list[Diagnostic]:
    """The errors of a pyright ``--outputjson`` run; NoResult unless it exited 0 or 1 (as its
    error count says) and its summary counts at least one file analysed."""
    report = _json_report(name, proc)
    try:
        summary, listed = report["summary"], report["generalDiagnostics"]
        found = [
            Diagnostic(
                _relative(d["file"], root),
                d["range"]["start"]["line"] + 1,
                d.get("rule", "-"),
                d["message"],
            )
            for d in listed
            if d["severity"] == "error"
        ]
    except (KeyError, TypeError):
        raise _fail(name, proc, "its report lacks the summary or a diagnostic's fields") from None
    _analysed(name, proc, summary.get("filesAnalyzed"))
    if summary.get("errorCount") != len(found):
        raise _fail(name, proc, f"its summary counts other errors than the {len(found)} listed")
    # basedpyright also exits 1 on warnings alone (its `failOnWarnings`).
    _ran(name, proc, len(found), warnings=summary.get("warningCount", 0))
    return found


def run_basedpyright(
    root: Path, paths: Sequence[str] = (), *, python: str = PYTHON, target: str | None = None
) -> list[Diagnostic]:
    return run_pyright(root, paths, python=python, target=target, name="basedpyright")


# --- ty ---------------------------------------------------------------------------------------

# ty's GitLab report maps its levels to Code Climate severities.
_TY_ERRORS = frozenset({"major", "critical", "blocker"})


def run_ty(
    root: Path, paths: Sequence[str] = (".",), *, python: str = PYTHON, target: str | None = None
) -> list[Diagnostic]:
    proc = _run(
        [
            str(BIN / "ty"),
            "check",
            "--python",
            python,
            *_version_option("--python-version", target),
            "--output-format",
            "gitlab",
            "--verbose",  # its "Indexed N file(s)" line is the proof that it analysed files
            *paths,
        ],
        root,
    )
    return parse_ty(proc, root)


_TY_INDEXED = re.compile(r"^\s*INFO Indexed (\d+) file\(s\)", re.M)


def parse_ty(proc: subprocess.CompletedProcess[str], root: Path) -> list[Diagnostic]:
    """The errors of a ty ``--output-format gitlab --verbose`` run; NoResult unless it exited
    0 or 1 (as its errors say) and logged indexing at least one file."""
    report = _json_report("ty", proc)
    try:
        found = [
            Diagnostic(
                _relative(d["location"]["path"], root),
                d["location"]["positions"]["begin"]["line"],
                d["check_name"],
                # "<code>: <message>" -> "<message>"
                d["description"].removeprefix(f"{d['check_name']}: "),
            )
            for d in report
            if d["severity"] in _TY_ERRORS
        ]
    except (KeyError, TypeError):
        raise _fail("ty", proc, "its report lacks a diagnostic's fields") from None
    indexed = _TY_INDEXED.search(proc.stderr)
    _analysed("ty", proc, int(indexed[1]) if indexed else None)
    _ran("ty", proc, len(found))
    return found


# --- pyrefly ----------------------------------------------------------------------------------


def run_pyrefly(
    root: Path, paths: Sequence[str] = (), *, python: str = PYTHON, target: str | None = None
) -> list[Diagnostic]:
    proc = _run(
        [
            str(BIN / "pyrefly"),
            "check",
            "--python-interpreter-path",
            python,
            *_version_option("--python-version", target),
            "--output-format",
            "json",
            "--verbose",  # its "Checking N files" line is the proof that it analysed files
            *paths,
        ],
        root,
    )
    return parse_pyrefly(proc, root)


_PYREFLY_CHECKING = re.compile(r"^\s*DEBUG Checking (\d+) files", re.M)


def parse_pyrefly(proc: subprocess.CompletedProcess[str], root: Path) -> list[Diagnostic]:
    """The errors of a pyrefly ``--output-format json --verbose`` run; NoResult unless it
    exited 0 or 1 (as its errors say) and logged checking at least one file."""
    report = _json_report("pyrefly", proc)
    try:
        found = [
            Diagnostic(_relative(d["path"], root), d["line"], d["name"], d["description"])
            for d in report["errors"]
            if d["severity"] == "error"
        ]
    except (KeyError, TypeError):
        raise _fail("pyrefly", proc, "its report lacks the errors or an error's fields") from None
    checking = _PYREFLY_CHECKING.search(proc.stderr)
    _analysed("pyrefly", proc, int(checking[1]) if checking else None)
    _ran("pyrefly", proc, len(found))
    return found


# --- zuban ------------------------------------------------------------------------------------

_MYPY_TEXT_ERROR = re.compile(
    r"^(?P<file>[^:\n]+):(?P<line>\d+): error: (?P<message>.*?)(?:  \[(?P<code>[\w-]+)\])?$"
)
_MYPY_TEXT_OTHER = re.compile(r"^[^:\n]+:\d+: (?:note|warning): ")
_DMYPY_STATUS = re.compile(r"^(?:Daemon (?:started|stopped)|Restarting: .+)$")
# mypy's summary line, which zuban prints too: the number of files it checked.
_MYPY_TEXT_SUMMARY = re.compile(
    r"^(?:Success: no issues found in (?P<clean>\d+) source files?"
    r"|Found (?P<errors>\d+) errors? in \d+ files? \(checked (?P<checked>\d+) source files?\))$"
)


def run_zuban(
    root: Path, paths: Sequence[str] = (), *, python: str = PYTHON, target: str | None = None
) -> list[Diagnostic]:
    """zuban prints mypy's text format only (no JSON); one error per line with --no-pretty,
    and the summary line that says how many files it checked."""
    proc = _run(
        [
            str(BIN / "zuban"),
            "check",
            "--python-executable",
            python,
            *_version_option("--python-version", target),
            "--show-error-codes",
            "--no-pretty",
            *paths,
        ],
        root,
    )
    return parse_mypy_text("zuban", proc, root)


def parse_mypy_text(
    name: str, proc: subprocess.CompletedProcess[str], root: Path
) -> list[Diagnostic]:
    """The errors of a run printing mypy's text format (zuban; dmypy before 1.12, whatever
    ``--output`` says); NoResult unless every line is an error, a note, dmypy's status or
    the summary, the summary counts at least one checked file and the errors listed, and
    the exit code agrees (0 clean, 1 errors)."""
    found = []
    summary = None
    for line in proc.stdout.splitlines():
        if match := _MYPY_TEXT_ERROR.match(line):
            file = _relative(match["file"], root)
            found.append(
                Diagnostic(file, int(match["line"]), match["code"] or "-", match["message"])
            )
        elif summary is None and (ending := _MYPY_TEXT_SUMMARY.match(line)):
            summary = ending
        elif not (_MYPY_TEXT_OTHER.match(line) or _DMYPY_STATUS.match(line)):
            raise _fail(name, proc, f"a line it printed is not a diagnostic: {line!r}")
    if summary is None:
        raise _fail(name, proc, "no summary line")
    _analysed(name, proc, int(summary["clean"] or summary["checked"]))
    if int(summary["errors"] or 0) != len(found):
        raise _fail(name, proc, f"its summary counts other errors than the {len(found)} listed")
    _ran(name, proc, len(found))
    return found


# --- mypy -------------------------------------------------------------------------------------

# The cases every mypy project test copies: the plugin's own (a package whose modules import
# each other) and the assignments the plugin accepts in copy_and_mutate blocks and constructors.
PLUGIN_CASES = (
    "plugin",
    "copy_and_mutate_plain_assign.py",
    "copy_and_mutate_in_methods.py",
    "copy_and_mutate_checked.py",
    "custom_init_plain_assign.py",
)

# The settings of every mypy run in the tests: the cases' own file, so that the warm cache
# (built once per session with them) is valid for the cases and for every test project:
# mypy discards cached modules checked under other options.
MYPY_INI = CASES_DIR / "mypy.ini"
PRELUDE = "import jax\nimport jax.numpy\nimport numpy\nimport jaxtyping\nimport jaxdc\n"


def mypy_settings(*, plugin: bool) -> dict[str, str]:
    config = configparser.ConfigParser()
    config.read(MYPY_INI)
    settings = dict(config["mypy"])
    if plugin:
        settings["plugins"] = "jaxdc_mypy"
    return settings


def mypy_ini(*, plugin: bool) -> str:
    lines = [f"{key} = {value}" for key, value in mypy_settings(plugin=plugin).items()]
    return "\n".join(["[mypy]", *lines, ""])


def pyproject_toml(*, plugin: bool = True) -> str:
    """The same settings as a pyproject.toml, for projects that add `[tool.jaxdc-mypy]`."""
    lines = []
    for key, value in mypy_settings(plugin=plugin).items():
        if key == "plugins":
            lines.append(f'{key} = ["{value}"]')
        else:
            lines.append(f"{key} = {value.lower()}")
    return "\n".join(["[tool.mypy]", *lines, ""])


# Lines mypy prints besides its JSON: dmypy's status, and the success line (which dmypy
# prints even under `--output json`).
_MYPY_STATUS = re.compile(
    rf"{_DMYPY_STATUS.pattern}|^Success: no issues found in [1-9]\d* source files?$"
)
_MYPY_KEYS = {"file", "line", "code", "severity", "message"}
_CRASH_MARKERS = ("INTERNAL ERROR", "Traceback (most recent call last)")


@dataclasses.dataclass(frozen=True)
class MypyRun:
    exit_code: int
    stdout: str
    stderr: str
    root: Path

    def problem(self, *, blocking: bool = False) -> str | None:
        """Why this run is no result, or None: mypy must exit 0 having printed its success
        line (a blank line under ``--output json``, which hides it), or 1 with errors (or,
        with ``blocking``, 2 with the blocking error that stopped it, e.g. a syntax error);
        every line it prints must be JSON, dmypy's status or the success line, and nothing
        may say it crashed. (mypy's JSON output has no count of files checked; the success
        line is the sign that the build ran to its end.)"""
        lines = self.stdout.splitlines()
        for line in lines:
            if line and not line.startswith("{") and not _MYPY_STATUS.match(line):
                return f"a line it printed is not a diagnostic: {line!r}"
        try:
            entries = self._entries()
        except json.JSONDecodeError:
            entries = None
        if entries is None or not all(_MYPY_KEYS <= set(d) for d in entries):
            return "a JSON line it printed is not a diagnostic"
        if any(marker in self.stderr for marker in _CRASH_MARKERS):
            return "it crashed"
        errors = sum(d["severity"] == "error" for d in entries)
        if self.exit_code == 0:
            if errors or not lines or not (lines[-1] == "" or _MYPY_STATUS.match(lines[-1])):
                return "exit 0 without its success line: it did not finish"
        elif self.exit_code == 1 or (self.exit_code == 2 and blocking):
            if not errors:
                return f"exit {self.exit_code} without any error listed"
        else:
            return "an exit code that means it did not run"
        return None

    def check(self, *, blocking: bool = False) -> MypyRun:
        """Self, after making sure mypy ran (``problem``): an internal error, a crash, a
        garbled or empty output is no result. Reading errors or notes checks this too
        (accepting a run stopped by a blocking error, which reports it)."""
        problem = self.problem(blocking=blocking)
        if problem is not None:
            raise NoResult(
                f"mypy failed ({self.exit_code}): {problem}:\n{self.stdout}\n{self.stderr}"
            )
        return self

    def _entries(self) -> list[dict[str, Any]]:
        return [json.loads(line) for line in self.stdout.splitlines() if line.startswith("{")]

    def _checked_entries(self) -> list[dict[str, Any]]:
        self.check(blocking=True)
        return self._entries()

    def _by_severity(self, severity: str) -> list[Diagnostic]:
        return [
            Diagnostic(
                _relative(d["file"], self.root), max(d["line"], 1), d["code"] or "-", d["message"]
            )
            for d in self._checked_entries()
            if d["severity"] == severity
        ]

    @property
    def errors(self) -> list[Diagnostic]:
        return self._by_severity("error")

    @property
    def diagnostics(self) -> set[tuple[str, int, str]]:
        """(file, line, code) of each error."""
        return {(d.file, d.line, d.code) for d in self.errors}

    @property
    def notes(self) -> list[Diagnostic]:
        """Notes: standalone ones, and those mypy's JSON folds into an error's ``hint``
        (with the error's code)."""
        attached = [
            Diagnostic(_relative(d["file"], self.root), max(d["line"], 1), d["code"] or "-", hint)
            for d in self._checked_entries()
            if d["severity"] == "error" and d.get("hint")
            for hint in d["hint"].splitlines()
        ]
        return sorted([*self._by_severity("note"), *attached])

    def messages(self, code: str) -> list[str]:
        return [d.message for d in self.errors if d.code == code]

    @property
    def worker_start_failed(self) -> bool:
        """mypy gave up before checking anything because a ``-n`` worker process started
        too slowly (its own fixed timeout; mypy_plugin/README.md, "Known gap")."""
        return self.exit_code == 2 and WORKER_START_FAILURE in self.stdout + self.stderr


# What mypy >= 2 prints, before an INTERNAL ERROR (exit 2), when a `-n` worker has not
# written its status file within WORKER_START_TIMEOUT (3 s): the run checked nothing.
WORKER_START_FAILURE = "Failed to establish connection with worker: No status file found"
# How long a test keeps trying to get `mypy -n` started before it gives up (skips).
WORKER_START_BUDGET = 180.0

_Attempt = TypeVar("_Attempt")


def until_workers_start(
    attempt: Callable[[], _Attempt], run_of: Callable[[_Attempt], MypyRun | None]
) -> _Attempt:
    """``attempt()`` (a ``mypy -n`` run), repeated only while mypy fails to start its
    workers, and returned as soon as one checks or fails in any other way.

    That failure checks nothing, so repeating it cannot hide a diagnostic; every other
    outcome (a crash, a hang, any diagnostics) is the caller's to judge. Each repetition is a
    warning; after WORKER_START_BUDGET seconds of it the machine cannot run ``mypy -n`` and
    the test is skipped, having proved nothing either way.
    """
    deadline = time.monotonic() + WORKER_START_BUDGET
    count = 0
    while True:
        count += 1
        outcome = attempt()
        run = run_of(outcome)
        if run is None or not run.worker_start_failed:
            return outcome
        why = f"mypy -n could not start its workers ({count} attempts)"
        if time.monotonic() > deadline:
            pytest.skip(f"{why}: mypy's fixed start timeout, see mypy_plugin/README.md")
        warnings.warn(f"{why}; running it again", stacklevel=2)
        time.sleep(min(2 * count, 10))  # let the load that slowed the workers pass


def mypy_command(python: str = PYTHON) -> list[str]:
    return [python, "-m", "mypy"]


def mypy_has(setting: str) -> bool:
    """Whether this venv's mypy (the one ``mypy_command()`` runs) has ``setting``, an
    attribute of its options (`num_workers` is `-n`, `fixed_format_cache` is
    `--[no-]fixed-format-cache`): read from mypy itself, where running `mypy --help` at the
    import of a test module cost a process in every pytest worker."""
    import mypy.options

    return hasattr(mypy.options.Options(), setting)


def run_mypy(
    root: Path,
    args: Sequence[str] = (".",),
    *,
    cache_dir: Path,
    command: Sequence[str] | None = None,
    python: str | None = None,
    target: str | None = None,
    timeout: float = 900,
) -> MypyRun:
    """One mypy run in ``root`` (``command``: another mypy; ``python``: check against the
    packages of another environment; ``target``: for that Python version)."""
    where = ["--python-executable", python] if python else []
    proc = _run(
        [
            *(command or mypy_command()),
            *where,
            *_version_option("--python-version", target),
            "--cache-dir",
            str(cache_dir),
            "--output",
            "json",
            *args,
        ],
        root,
        timeout,
    )
    return MypyRun(proc.returncode, proc.stdout, proc.stderr, root)


def run_mypy_on_cases(
    root: Path, *, plugin: bool, cache_dir: Path, target: str | None = None
) -> list[Diagnostic]:
    """mypy over the cases in ``root``; with the plugin, the cases that set plugin settings
    (`# jaxdc-mypy: ...`) are left out of the main run and checked in one run per set of
    settings (the plugin reads its settings once per run)."""
    groups = configured_cases(root) if plugin else {}
    configured = [name for names in groups.values() for name in names]
    with tempfile.TemporaryDirectory() as tmp:
        config = Path(tmp) / "mypy.ini"
        config.write_text(mypy_ini(plugin=plugin))
        excluded = [arg for name in configured for arg in ("--exclude", f"^{re.escape(name)}$")]
        args = ["--config-file", str(config), *excluded, "."]
        found = run_mypy(root, args, cache_dir=cache_dir, target=target).check().errors
        for settings, names in groups.items():
            lines = [f"{key} = {value}" for key, value in settings]
            config.write_text("\n".join([mypy_ini(plugin=True), "[jaxdc-mypy]", *lines, ""]))
            args = ["--config-file", str(config), *names]
            found += run_mypy(root, args, cache_dir=cache_dir, target=target).check().errors
        return found


def build_warm_cache(shared: Path, copy_to: Path, *, command: Sequence[str] | None = None) -> Path:
    """Bring the persisted cache ``shared`` up to date for jax, numpy, jaxtyping and jaxdc
    under the plugin settings, and copy it to ``copy_to`` (a cold mypy over jax takes ~15 s,
    so every project and the cases start from this copy)."""
    shared.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        prelude = Path(tmp)
        (prelude / "pyproject.toml").write_text(pyproject_toml(plugin=True))
        (prelude / "prelude.py").write_text(PRELUDE)
        with open(shared.with_suffix(".lock"), "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)  # pytest-xdist workers take turns
            run = run_mypy(prelude, ["prelude.py"], cache_dir=shared, command=command)
            if run.exit_code != 0:
                raise RuntimeError(f"warm-cache build failed:\n{run.stdout}\n{run.stderr}")
            shutil.copytree(shared, copy_to)
    return copy_to


def write_files(root: Path, files: dict[str, str]) -> None:
    """Write each file (a path relative to ``root``), dedented."""
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text).lstrip("\n"))


@dataclasses.dataclass
class Project:
    """A temporary project checked by mypy + plugin, starting from a copy of the warm cache."""

    root: Path
    cache_dir: Path
    command: Sequence[str] | None = None
    """How to run mypy (default: this venv's)."""

    @classmethod
    def create(cls, where: Path, warm: Path, command: Sequence[str] | None = None) -> Project:
        root = where / "project"
        root.mkdir()
        (root / "pyproject.toml").write_text(pyproject_toml(plugin=True))
        cache_dir = where / "cache"
        shutil.copytree(warm, cache_dir)
        return cls(root, cache_dir, command)

    def write(self, files: dict[str, str]) -> None:
        write_files(self.root, files)

    def copy_cases(self, *names: str) -> None:
        """Copy case files (paths relative to typecheck_cases/, packages as directories)."""
        for name in names:
            source = CASES_DIR / name
            if source.is_dir():
                shutil.copytree(source, self.root / name, ignore=_unavailable_in)
            else:
                (self.root / name).parent.mkdir(parents=True, exist_ok=True)
                shutil.copy(source, self.root / name)

    def mypy(self, *args: str) -> MypyRun:
        return run_mypy(self.root, args or (".",), cache_dir=self.cache_dir, command=self.command)

    def mypy_parallel(
        self, *args: str, workers: int = 2, before_each: Callable[[], None] | None = None
    ) -> MypyRun:
        """``mypy -n workers``, repeated only on mypy's own worker-start failure
        (``until_workers_start``); ``before_each`` restores what a run needs (a cold cache)."""

        def attempt() -> MypyRun:
            if before_each is not None:
                before_each()
            return self.mypy("-n", str(workers), *(args or (".",)))

        return until_workers_start(attempt, lambda run: run).check()

    def dmypy(self, *args: str, timeout: float = 900) -> MypyRun:
        """``dmypy run`` in the project: the daemon starts on the first call and keeps its
        state between calls until ``stop_dmypy`` (``timeout``: raise TimeoutExpired)."""
        proc = _run(
            [
                *self._dmypy(),
                "run",
                "--",
                "--cache-dir",
                str(self.cache_dir),
                "--output",
                "json",
                *(args or (".",)),
            ],
            self.root,
            timeout,
        )
        return MypyRun(proc.returncode, proc.stdout, proc.stderr, self.root)

    def stop_dmypy(self) -> None:
        """``kill``, not ``stop``: a daemon still busy (a run that timed out) never answers
        ``stop``, and would go on using a core after the test."""
        _run([*self._dmypy(), "kill"], self.root, timeout=60)

    def _dmypy(self) -> list[str]:
        return [str(BIN / "dmypy"), "--status-file", str(self.root.parent / "dmypy.json")]

    def expected(self, checker: str = "mypy-plugin") -> set[tuple[str, int, str]]:
        """(file, line, code) of the project's markers for ``checker``."""
        return set(expectations(load_markers(self.root, plugin_messages=False), checker))

    def problems(self, run: MypyRun, checker: str = "mypy-plugin") -> list[str]:
        """What ``run`` got wrong against the project's markers (messages included)."""
        return compare(checker, load_markers(self.root), run.check().errors)


def bare_venv(env_dir: Path) -> tuple[Path, Path]:
    """A venv without jaxdc that imports jax & co. from this one: (python, site-packages).

    Only this venv's site-packages is linked, not its .pth files, so the editable jaxdc
    stays invisible: what a checker finds of jaxdc there is what the caller installs.
    """
    venv.create(env_dir, with_pip=False)
    python = env_dir / "bin" / "python"
    site = Path(
        subprocess.run(
            [str(python), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
    )
    (site / "deps.pth").write_text(sysconfig.get_path("purelib") + "\n")
    return python, site


# --- the cases ----------------------------------------------------------------------------

_MARKER = re.compile(
    r"#\s*E:\s*(?P<checkers>[\w,.@<-]+)\s+(?P<code>[\w-]+)(?::\s*(?P<message>.*?))?\s*(?=#\s*E:|#\s*runtime:|$)"
)
# `<checker>`, `<checker>@3.13` (targets 3.13 and newer) or `<checker>@<3.13` (older ones).
_CHECKER = re.compile(r"(?P<checker>[\w-]+)(?:@(?P<target><?\d+\.\d+))?")
_RUNTIME_MARKER = re.compile(r"#\s*runtime:\s*raises\s+(\w+)\s*$")
_SETTING = re.compile(r"^#\s*jaxdc-mypy:\s*(?P<key>\w+)\s*=\s*(?P<value>\S+)\s*$")

# A case's plugin settings: ((setting, value), ...), in the order written.
Settings = tuple[tuple[str, str], ...]

Counter = collections.Counter[tuple[str, int, str]]


class Marker(NamedTuple):
    file: str
    line: int
    checker: str
    code: str
    message: str | None
    target: str | None = None
    """`3.13`: only for targets 3.13 and newer; `<3.13`: only for older ones; None: all."""

    def applies_to(self, target: str) -> bool:
        if self.target is None:
            return True
        newer = _version(target) >= _version(self.target.removeprefix("<"))
        return newer != self.target.startswith("<")


def _version(text: str) -> tuple[int, ...]:
    return tuple(int(part) for part in text.split("."))


@dataclasses.dataclass(frozen=True)
class Case:
    path: Path
    name: str
    """Path relative to typecheck_cases/, with `/` separators."""
    behaviour: str
    raises: tuple[int, str] | None
    """(line, exception class name) if running the case must raise."""
    markers: tuple[Marker, ...]


def parse_markers(name: str, source: str, *, plugin_messages: bool = True) -> list[Marker]:
    """The markers of one file; ``plugin_messages``: the plugin's own codes must state their
    message (required of the cases; a test project may check messages another way)."""
    markers = []
    for lineno, line in enumerate(source.splitlines(), start=1):
        found = list(_MARKER.finditer(line))
        if len(found) != line.count("# E:"):
            raise ValueError(
                f"{name}:{lineno}: write `# E: <checker>[@[<]X.Y][,<checker>...] <code>[: <message>]`"
            )
        for match in found:
            for spelled in match["checkers"].split(","):
                which = _CHECKER.fullmatch(spelled)
                if which is None or which["checker"] not in CHECKERS:
                    raise ValueError(f"{name}:{lineno}: unknown checker {spelled!r}")
                code, message = match["code"], match["message"]
                if plugin_messages and code.startswith(PLUGIN_CODE_PREFIX) and not message:
                    raise ValueError(f"{name}:{lineno}: state the plugin's message for {code}")
                markers.append(
                    Marker(name, lineno, which["checker"], code, message or None, which["target"])
                )
    return markers


def parse_settings(source: str) -> Settings:
    """The plugin settings a case asks for (`# jaxdc-mypy: <setting> = <value>` lines)."""
    return tuple(
        (match["key"], match["value"])
        for line in source.splitlines()
        if (match := _SETTING.match(line.strip()))
    )


def configured_cases(root: Path) -> dict[Settings, list[str]]:
    """The case files under ``root`` that set plugin settings, by their settings (paths
    relative to ``root``); a left-out case (UNAVAILABLE) is not checked at all."""
    groups: dict[Settings, list[str]] = collections.defaultdict(list)
    for path in sorted(root.rglob("*.py")):
        name = path.relative_to(root).as_posix()
        settings = parse_settings(path.read_text())
        if settings and name not in UNAVAILABLE:
            groups[settings].append(name)
    return dict(groups)


def load_markers(root: Path, *, plugin_messages: bool = True) -> list[Marker]:
    return [
        marker
        for path in sorted(root.rglob("*.py"))
        for marker in parse_markers(
            path.relative_to(root).as_posix(), path.read_text(), plugin_messages=plugin_messages
        )
    ]


def load_case(path: Path) -> Case:
    name = path.relative_to(CASES_DIR).as_posix()
    source = path.read_text()
    docstring = ast.get_docstring(ast.parse(source))
    if not docstring and path.name != "__init__.py":
        raise ValueError(f"{name}: a case starts with a docstring naming its behaviour")
    raises = [
        (lineno, marker.group(1))
        for lineno, line in enumerate(source.splitlines(), start=1)
        if (marker := _RUNTIME_MARKER.search(line))
    ]
    if len(raises) > 1:
        raise ValueError(f"{name}: only the first rejected line can raise at runtime")
    return Case(
        path=path,
        name=name,
        behaviour=docstring.splitlines()[0] if docstring else "",
        raises=raises[0] if raises else None,
        markers=tuple(parse_markers(name, source)),
    )


def load_cases() -> list[Case]:
    return [load_case(path) for path in sorted(CASES_DIR.rglob("*.py"))]


def _jit_is_a_decorator_factory() -> bool:
    import jax

    try:
        jax.jit(static_argnums=0)
    except TypeError:  # jax 0.4.36 and 0.6.2 (the last for Python 3.10) require the function
        return False
    return True


def _has_jax_tree_static() -> bool:
    return hasattr(importlib.import_module("jax.tree"), "static")


class NeedsNewerJax(NamedTuple):
    """Cases written against an API that only newer jax releases have."""

    cases: tuple[str, ...]
    api: str
    """How the cases spell the API (each case uses it)."""
    available: Callable[[], bool]
    why: str


NEEDS_NEWER_JAX = (
    NeedsNewerJax(
        ("plugin/jax_jit_factory.py",),
        "jax.jit(",
        _jit_is_a_decorator_factory,
        "this jax's jax.jit requires the function to compile",
    ),
    NeedsNewerJax(
        ("field_jax_tree_static.py", "field_jax_tree_static_unhashable.py"),
        "jax.tree.static",
        _has_jax_tree_static,
        "this jax has no jax.tree.static (jax >= 0.9.1 has)",
    ),
)
# The cases the installed jax cannot run, with why. The checkers are right to reject them
# there, so such a case is left out of every run (its markers, its diagnostics, the
# plain-Python run and the copies test projects make) and test_typecheck_cases reports it as
# skipped.
UNAVAILABLE = {
    case: needs.why for needs in NEEDS_NEWER_JAX if not needs.available() for case in needs.cases
}


def _unavailable_in(directory: str, names: list[str]) -> list[str]:
    """The left-out cases among ``names`` (a `shutil.copytree` ignore function)."""
    where = Path(directory).relative_to(CASES_DIR)
    return [n for n in names if (where / n).as_posix() in UNAVAILABLE]


def available_cases() -> list[Case]:
    return [case for case in load_cases() if case.name not in UNAVAILABLE]


def expectations(markers: Iterable[Marker], checker: str, target: str = RUNNING) -> Counter:
    """(file, line, code) of what ``checker`` must report when it targets ``target``."""
    return collections.Counter(
        (m.file, m.line, m.code) for m in markers if m.checker == checker and m.applies_to(target)
    )


def compare(
    checker: str, markers: Iterable[Marker], got: Iterable[Diagnostic], target: str = RUNNING
) -> list[str]:
    """Readable lines for every missing, unexpected or differently worded diagnostic of
    ``checker`` run for Python ``target``."""
    mine = [m for m in markers if m.checker == checker and m.applies_to(target)]
    want = expectations(mine, checker, target)
    who = checker if target == RUNNING else f"{checker}@{target}"
    reported = collections.defaultdict(list)
    for d in got:
        reported[(d.file, d.line, d.code)].append(d.message)
    problems = []
    for key in sorted(want.keys() | reported.keys()):
        file, line, code = key
        missing = want[key] - len(reported[key])
        if missing > 0:
            problems.append(f"{file}:{line}: {who} {code}: expected, not reported")
        for message in reported[key][want[key] :] if missing < 0 else []:
            problems.append(f"{file}:{line}: {who} {code}: unexpected: {message}")
        for marker in mine if reported[key] else []:
            if (marker.file, marker.line, marker.code) == key and marker.message is not None:
                if marker.message not in reported[key]:
                    problems.append(
                        f"{file}:{line}: {who} {code}: expected message\n  {marker.message}\n"
                        f"got\n  " + "\n  ".join(reported[key])
                    )
    return problems


def run_checker(checker: str, target: str, *, mypy_cache: Path | None = None) -> list[Diagnostic]:
    """One run of ``checker`` over typecheck_cases/ for Python ``target`` (mypy needs a cache
    directory)."""
    if checker in ("mypy", "mypy-plugin"):
        assert mypy_cache is not None
        plugin = checker == "mypy-plugin"
        return run_mypy_on_cases(CASES_DIR, plugin=plugin, cache_dir=mypy_cache, target=target)
    runner = {
        "pyright": run_pyright,
        "basedpyright": run_basedpyright,
        "ty": run_ty,
        "pyrefly": run_pyrefly,
        "zuban": run_zuban,
    }[checker]
    return runner(CASES_DIR, target=target)


def available_diagnostics(found: Iterable[Diagnostic]) -> list[Diagnostic]:
    """What a checker reported on the cases this jax can run (see UNAVAILABLE)."""
    return [d for d in found if d.file not in UNAVAILABLE]


# --- running the cases under Python -----------------------------------------------------------

# What running a case raised: (line in the case, the exception's MRO class names), or None.
Raised = tuple[int, list[str]] | None


def run_cases_in_python(cases: Iterable[Case]) -> dict[str, Raised]:
    """Run every case under plain Python in ONE fresh interpreter (jax is imported once)."""
    with tempfile.NamedTemporaryFile("r", suffix=".json") as out:
        proc = _run(
            [PYTHON, __file__, "--run-cases", out.name, *(str(c.path) for c in cases)], CASES_DIR
        )
        if proc.returncode != 0:
            raise _fail("case runner", proc)
        outcomes: dict[str, list[Any] | None] = json.load(out)
    return {name: (raised[0], raised[1]) if raised else None for name, raised in outcomes.items()}


def _run_cases_main(out: str, paths: list[str]) -> None:
    sys.path.insert(0, str(CASES_DIR))  # a case in a package imports its own modules
    outcomes: dict[str, Raised] = {}
    for path in paths:
        full = str(Path(path).resolve())
        name = Path(full).relative_to(CASES_DIR).as_posix()
        try:
            if (Path(full).parent / "__init__.py").exists():  # relative imports need the package
                module = name.removesuffix(".py").replace("/", ".")
                if module.endswith(".__init__"):
                    importlib.import_module(module.removesuffix(".__init__"))
                else:
                    runpy.run_module(module, run_name="__main__")
            else:
                runpy.run_path(full, run_name="__main__")
        except Exception as exc:
            tb = traceback.extract_tb(exc.__traceback__)
            line = [f.lineno or 0 for f in tb if f.filename == full][-1]
            outcomes[name] = (line, [cls.__name__ for cls in type(exc).__mro__])
        else:
            outcomes[name] = None
    Path(out).write_text(json.dumps(outcomes))


def runtime_problems(cases: Iterable[Case], outcomes: dict[str, Raised]) -> list[str]:
    problems = []
    for case in cases:
        raised = outcomes[case.name]
        if raised is None:
            if case.raises is not None:
                problems.append(f"{case.name}: ran through, expected {case.raises[1]}")
            continue
        line, names = raised
        if case.raises is None:
            problems.append(f"{case.name}:{line}: raised {names[0]} under plain Python")
        elif case.raises[1] not in names or not _raised_at(case, case.raises[0], line):
            problems.append(
                f"{case.name}:{line}: raised {names[0]}, expected {case.raises[1]} "
                f"from line {case.raises[0]}"
            )
    return problems


def _raised_at(case: Case, expected: int, line: int) -> bool:
    """Whether an exception reported at ``line`` is the one expected at ``expected``.

    Before Python 3.11 a traceback names the `class`/`def` line of a decorated statement,
    not the line of the decorator that raised; the marker stays on the decorator, as every
    newer Python reports it.
    """
    if line == expected:
        return True
    if sys.version_info >= (3, 11) or line < expected:
        return False
    between = case.path.read_text().splitlines()[expected - 1 : line]
    decorators, statement = between[:-1], between[-1].lstrip()
    return all(d.lstrip().startswith("@") for d in decorators) and statement.startswith(
        ("class ", "def ", "async def ")
    )


# --- the parity table -------------------------------------------------------------------------

# The rows of the table of typed `replace` keywords: cases whose every marked line is one
# misspelt or mistyped keyword, so a checker types the keywords where it reports them all.
REPLACE_KEYWORD_CASES = {
    "`jaxdc.replace(obj, typo=...)`": "replace_unknown_field.py",
    "`jaxdc.replace(obj, f=<wrong type>)`": "replace_wrong_type.py",
    "`obj.replace(...)` on a `PyTreeNode`, both mistakes": "replace_pytree_node.py",
}


def _targets_of(markers: Sequence[Marker]) -> str:
    """`` (3.13)`` when the markers apply to some of TARGETS only, else nothing."""
    targets = [t for t in TARGETS if any(m.applies_to(t) for m in markers)]
    return "" if len(targets) == len(TARGETS) else f" ({', '.join(targets)})"


def _cell(markers: Sequence[Marker]) -> str:
    by_code = collections.defaultdict(list)
    for marker in markers:
        by_code[marker.code].append(marker)
    parts = [f"`{code}`{_targets_of(by_code[code])}" for code in sorted(by_code)]
    return ", ".join(parts) or "-"


def render_table(cases: Iterable[Case]) -> str:
    header = " | ".join(TITLES.get(c, c) for c in CHECKERS)
    rows = [f"| behaviour | case | {header} | runtime |", "|---" * (len(CHECKERS) + 3) + "|"]
    for case in cases:
        if not case.behaviour:
            continue  # a package's __init__.py
        cells = [_cell([m for m in case.markers if m.checker == c]) for c in CHECKERS]
        runtime = f"raises `{case.raises[1]}`" if case.raises else "runs"
        link = f"[{case.name.removesuffix('.py')}](../typecheck_cases/{case.name})"
        behaviour = case.behaviour.replace("|", "\\|")  # a bare | would split the cell
        rows.append(f"| {behaviour} | {link} | " + " | ".join([*cells, runtime]) + " |")
    return "\n".join(rows)


def _types_keywords(case: Case, checker: str, target: str) -> bool:
    lines = {m.line for m in case.markers}
    return all(
        any(m.line == line and m.checker == checker and m.applies_to(target) for m in case.markers)
        for line in lines
    )


def render_replace_table(cases: Iterable[Case]) -> str:
    """Which checker reports the misspelt and mistyped `replace` keywords, per target."""
    by_name = {case.name: case for case in cases}
    columns = [(title, by_name[name]) for title, name in REPLACE_KEYWORD_CASES.items()]
    header = " | ".join(f"{title}, {target}" for title, _ in columns for target in TARGETS)
    rows = [f"| checker | {header} |", "|---" * (len(columns) * len(TARGETS) + 1) + "|"]
    for checker in CHECKERS:
        cells = [
            "typed" if _types_keywords(case, checker, target) else "-"
            for _, case in columns
            for target in TARGETS
        ]
        rows.append(f"| {TITLES.get(checker, checker)} | " + " | ".join(cells) + " |")
    return "\n".join(rows)


def render_parity(cases: Sequence[Case], document: str) -> str:
    """``document`` with its two generated blocks (tools/docblocks.py) rewritten from the cases."""
    document = docblocks.render_block(document, "replace-keywords", render_replace_table(cases))
    return docblocks.render_block(document, "parity", render_table(cases))


if __name__ == "__main__":
    if sys.argv[1:2] == ["--run-cases"]:
        _run_cases_main(sys.argv[2], sys.argv[3:])
    elif sys.argv[1:] == ["--write-parity"]:
        PARITY_DOC.write_text(render_parity(load_cases(), PARITY_DOC.read_text()))
    else:
        sys.exit("usage: checkers.py --write-parity | --run-cases OUT CASE...")
