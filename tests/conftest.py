"""Shared fixtures: a module loaded from source, and mypy projects that start warm."""

from __future__ import annotations

import fcntl
import importlib.util
import os
import subprocess
import sys
import tarfile
import textwrap
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from types import ModuleType

import checkers
import pytest

# Persisted between sessions (mypy rebuilds whatever is stale in it).
SHARED_CACHE = checkers.REPO / ".mypy_cache" / "jaxdc-plugin-tests"


@pytest.fixture
def load_module(tmp_path: Path) -> Iterator[Callable[[str], ModuleType]]:
    """Write `source` to a fresh module file and import it (so PEP 563 and frames are real)."""
    names: list[str] = []

    def load(source: str) -> ModuleType:
        name = f"jaxdc_case_{uuid.uuid4().hex[:8]}"
        path = tmp_path / f"{name}.py"
        path.write_text(textwrap.dedent(source))
        spec = importlib.util.spec_from_file_location(name, path)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        names.append(name)
        spec.loader.exec_module(module)
        return module

    yield load
    for name in names:
        sys.modules.pop(name, None)


@pytest.fixture(scope="session")
def warm_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """This worker's copy of the mypy cache holding jax, numpy, jaxtyping and the stubs,
    checked with the plugin and the cases' settings (refreshed once per session).

    Checking anything that imports jax costs mypy ~15 s cold; every project and the cases'
    mypy + plugin run start from a copy of this cache and pay only for their own files.
    """
    return checkers.build_warm_cache(SHARED_CACHE, tmp_path_factory.mktemp("warm") / "cache")


@pytest.fixture
def project(tmp_path: Path, warm_cache: Path) -> checkers.Project:
    """An empty project (pyproject.toml enables the plugin) with its own warm cache."""
    return checkers.Project.create(tmp_path, warm_cache)


@pytest.fixture(scope="session")
def archives(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """(sdist, wheel built from the unpacked sdist), built offline with hatchling once per
    test session: test_packaging.py reads them and test_stubs.py installs the wheel.

    pytest-xdist workers share the session's temporary root (the parent of each worker's
    own) and take turns, so the first worker builds and the other reuses.
    """
    own = tmp_path_factory.getbasetemp()
    shared = own.parent if os.environ.get("PYTEST_XDIST_WORKER") else own
    out = shared / "jaxdc-archives"
    with open(shared / "jaxdc-archives.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (out / "built").exists():
            _build_archives(out)
            (out / "built").touch()
    (sdist,) = out.glob("jaxdc-*.tar.gz")
    (wheel,) = out.glob("jaxdc-*.whl")
    return sdist, wheel


def _build_archives(out: Path) -> None:
    hatchling = [sys.executable, "-m", "hatchling", "build", "-d", str(out)]
    subprocess.run([*hatchling, "-t", "sdist"], cwd=checkers.REPO, check=True, capture_output=True)
    (sdist,) = out.glob("jaxdc-*.tar.gz")
    with tarfile.open(sdist) as archive:
        safe = {"filter": "data"} if hasattr(tarfile, "data_filter") else {}
        archive.extractall(out / "unpacked", **safe)  # type: ignore[arg-type]
    (root,) = (out / "unpacked").iterdir()
    subprocess.run([*hatchling, "-t", "wheel"], cwd=root, check=True, capture_output=True)
