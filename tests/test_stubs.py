"""The stubs match the runtime, and pyright and mypy find them in both kinds of install.

Install checks type-check a probe file whose expected errors exist only in the stubs (the
runtime has no `dataclass_transform` and an unbounded `Static`), from a directory outside the
repository, so the only way to those errors is through the installed `jaxdc-stubs`.
"""

from __future__ import annotations

import ast
import json
import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import checkers
import pytest

REPO = Path(__file__).resolve().parent.parent
STUBS = REPO / "stubs" / "jaxdc-stubs"
BIN = Path(sys.executable).parent

PROBE = textwrap.dedent(
    """\
    from jaxdc import Static, pytree_dataclass

    @pytree_dataclass
    class Model:
        depth: Static[int]
        sizes: Static[list[int]]

    model = Model(2, [3])
    model.depth = 3
    """
)
# (line, code) per checker: the unhashable Static and the frozen assignment.
PYRIGHT_EXPECTED = {(6, "reportInvalidTypeForm"), (9, "reportAttributeAccessIssue")}
MYPY_EXPECTED = {(6, "type-var"), (9, "misc")}


def test_stubtest() -> None:
    """`--ignore-missing-stub`: runtime modules export internal helpers the stubs leave out
    on purpose; test_stub_exports_match_runtime keeps the public names complete."""
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "mypy.stubtest",
            "--ignore-missing-stub",
            "--allowlist",
            str(REPO / "stubs" / "stubtest-allowlist.txt"),
            "jaxdc",
        ],
        capture_output=True,
        text=True,
        cwd=REPO,
        check=False,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_stub_exports_match_runtime() -> None:
    """stubtest's --ignore-missing-stub would let a public name missing from the stubs pass."""
    import jaxdc

    tree = ast.parse((STUBS / "__init__.pyi").read_text())
    reexported = {
        alias.name
        for node in tree.body
        if isinstance(node, ast.ImportFrom)
        for alias in node.names
        if alias.asname == alias.name  # `import x as x` is a re-export (PEP 484)
    }
    (stub_all,) = (
        ast.literal_eval(node.value)
        for node in tree.body
        if isinstance(node, ast.Assign) and ast.unparse(node.targets[0]) == "__all__"
    )
    assert sorted(stub_all) == sorted(reexported) == sorted(jaxdc.__all__)


def _assert_stubs_found(python: Path, workdir: Path, cache: str) -> None:
    (workdir / "probe.py").write_text(PROBE)
    pyright = checkers.run_pyright(workdir, ["probe.py"], python=str(python))
    assert {(d.line, d.code) for d in pyright} == PYRIGHT_EXPECTED
    run = checkers.run_mypy(
        workdir, ["probe.py"], cache_dir=REPO / ".mypy_cache" / cache, python=str(python)
    )
    assert {(d.line, d.code) for d in run.check().errors} == MYPY_EXPECTED


def test_editable_install_is_found(tmp_path: Path) -> None:
    """The .venv install: hatchling's static .pth puts `stubs/` on sys.path."""
    _assert_stubs_found(Path(sys.executable), tmp_path, "probe-editable")


@pytest.fixture(scope="module")
def wheel_env(
    tmp_path_factory: pytest.TempPathFactory, archives: tuple[Path, Path]
) -> tuple[Path, Path, float]:
    """(python, site-packages, the checkout's score) of one bare venv: first the checkout's
    `pyright --verifytypes` score is taken there (the command refuses a package shadowed by
    a `-stubs` package, the editable layout, so it reads the stubs copied in as the package
    itself), then the copy is removed and the session's wheel (conftest's `archives`, the
    one test_packaging.py inspects) is installed in its place."""
    tmp_path = tmp_path_factory.mktemp("wheel-env")
    python, site = checkers.bare_venv(tmp_path / "env")
    shutil.copytree(STUBS, site / "jaxdc")
    (site / "jaxdc" / "py.typed").touch()
    score: float = _verifytypes(python, tmp_path)["completenessScore"]
    shutil.rmtree(site / "jaxdc")
    _, wheel = archives
    pip = [sys.executable, "-m", "pip", "--python", str(python)]
    subprocess.run(
        [*pip, "install", "-q", "--no-deps", str(wheel)], check=True, capture_output=True
    )
    return python, site, score


@pytest.fixture(scope="module")
def checkout_score(wheel_env: tuple[Path, Path, float]) -> float:
    return wheel_env[2]


def test_wheel_install_is_found(tmp_path: Path, wheel_env: tuple[Path, Path, float]) -> None:
    """A fresh venv holding only the wheel."""
    python, site, checkout_score = wheel_env
    where = subprocess.run(
        [
            str(python),
            "-c",
            "import sys, importlib.util as u; print(u.find_spec('jaxdc').origin)"
            "; import _jaxdc_rules.messages as m; print(m.__file__)"
            "; print(*sys.path, sep='\\n')",
        ],
        capture_output=True,
        text=True,
        check=True,
        cwd=tmp_path,
    ).stdout.splitlines()
    # The runtime and the plugin share the rules package: it must ship in the wheel.
    assert where[0].startswith(str(site)) and where[1].startswith(str(site))
    assert not {str(REPO / "stubs"), str(REPO / "runtime"), str(REPO / "rules")} & set(where[2:])
    _assert_stubs_found(python, tmp_path, "probe-wheel")
    # The wheel's `jaxdc` (stubs inline, py.typed) is what `--verifytypes` scores for users.
    report = _verifytypes(python, tmp_path)
    assert report["packageRootDirectory"] == str(site / "jaxdc")
    assert report["pyTypedPath"] == str(site / "jaxdc" / "py.typed")
    assert report["exportedSymbolCounts"]["withKnownType"] > 0
    assert report["completenessScore"] == checkout_score


def _verifytypes(python: Path, cwd: Path) -> dict[str, Any]:
    """`pyright --verifytypes jaxdc` against the packages of `python`'s environment."""
    # --verifytypes ignores --pythonpath; it takes the first `python` on PATH.
    path = f"{python.parent}{os.pathsep}{os.environ['PATH']}"
    proc = subprocess.run(
        [str(BIN / "pyright"), "--verifytypes", "jaxdc", "--ignoreexternal", "--outputjson"],
        capture_output=True,
        text=True,
        cwd=cwd,
        check=False,
        env={**os.environ, "PATH": path},
    )
    report: dict[str, Any] = json.loads(proc.stdout)["typeCompleteness"]
    return report


def _jaxlib_declares_device() -> bool:
    """Whether jaxlib ships a stub declaring `jax.Device`: jaxlib 0.4.36 (the oldest
    supported) does, newer ones do not, which leaves `jit`'s `device` parameter partly
    unknown to pyright, the one gap the README explains."""
    import jaxlib

    root = Path(jaxlib.__file__).parent
    return any("\nclass Device" in stub.read_text() for stub in root.rglob("*.pyi"))


def test_verifytypes_score_is_the_documented_one(checkout_score: float) -> None:
    """stubs/README.md quotes the score (with the newest jax; complete where jaxlib
    declares `jax.Device`, but for `as_array` (1 of 50 symbols) under numpy 1.x, where
    the bare `np.ndarray` in `jax.typing.ArrayLike`, its parameter's type, is partly
    unknown)."""
    if _jaxlib_declares_device():
        complete = checkers.numpy_defaults_array_type_arguments()
        assert checkout_score == (1.0 if complete else 0.98)
        return
    readme = (REPO / "stubs" / "README.md").read_text()
    assert f"completeness score: {checkout_score:.1%}" in readme
