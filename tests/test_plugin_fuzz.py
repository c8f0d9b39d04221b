"""Fuzz: mypy + jaxdc_mypy never crashes or hangs on unusual but valid code, and reports the
same diagnostics however it runs.

`fuzz_modules.generate` writes modules mixing fragments users do write (see there). Every
run must finish within its time limit, without an INTERNAL ERROR or a traceback, and report
exactly the `# E:` diagnostics written in the fragments — cold and warm, with each cache
format mypy offers (fixed-format, JSON, SQLite), with `-n 2` worker processes, and under
the daemon (also across an edit that breaks a module's syntax and one that repairs it).
When a batch fails, each module is re-checked alone to name the fragments responsible.

`make test` runs a bounded, deterministic slice (every fragment once, with or without `from
__future__ import annotations`, plus a few mixes); `make test-full` sets JAXDC_TEST_FULL=1
for 400 modules in batches (every fragment in both forms, then mixes).
"""

from __future__ import annotations

import fcntl
import json
import os
import shutil
import signal
import subprocess
import sys
import textwrap
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from checkers import (
    PRELUDE,
    PYTHON,
    REPO,
    MypyRun,
    expectations,
    load_markers,
    mypy_command,
    mypy_has,
    pyproject_toml,
    until_workers_start,
    write_files,
)
from fuzz_modules import FRAGMENTS, SYNTAX_ERROR, FuzzModule, generate

PYPROJECT = pyproject_toml(plugin=True)

FULL = os.environ.get("JAXDC_TEST_FULL") == "1"
# make test: every fragment once (with or without PEP 563, alternating) and a few mixes.
COUNT = 400 if FULL else len(FRAGMENTS) + 6
BATCH = 100  # modules per mypy run (fewer, longer runs: mypy's start-up dominates)
MODULES = generate(COUNT, both_forms=FULL)
BATCHES = [MODULES[i : i + BATCH] for i in range(0, len(MODULES), BATCH)]

# A run may take this long, plus this much per module, before it counts as a hang.
BASE_TIMEOUT, PER_MODULE_TIMEOUT = 120.0, 2.0
ALONE_TIMEOUT = 30.0  # plus PER_MODULE_TIMEOUT per module, when looking for culprits

_CRASH_MARKERS = ("INTERNAL ERROR", "Traceback (most recent call last)", "Daemon crashed")


# Cache formats: mypy 2.x writes the fixed-format cache by default; JSON is the option.
CACHE_FORMATS = {"default": [], "sqlite": ["--sqlite-cache"]}
if mypy_has("fixed_format_cache"):
    CACHE_FORMATS["json"] = ["--no-fixed-format-cache"]
PARALLEL = mypy_has("num_workers")


@dataclass(frozen=True)
class Outcome:
    """One mypy (or dmypy) invocation: its output, or that it did not finish in time."""

    run: MypyRun | None  # None: timed out (killed)
    seconds: float

    @property
    def problem(self) -> str | None:
        if self.run is None:
            return f"no result after {self.seconds:.0f} s (hang)"
        output = self.run.stdout + self.run.stderr
        if self.run.exit_code not in (0, 1) or any(m in output for m in _CRASH_MARKERS):
            return f"crash (exit code {self.run.exit_code}):\n{_tail(output)}"
        return None


def _tail(text: str, lines: int = 25) -> str:
    return "\n".join(text.splitlines()[-lines:])


def _run(command: Sequence[str], cwd: Path, timeout: float) -> Outcome:
    """Run in its own process group, so a hang kills mypy's worker processes too."""
    start = time.monotonic()
    proc = subprocess.Popen(
        command,
        cwd=cwd,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    try:
        stdout, stderr = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate()
        return Outcome(None, time.monotonic() - start)
    return Outcome(MypyRun(proc.returncode, stdout, stderr, Path(cwd)), time.monotonic() - start)


def _mypy_args(cache: Path, flags: Sequence[str]) -> list[str]:
    return [
        "--cache-dir",
        str(cache),
        "--output",
        "json",
        "--show-traceback",
        *flags,
    ]


def _mypy(
    root: Path, cache: Path, flags: Sequence[str], files: Sequence[str], timeout: float
) -> Outcome:
    return _run([*mypy_command(), *_mypy_args(cache, flags), *files], root, timeout)


def _batch_timeout(batch: Sequence[FuzzModule]) -> float:
    return BASE_TIMEOUT + PER_MODULE_TIMEOUT * len(batch)


@dataclass
class FuzzProject:
    root: Path
    cache: Path
    flags: list[str]
    batch: list[FuzzModule]

    def mypy(self, *extra: str, files: Sequence[str] = (".",)) -> Outcome:
        return _mypy(
            self.root, self.cache, [*self.flags, *extra], files, _batch_timeout(self.batch)
        )

    def expected(self) -> set[tuple[str, int, str]]:
        return set(expectations(load_markers(self.root, plugin_messages=False), "mypy-plugin"))

    def culprits(self, *extra: str) -> str:
        """Which modules crash or hang, found by checking halves of the batch (each module
        found is listed with its fragments)."""
        found: list[str] = []

        def search(group: list[FuzzModule]) -> bool:
            files = [f"{m.name}.py" for m in group]
            timeout = ALONE_TIMEOUT + PER_MODULE_TIMEOUT * len(group)
            outcome = _mypy(self.root, self.cache, [*self.flags, *extra], files, timeout)
            if outcome.problem is None:
                return False
            if len(group) == 1:
                found.append(f"{group[0].name} {list(group[0].fragments)}: {outcome.problem}")
            elif not (search(group[: len(group) // 2]) | search(group[len(group) // 2 :])):
                found.append(f"{[m.name for m in group]} fail only together: {outcome.problem}")
            return True

        search(self.batch)
        return "\n\n".join(found) or "(none fails again: the failure is intermittent)"


def _write_batch(root: Path, batch: Sequence[FuzzModule]) -> None:
    root.mkdir(parents=True)
    (root / "pyproject.toml").write_text(PYPROJECT)
    for module in batch:
        (root / f"{module.name}.py").write_text(module.source)
    # A cross-module fragment of the batch's first module imports the previous batch's
    # last module: give it an empty stand-in.
    first = int(batch[0].name.split("_")[1])
    if first:
        (root / f"fuzz_{first - 1:03d}.py").write_text("")


def _warm_cache(tmp_path_factory: pytest.TempPathFactory, name: str, flags: Sequence[str]) -> Path:
    """A cache holding jax, numpy and jaxdc in this format (persisted between sessions)."""
    shared = REPO / ".mypy_cache" / f"jaxdc-fuzz-{name}"
    shared.mkdir(parents=True, exist_ok=True)
    prelude = tmp_path_factory.mktemp(f"prelude-{name}")
    write_files(prelude, {"pyproject.toml": PYPROJECT, "prelude.py": PRELUDE})
    mine = tmp_path_factory.mktemp(f"cache-{name}") / "base"
    with open(shared.with_suffix(".lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # pytest-xdist workers take turns
        outcome = _mypy(prelude, shared, flags, ["prelude.py"], 900)
        assert outcome.run is not None and outcome.run.exit_code == 0, outcome.problem
        shutil.copytree(shared, mine)
    return mine


class WarmCaches:
    """This session's warm caches by format, each made on first use; the default format's
    is conftest's `warm_cache` (the same prelude and settings: a second one would be an
    identical cold mypy run over jax)."""

    def __init__(self, tmp_path_factory: pytest.TempPathFactory, default: Path) -> None:
        self._factory = tmp_path_factory
        self._made: dict[str, Path] = {"default": default}

    def __getitem__(self, name: str) -> Path:
        if name not in self._made:
            flags = CACHE_FORMATS.get(name, ["--cache-fine-grained"])
            self._made[name] = _warm_cache(self._factory, name, flags)
        return self._made[name]


@pytest.fixture(scope="session")
def warm_caches(tmp_path_factory: pytest.TempPathFactory, warm_cache: Path) -> WarmCaches:
    return WarmCaches(tmp_path_factory, warm_cache)


def _project(
    tmp_path: Path, cache: Path, flags: Sequence[str], batch: list[FuzzModule]
) -> FuzzProject:
    root = tmp_path / "project"
    _write_batch(root, batch)
    mine = tmp_path / "cache"
    shutil.copytree(cache, mine)
    return FuzzProject(root, mine, list(flags), batch)


def _check(project: FuzzProject, outcome: Outcome, what: str, *extra: str) -> MypyRun:
    if outcome.problem is not None:
        pytest.fail(f"{what}: {outcome.problem}\n\nculprits:\n{project.culprits(*extra)}")
    assert outcome.run is not None
    return outcome.run


def _batch_id(batch: list[FuzzModule]) -> str:
    return f"{batch[0].name}-{batch[-1].name}"


@pytest.mark.parametrize("batch", BATCHES, ids=_batch_id)
@pytest.mark.parametrize("cache_format", sorted(CACHE_FORMATS))
def test_cold_and_warm_runs_report_the_written_diagnostics(
    batch: list[FuzzModule], cache_format: str, warm_caches: WarmCaches, tmp_path: Path
) -> None:
    flags = CACHE_FORMATS[cache_format]
    project = _project(tmp_path, warm_caches[cache_format], flags, batch)
    cold = _check(project, project.mypy(), "cold run")
    assert cold.diagnostics == project.expected(), cold.stdout
    warm = _check(project, project.mypy(), "warm run")
    assert sorted(warm.errors) == sorted(cold.errors)
    # Editing one module re-checks it and whatever depends on it, from a warm cache.
    edited = project.root / f"{batch[-1].name}.py"
    edited.write_text(edited.read_text() + "\n\nEDITED = 1\n")
    after_edit = _check(project, project.mypy(), "run after an edit")
    assert sorted(after_edit.errors) == sorted(cold.errors)


@pytest.mark.skipif(not PARALLEL, reason="this mypy has no parallel checking (-n)")
@pytest.mark.parametrize("batch", BATCHES, ids=_batch_id)
def test_parallel_workers_report_the_written_diagnostics(
    batch: list[FuzzModule], warm_caches: WarmCaches, tmp_path: Path
) -> None:
    project = _project(tmp_path, warm_caches["default"], [], batch)

    def parallel() -> Outcome:  # repeated only on mypy's own worker-start failure
        return until_workers_start(lambda: project.mypy("-n", "2"), lambda o: o.run)

    cold = _check(project, parallel(), "cold run with -n 2", "-n", "2")
    assert cold.diagnostics == project.expected(), cold.stdout
    warm = _check(project, parallel(), "warm run with -n 2", "-n", "2")
    assert sorted(warm.errors) == sorted(cold.errors)


@pytest.mark.parametrize("batch", BATCHES, ids=_batch_id)
def test_daemon_reports_the_written_diagnostics_across_edits(
    batch: list[FuzzModule], warm_caches: WarmCaches, tmp_path: Path
) -> None:
    project = _project(tmp_path, warm_caches["fine-grained"], ["--cache-fine-grained"], batch)
    dmypy = [str(Path(PYTHON).parent / "dmypy"), "--status-file", str(tmp_path / "dmypy.json")]
    run = [*dmypy, "run", "--", *_mypy_args(project.cache, project.flags), "."]
    timeout = _batch_timeout(batch)

    def check(what: str) -> MypyRun:
        outcome = _run(run, project.root, timeout)
        if outcome.problem is not None:
            pytest.fail(f"dmypy, {what}: {outcome.problem}")
        assert outcome.run is not None
        return outcome.run

    try:
        first = check("first run")
        assert first.diagnostics == project.expected(), first.stdout
        module = project.root / f"{batch[len(batch) // 2].name}.py"
        source = module.read_text()
        module.write_text(source + textwrap.dedent(SYNTAX_ERROR))
        broken = check("after a syntax error")  # reported (a blocking error), no crash
        assert broken.exit_code in (1, 2), broken.stdout
        assert any(d.code == "syntax" for d in broken.errors), broken.stdout
        module.write_text(source)
        repaired = check("after repairing it")
        assert sorted(repaired.errors) == sorted(first.errors)
    finally:
        _run([*dmypy, "kill"], project.root, 60)


def test_a_module_that_does_not_parse_is_reported_not_crashed_on(
    warm_caches: WarmCaches, tmp_path: Path
) -> None:
    batch = MODULES[:4]
    project = _project(tmp_path, warm_caches["default"], [], batch)
    (project.root / "broken.py").write_text(PRELUDE + textwrap.dedent(SYNTAX_ERROR))
    outcome = project.mypy()
    assert outcome.run is not None, outcome.problem
    output = outcome.run.stdout + outcome.run.stderr
    assert outcome.run.exit_code == 2, output
    assert not any(marker in output for marker in _CRASH_MARKERS), output
    assert any(d[0] == "broken.py" and d[2] == "syntax" for d in outcome.run.diagnostics), output


# ---- the runtime on the same modules ---------------------------------------------------

# What jaxdc raises for a mistake. Only an exception jaxdc raised itself, with a `raise` of
# one of these types in its own code, is a user error; anything else escaping from inside
# jaxdc (a TypeError from a call jaxdc made, any other type) is a crash. (Outside jaxdc,
# Python itself may reject a malformed annotation as the class body runs.)
_USER_ERRORS = ("TypeError", "ValueError")

# Imports each module; reports (type, message, whether jaxdc was on the way, whether jaxdc
# raised it: the innermost frame is jaxdc's own `raise` statement).
_IMPORT_ALL = """
import importlib, json, sys, traceback
sys.path.insert(0, sys.argv[1])
results = {}
for name in sys.argv[2:]:
    try:
        importlib.import_module(name)
    except BaseException as exc:  # noqa: BLE001 - every outcome is reported
        frames = traceback.extract_tb(exc.__traceback__)
        in_jaxdc = any("/jaxdc/" in frame.filename for frame in frames)
        last = frames[-1]
        raised = "/jaxdc/" in last.filename and (last.line or "").startswith("raise ")
        results[name] = [type(exc).__name__, str(exc)[:300], in_jaxdc, raised]
    else:
        results[name] = None
print(json.dumps(results))
"""


def _import_all(root: Path, names: Sequence[str]) -> dict[str, list[Any] | None]:
    """Import the modules under ``root`` in one fresh interpreter (_IMPORT_ALL's report)."""
    outcome = _run(
        [PYTHON, "-c", _IMPORT_ALL, str(root), *names], root, BASE_TIMEOUT + 5 * len(names)
    )
    assert outcome.run is not None, outcome.problem
    assert outcome.run.exit_code == 0, outcome.run.stderr
    results: dict[str, list[Any] | None] = json.loads(outcome.run.stdout)
    return results


def _crash(result: list[Any]) -> bool:
    """Whether an exception escaping from inside jaxdc is not one jaxdc raised on purpose."""
    kind, _, in_jaxdc, raised_by_jaxdc = result
    return bool(in_jaxdc) and not (kind in _USER_ERRORS and raised_by_jaxdc)


# Stand-ins for the outcomes the runtime test must tell apart: jaxdc rejecting a mistake,
# and a TypeError or ValueError from inside jaxdc that jaxdc did not raise (an internal bug).
_REJECTED = """
import jaxdc

@jaxdc.pytree_dataclass(frozen=False)
class A:
    pass
"""
_INTERNAL_TYPE_ERROR = """
import jaxdc
import jaxdc._dataclass

jaxdc._dataclass._remove_guard = len  # jaxdc's call raises TypeError, in no `raise` of jaxdc's

@jaxdc.pytree_dataclass
class A:
    pass
"""
_INTERNAL_VALUE_ERROR = _INTERNAL_TYPE_ERROR.replace("= len", "= lambda cls: int('x')")


def test_only_errors_jaxdc_raises_count_as_user_errors(tmp_path: Path) -> None:
    sources = {
        "rejected": _REJECTED,
        "internal_type_error": _INTERNAL_TYPE_ERROR,
        "internal_value_error": _INTERNAL_VALUE_ERROR,
    }
    for name, source in sources.items():
        (tmp_path / f"{name}.py").write_text(source)
    results = _import_all(tmp_path, list(sources))
    rejected, type_error, value_error = (results[name] for name in sources)
    assert rejected is not None and rejected[:1] == ["TypeError"] and not _crash(rejected)
    assert "frozen" in rejected[1]
    assert type_error is not None and type_error[0] == "TypeError" and _crash(type_error)
    assert value_error is not None and value_error[0] == "ValueError" and _crash(value_error)


@pytest.mark.parametrize("batch", BATCHES, ids=_batch_id)
def test_runtime_defines_every_fragment_or_rejects_it_cleanly(
    batch: list[FuzzModule], tmp_path: Path
) -> None:
    root = tmp_path / "modules"
    _write_batch(root, batch)
    results = _import_all(root, [m.name for m in batch])
    problems = []
    for module in batch:
        result = results[module.name]
        # A cross-module fragment imports the previous module, and fails with it.
        previous = results.get(f"fuzz_{int(module.name[5:]) - 1:03d}")
        marked = "# E:" in module.source or ("cross_module" in module.fragments and previous)
        if result is None:
            continue
        kind, message, *_ = result
        if _crash(result):
            problems.append(f"{module.name} {list(module.fragments)}: crash: {kind}: {message}")
        elif not marked:
            problems.append(
                f"{module.name} {list(module.fragments)}: rejects valid code: {kind}: {message}"
            )
    assert not problems, "\n".join(problems)


if __name__ == "__main__":  # write the modules somewhere to look at them
    target = Path(sys.argv[1])
    for batch in BATCHES:
        _write_batch(target / _batch_id(batch), batch)
