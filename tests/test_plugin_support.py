"""Shared machinery for the jaxdc_mypy tests (no tests here).

Each test writes a small project into a temp dir and runs mypy on it in a subprocess, as a
user would (the plugin is found because jaxdc is installed in the venv). Checking anything
that imports jax costs mypy ~10 s cold, so one warm cache holding jax, numpy, jaxtyping and
the stubs is kept under .mypy_cache/ and copied into every project: each test then pays
only for its own files. Expected diagnostics are written next to the code they concern,
as `# E: <code>` comments, and compared exactly as (file, line, code).
"""

from __future__ import annotations

import fcntl
import os
import re
import shutil
import subprocess
import sys
import textwrap
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
PYTHON = sys.executable
# Persisted between runs (like the typecheck harness's caches); rebuilt by mypy if stale.
SHARED_CACHE = REPO / ".mypy_cache" / "jaxdc-plugin-tests"

# (file, line, code)
Diagnostic = tuple[str, int, str]

PYPROJECT = """\
[tool.mypy]
plugins = ["jaxdc_mypy"]
warn_unused_ignores = true
"""
PRELUDE = "import jax\nimport jax.numpy\nimport numpy\nimport jaxtyping\nimport jaxdc\n"

_ERROR = re.compile(
    r"^(?P<path>[^:\n]+):(?P<line>\d+): error: (?P<message>.*?)(?:  \[(?P<code>[\w-]+)\])?$"
)
_EXPECT = re.compile(r"#\s*E:\s*([\w-]+)")


@dataclass(frozen=True)
class MypyRun:
    exit_code: int
    stdout: str
    stderr: str

    @property
    def errors(self) -> list[tuple[str, int, str, str]]:
        """(file, line, code, message) of each error, in mypy's order."""
        found = []
        for line in self.stdout.splitlines():
            match = _ERROR.match(line)
            if match:
                path = match["path"].replace(os.sep, "/")
                found.append((path, int(match["line"]), match["code"] or "", match["message"]))
        return found

    @property
    def diagnostics(self) -> set[Diagnostic]:
        return {(path, line, code) for path, line, code, _ in self.errors}

    def messages(self, code: str) -> list[str]:
        return [message for _, _, c, message in self.errors if c == code]


def mypy_command(python: str = PYTHON) -> list[str]:
    return [python, "-m", "mypy"]


def run_mypy(
    project: Path,
    args: Sequence[str] = (".",),
    *,
    cache_dir: Path,
    command: Sequence[str] | None = None,
    timeout: float = 900,
) -> MypyRun:
    proc = subprocess.run(
        [
            *(command or mypy_command()),
            "--cache-dir",
            str(cache_dir),
            "--no-error-summary",
            "--show-error-codes",
            "--no-pretty",
            "--no-color-output",
            *args,
        ],
        cwd=project,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )
    return MypyRun(proc.returncode, proc.stdout, proc.stderr)


def expected_diagnostics(project: Path) -> set[Diagnostic]:
    """The `# E: <code>` comments in the project's .py files."""
    found = set()
    for path in sorted(project.rglob("*.py")):
        relative = path.relative_to(project).as_posix()
        for lineno, line in enumerate(path.read_text().splitlines(), start=1):
            for code in _EXPECT.findall(line):
                found.add((relative, lineno, code))
    return found


def write_files(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text).lstrip("\n"))


@dataclass
class Project:
    """A temp project with its own copy of the warm cache."""

    root: Path
    cache_dir: Path
    command: Sequence[str] | None = None
    """How to run mypy (default: this venv's)."""

    def write(self, files: dict[str, str]) -> None:
        write_files(self.root, files)

    def mypy(self, *args: str, command: Sequence[str] | None = None) -> MypyRun:
        return run_mypy(
            self.root, args or (".",), cache_dir=self.cache_dir, command=command or self.command
        )

    def expected(self) -> set[Diagnostic]:
        return expected_diagnostics(self.root)


def build_warm_cache(
    tmp_path_factory: pytest.TempPathFactory, shared: Path, command: Sequence[str] | None = None
) -> Path:
    """Refresh the persisted cache ``shared`` and return this worker's private copy."""
    shared.mkdir(parents=True, exist_ok=True)
    prelude = tmp_path_factory.mktemp("prelude")
    write_files(prelude, {"pyproject.toml": PYPROJECT, "prelude.py": PRELUDE})
    mine = tmp_path_factory.mktemp("cache") / "base"
    with open(shared.with_suffix(".lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # pytest-xdist workers take turns
        run = run_mypy(prelude, ["prelude.py"], cache_dir=shared, command=command)
        assert run.exit_code == 0, run.stdout + run.stderr
        shutil.copytree(shared, mine)
    return mine


@pytest.fixture(scope="session")
def warm_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """This worker's copy of the shared warm cache (refreshed once per session)."""
    return build_warm_cache(tmp_path_factory, SHARED_CACHE)


def new_project(tmp_path: Path, warm: Path, command: Sequence[str] | None = None) -> Project:
    root = tmp_path / "project"
    root.mkdir()
    (root / "pyproject.toml").write_text(PYPROJECT)
    cache_dir = tmp_path / "cache"
    shutil.copytree(warm, cache_dir)
    return Project(root, cache_dir, command)


@pytest.fixture
def project(tmp_path: Path, warm_cache: Path) -> Project:
    return new_project(tmp_path, warm_cache)
