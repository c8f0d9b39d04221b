"""jaxdc_mypy on the oldest mypy it supports (the newest is the venv's own, used everywhere
else): the same projects, the same exact diagnostics, cold and warm.

The old mypy lives in its own venv under .venv/ (created on first use from PyPI, then
reused; `make clean` removes it with .venv). It type-checks against this venv's
site-packages (`--python-executable`), so jax, numpy and the stubs are the same.
"""

from __future__ import annotations

import fcntl
import subprocess
import sys
from pathlib import Path

import pytest
from test_plugin_checks import (
    CORRECT,
    DATA_MISUSE,
    JIT_MISUSE,
    MUTATION_MISUSE,
    REPLACE_MISUSE,
    STATIC_MISUSE,
    UNUSUAL,
)
from test_plugin_structure import PACKAGE
from test_plugin_support import (
    PYTHON,
    REPO,
    SHARED_CACHE,
    Project,
    build_warm_cache,
    new_project,
)

OLDEST_MYPY = "1.11.0"  # keep in step with the `mypy>=` bound in pyproject.toml
VENV = REPO / ".venv" / "mypy-oldest"


def _venv_python() -> Path:
    return VENV / "bin" / "python"


def _installed_version() -> str | None:
    if not _venv_python().exists():
        return None
    proc = subprocess.run(
        [str(_venv_python()), "-c", "import mypy.version; print(mypy.version.__version__)"],
        capture_output=True,
        text=True,
        check=False,
    )
    return proc.stdout.strip() if proc.returncode == 0 else None


def _ensure_venv() -> None:
    """Create the venv (once; needs PyPI) and make the plugin importable in it."""
    with open(VENV.parent / "mypy-oldest.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if _installed_version() != OLDEST_MYPY:
            subprocess.run([sys.executable, "-m", "venv", "--clear", str(VENV)], check=True)
            subprocess.run(
                [str(_venv_python()), "-m", "pip", "install", "-q", f"mypy=={OLDEST_MYPY}"],
                check=True,
            )
        site = subprocess.run(
            [
                str(_venv_python()),
                "-c",
                "import sysconfig; print(sysconfig.get_paths()['purelib'])",
            ],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
        # The plugin and the rules package it imports (the same roots as the editable install).
        roots = [REPO / "mypy_plugin", REPO / "rules"]
        (Path(site) / "jaxdc_mypy_plugin.pth").write_text("".join(f"{r}\n" for r in roots))


@pytest.fixture(scope="session")
def oldest_command() -> list[str]:
    _ensure_venv()
    return [str(_venv_python()), "-m", "mypy", "--python-executable", PYTHON]


@pytest.fixture(scope="session")
def oldest_warm_cache(tmp_path_factory: pytest.TempPathFactory, oldest_command: list[str]) -> Path:
    shared = SHARED_CACHE.with_name(SHARED_CACHE.name + "-oldest")
    return build_warm_cache(tmp_path_factory, shared, oldest_command)


@pytest.fixture
def old_project(tmp_path: Path, oldest_warm_cache: Path, oldest_command: list[str]) -> Project:
    return new_project(tmp_path, oldest_warm_cache, oldest_command)


def test_is_the_oldest_supported_version(oldest_command: list[str]) -> None:
    proc = subprocess.run([*oldest_command[:3], "--version"], capture_output=True, text=True)
    assert proc.stdout.startswith(f"mypy {OLDEST_MYPY} ")


def test_same_diagnostics_cold_and_warm(old_project: Project) -> None:
    old_project.write(
        {
            **PACKAGE,
            "static_misuse.py": STATIC_MISUSE,
            "data_misuse.py": DATA_MISUSE,
            "replace_misuse.py": REPLACE_MISUSE,
            "jit_misuse.py": JIT_MISUSE,
            "mutation_misuse.py": MUTATION_MISUSE,
            "unusual.py": UNUSUAL,
            "correct.py": CORRECT,
        }
    )
    cold = old_project.mypy()
    # The old typeshed lets `Static[bytearray]`/`Static[deque[int]]` through the stubs'
    # Hashable bound, so those lines' `# type: ignore[type-var]` are unused there.
    got = {d for d in cold.diagnostics if d[2] != "unused-ignore"}
    assert got == old_project.expected(), cold.stdout + cold.stderr
    warm = old_project.mypy()
    assert sorted(warm.errors) == sorted(cold.errors)
