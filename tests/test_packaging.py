"""What pip users get: one version, the license, the metadata, and archives holding only
what they should.

The sdist is built offline with hatchling (the build backend, in the `dev` extra), and the
wheel is rebuilt *from the unpacked sdist*, so a file the sdist forgets fails here rather
than on a user's machine (the `archives` fixture, conftest.py: built once per session).
tests/test_stubs.py installs the same wheel and type-checks against it.
"""

from __future__ import annotations

import re
import tarfile
import zipfile
from email.parser import Parser
from importlib import metadata
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
# Folders of the checkout the sdist carries whole (a rebuild of the wheel needs them).
SOURCE_DIRS = ("runtime", "stubs", "mypy_plugin", "rules")
# Single files at the top of the sdist: the documents a user reads, the build definition,
# hatchling's own .gitignore copy (it filters a rebuild), and the generated PKG-INFO.
TOP_FILES = {"README.md", "LICENSE", "CHANGELOG.md", "pyproject.toml", ".gitignore", "PKG-INFO"}
# The import packages of the wheel; each must carry a py.typed marker (PEP 561).
WHEEL_PACKAGES = {"jaxdc", "jaxdc_mypy", "_jaxdc_rules"}


def test_versions_agree() -> None:
    import _jaxdc_rules
    import jaxdc
    import jaxdc_mypy

    assert jaxdc.__version__ == jaxdc_mypy.__version__ == _jaxdc_rules.__version__
    assert jaxdc.__version__ == metadata.version("jaxdc")  # the installed distribution


def test_the_version_is_written_in_one_place() -> None:
    written = [
        path.relative_to(REPO).as_posix()
        for folder in SOURCE_DIRS
        for path in sorted((REPO / folder).rglob("*.py*"))
        # sources and stubs only: bytecode that `make bench` compiles for the plugin is not text
        if path.suffix in (".py", ".pyi")
        and re.search(r"^__version__\s*(:[^=]*)?=\s*['\"]", path.read_text(), re.MULTILINE)
    ]
    assert written == ["rules/_jaxdc_rules/__init__.py"]


def _checkout_files(folder: str) -> set[str]:
    return {
        path.relative_to(REPO).as_posix()
        for path in (REPO / folder).rglob("*")
        if path.is_file() and "__pycache__" not in path.parts
    }


def test_sdist_ships_sources_and_documents_only(archives: tuple[Path, Path]) -> None:
    sdist, _ = archives
    with tarfile.open(sdist) as archive:
        names = {name.split("/", 1)[1] for name in archive.getnames() if "/" in name}
        files = {m.name.split("/", 1)[1] for m in archive.getmembers() if m.isfile()}
    assert not {n for n in names if re.search(r"(^|/)(\.venv|__pycache__|\.\w+_cache)", n)}
    expected = TOP_FILES | {f for folder in SOURCE_DIRS for f in _checkout_files(folder)}
    assert files == expected


def test_wheel_from_the_sdist_holds_the_packages(archives: tuple[Path, Path]) -> None:
    _, wheel = archives
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
    info = next(n.split("/")[0] for n in names if n.endswith(".dist-info/METADATA"))
    assert {n.split("/")[0] for n in names} == WHEEL_PACKAGES | {info}
    assert {f"{package}/py.typed" for package in WHEEL_PACKAGES} <= names
    assert f"{info}/licenses/LICENSE" in names
    # The stubs are inline in `jaxdc` (see pyproject.toml), one `.pyi` per stubbed module.
    root = REPO / "stubs" / "jaxdc-stubs"
    stubs = {p.relative_to(root).as_posix() for p in root.rglob("*.pyi")}  # and compat/'s
    assert {n.removeprefix("jaxdc/") for n in names if n.endswith(".pyi")} == stubs


def test_metadata(archives: tuple[Path, Path]) -> None:
    _, wheel = archives
    with zipfile.ZipFile(wheel) as archive:
        (name,) = (n for n in archive.namelist() if n.endswith(".dist-info/METADATA"))
        meta = Parser().parsestr(archive.read(name).decode())
    import jaxdc

    assert meta["Version"] == jaxdc.__version__
    assert meta["License-Expression"] == "Apache-2.0"
    assert meta.get_all("License-File") == ["LICENSE"]
    classifiers = meta.get_all("Classifier")
    # PEP 639: the license expression replaces License classifiers (PyPI rejects both).
    assert not [c for c in classifiers if c.startswith("License ::")]
    for prefix in ("Development Status ::", "Intended Audience ::", "Topic ::"):
        assert any(c.startswith(prefix) for c in classifiers), prefix
    assert {"Programming Language :: Python :: 3 :: Only", "Typing :: Typed"} <= set(classifiers)
    urls = dict(u.split(", ", 1) for u in meta.get_all("Project-URL"))
    assert {"Homepage", "Repository", "Issues", "Changelog"} <= set(urls)
    assert meta["Author"] and meta["Keywords"]
    # PyPI shows the README: it opens for users, with the install command.
    body = meta.get_payload()
    assert body.index("pip install jaxdc") < body.index("make test")


def test_pre_commit_runs_what_make_check_runs() -> None:
    """The hooks run ruff at the version the `dev` extra pins, and mypy as `make check` does."""
    config = (REPO / ".pre-commit-config.yaml").read_text()
    pinned = re.search(r'"ruff==([^"]+)"', (REPO / "pyproject.toml").read_text())
    assert pinned is not None
    assert re.search(rf"ruff-pre-commit\s+rev: v{re.escape(pinned[1])}\b", config)
    makefile = (REPO / "Makefile").read_text()
    check = makefile.split("\ncheck:", 1)[1].split("\n\n", 1)[0]
    assert "ruff check" in check and "ruff format --check" in check and "mypy" in check
    for hook in ("id: ruff-check", "id: ruff-format", "id: mypy"):
        assert hook in config
