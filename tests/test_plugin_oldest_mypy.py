"""jaxdc_mypy on the oldest mypy it supports (the newest is the venv's own, used everywhere
else): the plugin's cases give the same exact diagnostics, cold and warm.

The old mypy lives in its own venv (tools/oldest_mypy.py, created by `make venv`) and
type-checks against this venv's site-packages, so jax, numpy and the stubs are the same.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import checkers
import pytest

sys.path.insert(0, str(checkers.REPO / "tools"))
import oldest_mypy


@pytest.fixture(scope="session")
def oldest_command() -> list[str]:
    return oldest_mypy.command(checkers.PYTHON)


@pytest.fixture(scope="session")
def oldest_warm_cache(tmp_path_factory: pytest.TempPathFactory, oldest_command: list[str]) -> Path:
    shared = checkers.REPO / ".mypy_cache" / "jaxdc-plugin-tests-oldest"
    warm = tmp_path_factory.mktemp("oldest") / "cache"
    return checkers.build_warm_cache(shared, warm, command=oldest_command)


@pytest.fixture
def old_project(
    tmp_path: Path, oldest_warm_cache: Path, oldest_command: list[str]
) -> checkers.Project:
    return checkers.Project.create(tmp_path, oldest_warm_cache, oldest_command)


def test_is_the_oldest_supported_version(oldest_command: list[str]) -> None:
    proc = subprocess.run([*oldest_command[:3], "--version"], capture_output=True, text=True)
    assert proc.stdout.startswith(f"mypy {oldest_mypy.OLDEST_MYPY} ")


# Where the oldest mypy knowingly differs from the cases, and why. A fix makes its line
# disappear from the run's problems, and this test then asks to drop the entry.
KNOWN_DIFFERENCES = {
    # mypy < 2 keeps a whole-string annotation unparsed (a RawExpressionType), and the
    # shape check reads only parsed subscripts: a miss, owned by the shapes code.
    "plugin/shapes_misuse.py:23: mypy-plugin jaxdc-shape: expected, not reported",
}


def test_same_diagnostics_cold_and_warm(old_project: checkers.Project) -> None:
    old_project.copy_cases(*checkers.PLUGIN_CASES)
    cold = old_project.mypy()
    problems = set(old_project.problems(cold))
    assert problems == KNOWN_DIFFERENCES, "\n".join(sorted(problems ^ KNOWN_DIFFERENCES))
    warm = old_project.mypy()
    assert sorted(warm.errors) == sorted(cold.errors)
