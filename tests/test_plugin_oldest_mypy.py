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
from test_plugin_incremental import KEY_ERROR, KEYS, UNHASHABLE_INNER

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
if sys.version_info >= (3, 13):  # the cases' target is the running Python's
    # From target 3.13 replace's first parameter is a protocol over `__replace__`; the
    # oldest mypy accepts an `int` there (newest mypy reports arg-type). Seen in
    # `make test-matrix LEGS=py3.13`; why that mypy matches the protocol is not yet known.
    KNOWN_DIFFERENCES.add("plugin/unusual.py:40: mypy-plugin arg-type: expected, not reported")


def test_same_diagnostics_cold_and_warm(old_project: checkers.Project) -> None:
    old_project.copy_cases(*checkers.PLUGIN_CASES)
    cold = old_project.mypy()
    problems = set(old_project.problems(cold))
    assert problems == KNOWN_DIFFERENCES, "\n".join(sorted(problems ^ KNOWN_DIFFERENCES))
    warm = old_project.mypy()
    assert sorted(warm.errors) == sorted(cold.errors)


def test_hash_set_to_none_in_the_class_body(old_project: checkers.Project) -> None:
    """mypy 1.11 has not yet inferred `__hash__ = None` when the plugin asks (newer mypy
    has), so the plugin reads the class body; the differential test found the miss."""
    old_project.write(
        {
            "unhashable.py": (
                "import jax\n"
                "import jaxdc as jdc\n"
                "\n"
                "class NoHash:\n"
                "    __hash__ = None  # type: ignore[assignment]\n"
                "\n"
                "@jdc.pytree_dataclass\n"
                "class Model:\n"
                "    w: jax.Array\n"
                "    tag: jdc.Static[NoHash]  # E: mypy-plugin jaxdc-static: static field 'tag' of"
                " class 'Model' has unhashable type 'NoHash': 'NoHash' is not hashable (it sets"
                " __hash__ to None). Static values are part of the treedef and used as jit cache"
                " keys, so they must be hashable. Fix: use an immutable type such as tuple[...]"
                " or frozenset[...], or make 'tag' a data field.\n"
            )
        }
    )
    assert old_project.problems(old_project.mypy()) == []


def test_warm_run_misses_an_edit_two_modules_away(old_project: checkers.Project) -> None:
    """A known limitation, documented in mypy_plugin/README.md: mypy < 2.4 has no
    `get_additional_indirect_deps` hook, so a warm run does not re-check `model` when `inner`
    (used only through `keys.Key`'s field) becomes unhashable; the newest mypy does
    (tests/test_plugin_incremental.py). `--no-incremental` sees it. A fix makes the warm
    assertion fail: then drop the limitation from the README and assert KEY_ERROR here."""
    old_project.write(KEYS)
    assert old_project.mypy().check().diagnostics == set()
    (old_project.root / "inner.py").write_text(UNHASHABLE_INNER)
    assert old_project.mypy().check().diagnostics == set()  # the miss
    assert old_project.mypy("--no-incremental", ".").check().diagnostics == KEY_ERROR


def test_daemon_sees_an_edit_two_modules_away(old_project: checkers.Project) -> None:
    """What the README offers as the way round the warm-run gap: dmypy on the oldest mypy
    follows the plugin's fine-grained dependencies (`Inner.__eq__`) to `model`. (dmypy 1.11
    prints text whatever `--output` says, hence the parsing here.)"""
    old_project.write(KEYS)
    status = old_project.root.parent / "old-dmypy.json"
    dmypy = [str(oldest_mypy.PYTHON.parent / "dmypy"), "--status-file", str(status)]
    run = [*dmypy, "run", "--timeout", "600", "--", "--python-executable", checkers.PYTHON]
    run += ["--cache-dir", str(old_project.cache_dir), "."]

    def check() -> set[tuple[str, int, str]]:
        proc = subprocess.run(
            run, cwd=old_project.root, capture_output=True, text=True, timeout=600
        )
        # A run whose exit code, lines or summary say it did not check is a failure here.
        found = checkers.parse_mypy_text("dmypy 1.11", proc, old_project.root)
        return {(d.file, d.line, d.code) for d in found}

    try:
        assert check() == set()
        (old_project.root / "inner.py").write_text(UNHASHABLE_INNER)
        assert check() == KEY_ERROR
    finally:
        subprocess.run([*dmypy, "kill"], cwd=old_project.root, capture_output=True, timeout=60)
