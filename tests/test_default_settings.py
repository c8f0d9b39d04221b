"""The README's idioms under every checker's *default* settings (no configuration file), as a
new user first meets them: construction, `jdc.replace`, a `copy_and_mutate` block with plain
assignment and with `jdc.attr`, and `jdc.attr` in a custom `__init__`.

Nothing is reported, errors or warnings, except what docs/checker-parity.md names:
basedpyright's default (`recommended`) mode warns on every use of an `Any` value
(`reportAny`), and the copy in a `copy_and_mutate` block is `Any` to the stubs (no stub can
type it without flagging the assignments, measured there); and basedpyright calls jax's
own array constructors partly unknown (jax does not type `device`).
"""

from __future__ import annotations

import json
import subprocess
import textwrap
from pathlib import Path

import checkers
import pytest

IDIOMS = textwrap.dedent(
    """\
    import jax
    import jax.numpy as jnp
    import jaxdc as jdc


    @jdc.pytree_dataclass
    class Encoder:
        w: jax.Array
        b: jax.Array


    @jdc.pytree_dataclass
    class State:
        encoder: Encoder
        step: jax.Array
        name: jdc.Static[str]


    class Linear(jdc.PyTreeNode):
        w: jax.Array
        features: jdc.Static[int]

        def __init__(self, features: int, key: jax.Array) -> None:
            jdc.attr(self, lambda s: s.w).set(jax.random.normal(key, (features, features)))
            jdc.attr(self, lambda s: s.features).set(features)


    w2 = jnp.full(8, 0.5)
    state = State(Encoder(w=jnp.ones(8), b=jnp.zeros(8)), step=jnp.array(0), name="run")
    state = jdc.replace(state, step=state.step + 1)
    with jdc.copy_and_mutate(state) as new:  # BLOCK
        new.encoder.w = w2  # BLOCK
    with jdc.copy_and_mutate(state) as new:  # BLOCK
        jdc.attr(new, lambda n: n.encoder.w).set(w2)  # BLOCK
    layer = Linear(4, jax.random.key(0)).replace(features=4)
    """
)
BLOCK = {n for n, line in enumerate(IDIOMS.splitlines(), 1) if line.endswith("# BLOCK")}
# jax's constructors whose `device` parameter jax leaves untyped.
JAX_PARTLY_UNKNOWN = ("full", "ones", "zeros", "array", "normal", "key")


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("defaults")
    (root / "idioms.py").write_text(IDIOMS)
    return root


def _pyright_family(name: str, root: Path) -> list[tuple[int, str, str, str]]:
    """(line, severity, rule, message) of everything pyright or basedpyright reports."""
    proc = subprocess.run(
        [str(checkers.BIN / name), "--outputjson", "--pythonpath", checkers.PYTHON, "idioms.py"],
        cwd=root,
        capture_output=True,
        text=True,
        check=False,
    )
    checkers.parse_pyright(proc, root, name)  # a run that is no result fails here
    report = json.loads(proc.stdout)
    return [
        (d["range"]["start"]["line"] + 1, d["severity"], d.get("rule", "-"), d["message"])
        for d in report["generalDiagnostics"]
    ]


def test_pyright_reports_nothing(project: Path) -> None:
    assert _pyright_family("pyright", project) == []


def test_basedpyright_warns_only_on_the_any_copy_and_on_jax(project: Path) -> None:
    found = _pyright_family("basedpyright", project)
    on_the_copy = [d for d in found if d[2] == "reportAny"]
    from_jax = [
        d
        for d in found
        if d[2] == "reportUnknownMemberType"
        and any(f'Type of "{name}" is partially unknown' in d[3] for name in JAX_PARTLY_UNKNOWN)
    ]
    assert {(line, severity) for line, severity, _, _ in on_the_copy} == {
        (line, "warning") for line in BLOCK
    }
    assert sorted(found) == sorted(on_the_copy + from_jax)


@pytest.mark.parametrize("checker", ["ty", "pyrefly", "zuban"])
def test_the_other_checkers_report_no_error(project: Path, checker: str) -> None:
    runner = {"ty": checkers.run_ty, "pyrefly": checkers.run_pyrefly, "zuban": checkers.run_zuban}
    assert runner[checker](project, ["idioms.py"]) == []


def test_mypy_reports_no_error(project: Path) -> None:
    cache = checkers.REPO / ".mypy_cache" / "default-settings"
    assert checkers.run_mypy(project, ["idioms.py"], cache_dir=cache).check().errors == []
