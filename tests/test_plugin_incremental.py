"""Same diagnostics however mypy runs: cold, warm (cached), `-n 2` workers, and the daemon
after an edit in another module that changes a field type's hashability.

Field kinds live in JSON class metadata (what the cache and workers carry), errors are
reported in the type-checking phase (replayed from the cache), and the plugin records
dependencies so that editing a class a field type depends on re-checks the field's class.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from test_plugin_checks import DATA_MISUSE, STATIC_MISUSE
from test_plugin_structure import PACKAGE
from test_plugin_support import (
    PYTHON,
    MypyRun,
    Project,
    mypy_command,
    project,  # noqa: F401
    warm_cache,  # noqa: F401
)

# `model.Model.key` is static; its type `keys.Key` is a frozen dataclass holding an
# `inner.Inner`, two modules away from `model`. Editing `inner` decides hashability.
KEYS = {
    "inner.py": """
        class Inner:
            size: int = 0
        """,
    "keys.py": """
        from dataclasses import dataclass

        from inner import Inner


        @dataclass(frozen=True)
        class Key:
            inner: Inner
        """,
    "model.py": """
        import jax
        from jaxdc import PyTreeNode, Static

        from keys import Key


        class Model(PyTreeNode):
            key: Static[Key]
            w: jax.Array
        """,
}
UNHASHABLE_INNER = """
class Inner:
    size: int = 0

    def __eq__(self, other: object) -> bool:
        return True
"""
KEY_ERROR = {("model.py", 8, "jaxdc-static")}


def _supports_parallel_checking() -> bool:
    help_text = subprocess.run(
        [*mypy_command(), "--help"], capture_output=True, text=True, check=False
    ).stdout
    return "--num-workers" in help_text


def test_cold_warm_and_parallel_runs_agree(project: Project, warm_cache: Path) -> None:
    project.write({**PACKAGE, "static_misuse.py": STATIC_MISUSE, "data_misuse.py": DATA_MISUSE})
    cold = project.mypy()
    assert cold.diagnostics == project.expected(), cold.stdout
    # mypy may list files in another order when some come from the cache.
    warm = project.mypy()
    assert sorted(warm.errors) == sorted(cold.errors)
    if not _supports_parallel_checking():
        pytest.skip("this mypy has no parallel checking (-n)")
    shutil.rmtree(project.cache_dir)
    shutil.copytree(warm_cache, project.cache_dir)
    parallel_cold = project.mypy("-n", "2", ".")
    assert sorted(parallel_cold.errors) == sorted(cold.errors)
    parallel_warm = project.mypy("-n", "2", ".")
    assert sorted(parallel_warm.errors) == sorted(cold.errors)


def test_warm_run_sees_hashability_change_two_modules_away(project: Project) -> None:
    project.write(KEYS)
    assert project.mypy().diagnostics == set()
    (project.root / "inner.py").write_text(UNHASHABLE_INNER)
    assert project.mypy().diagnostics == KEY_ERROR
    project.write({"inner.py": KEYS["inner.py"]})
    assert project.mypy().diagnostics == set()


def test_daemon_sees_hashability_change_two_modules_away(project: Project) -> None:
    project.write(KEYS)
    status = project.root.parent / "dmypy.json"
    dmypy = [str(Path(PYTHON).parent / "dmypy"), "--status-file", str(status)]
    args = ["--", "--cache-dir", str(project.cache_dir), "--show-error-codes", "--no-pretty", "."]

    def check() -> set[tuple[str, int, str]]:
        proc = subprocess.run(
            [*dmypy, "run", *args], cwd=project.root, capture_output=True, text=True, timeout=600
        )
        assert proc.returncode in (0, 1), proc.stdout + proc.stderr
        return MypyRun(proc.returncode, proc.stdout, proc.stderr).diagnostics

    try:
        assert check() == set()
        (project.root / "inner.py").write_text(UNHASHABLE_INNER)
        assert check() == KEY_ERROR
        project.write({"inner.py": KEYS["inner.py"]})
        assert check() == set()
    finally:
        subprocess.run([*dmypy, "stop"], cwd=project.root, capture_output=True, timeout=60)
