"""`make demo`: what each layer of jaxdc catches, then the runtime in action.

1. mypy with the jaxdc_mypy plugin on examples/misuse.py (never executed),
2. pyright on the same file (what an editor with pylance shows),
3. the runtime rejecting the same misuse at class definition / construction,
4. the runtime demo (examples/runtime_demo.py): jit, vmap, copy_and_mutate, ...
"""

from __future__ import annotations

import json
import runpy
import subprocess
import sys
import textwrap
from pathlib import Path

HERE = Path(__file__).resolve().parent
BIN = Path(sys.executable).parent
MISUSE = HERE / "misuse.py"


def banner(title: str) -> None:
    print(f"\n{'=' * 78}\n{title}\n{'=' * 78}")


def source_line(line: int) -> str:
    return MISUSE.read_text().splitlines()[line - 1].strip()


def run_mypy() -> set[int]:
    banner("1. mypy + jaxdc_mypy plugin  (examples/mypy.ini: plugins = jaxdc_mypy)")
    caught = set()
    out = subprocess.run(
        [
            str(BIN / "mypy"),
            "--config-file",
            str(HERE / "mypy.ini"),
            "--no-error-summary",
            "--hide-error-context",
            str(MISUSE),
        ],
        capture_output=True,
        text=True,
        cwd=HERE.parent,
    ).stdout
    for row in out.splitlines():
        if ": error: " not in row:
            continue
        location, message = row.split(": error: ", 1)
        line = int(location.rsplit(":", 1)[1])
        caught.add(line)
        print(f"  line {line:>2}  {source_line(line)}\n           -> {message}")
    return caught


# The Python pyright checks for: from 3.13 on, checkers give dataclasses `__replace__`, and
# jaxdc.replace's keywords are typed (a misspelt one is an error; before 3.13 only the plugin).
PYRIGHT_TARGET = "3.13"


def run_pyright() -> set[int]:
    banner(
        "2. pyright (what pylance shows in the editor; no plugin needed;"
        f" target Python {PYRIGHT_TARGET})"
    )
    caught = set()
    out = subprocess.run(
        [
            str(BIN / "pyright"),
            "--outputjson",
            "--pythonpath",
            sys.executable,
            "--pythonversion",
            PYRIGHT_TARGET,
            str(MISUSE),
        ],
        capture_output=True,
        text=True,
        cwd=HERE.parent,
    ).stdout
    for diag in json.loads(out)["generalDiagnostics"]:
        line = diag["range"]["start"]["line"] + 1
        message = diag["message"].splitlines()[0]
        caught.add(line)
        rule = diag.get("rule", "")
        print(f"  line {line:>2}  {source_line(line)}\n           -> {message}  [{rule}]")
    return caught


def summarize(by_mypy: set[int], by_pyright: set[int]) -> None:
    banner("Summary: which checker flags each mistake in examples/misuse.py")
    print("  mypy+plugin  pyright  line")
    for line in sorted(by_mypy | by_pyright):
        marks = ["yes" if line in found else " - " for found in (by_mypy, by_pyright)]
        print(f"      {marks[0]}       {marks[1]}    {line:>2}  {source_line(line)}")


RUNTIME_MISUSE = {
    "Static[list[int]] at class definition": """
        @jdc.pytree_dataclass
        class Model:
            w: jax.Array
            layers: jdc.Static[list[int]]
    """,
    "a list passed to a static field": """
        @jdc.pytree_dataclass
        class Model:
            w: jax.Array
            layers: jdc.Static[tuple[int, ...]]
        Model(jnp.ones(3), [32, 32])
    """,
    "assigning a field": """
        @jdc.pytree_dataclass
        class Model:
            w: jax.Array
        Model(jnp.ones(3)).w = jnp.zeros(3)
    """,
    "a subclass that forgot the decorator": """
        @jdc.pytree_dataclass
        class Model:
            w: jax.Array
        class Bigger(Model):
            pass
        Bigger(jnp.ones(3))
    """,
}


def run_runtime_checks() -> None:
    banner("3. runtime: the same misuse, for people who run neither checker")
    import jax
    import jax.numpy as jnp
    import jaxdc as jdc

    for title, snippet in RUNTIME_MISUSE.items():
        try:
            exec(textwrap.dedent(snippet), {"jax": jax, "jnp": jnp, "jdc": jdc})
        except Exception as exc:  # the demo shows whatever the runtime raises
            print(f"  {title}:\n    {type(exc).__name__}: {textwrap.shorten(str(exc), 400)}")
        else:
            print(f"  {title}: NOT caught (a bug)")


def run_runtime_demo() -> None:
    banner("4. runtime demo (examples/runtime_demo.py)")
    runpy.run_path(str(HERE / "runtime_demo.py"), run_name="__main__")


def run_retrace_demo() -> None:
    banner("5. retraces explained: a static learning rate recompiles every step (docs/retraces.md)")
    import logging
    import warnings

    import jax
    import jax.numpy as jnp
    import jaxdc as jdc

    @jdc.pytree_dataclass
    class Opt:
        lr: jdc.Static[float]  # changes every step: should be a jax.Array

    @jdc.jit
    def train_step(w: jax.Array, opt: Opt) -> jax.Array:
        return w - opt.lr * w

    handler = logging.StreamHandler(sys.stdout)
    handler.setFormatter(logging.Formatter("  explained: %(message)s"))
    logging.getLogger("jaxdc").addHandler(handler)
    jdc.config.explain_retraces = True
    print("  JAX's treedef now names the field:", jax.tree.structure(Opt(0.1)))
    w = jnp.ones(3)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for step in range(9):
            if step == 3:
                jdc.config.explain_retraces = False  # three lines are enough to show
            w = train_step(w, Opt(0.1 * 0.5**step))
    for warning in caught:
        if issubclass(warning.category, jdc.RetraceWarning):
            print(f"  warned: {warning.message}")
    logging.getLogger("jaxdc").removeHandler(handler)


if __name__ == "__main__":
    summarize(run_mypy(), run_pyright())
    run_runtime_checks()
    if (HERE / "runtime_demo.py").exists():
        run_runtime_demo()
    run_retrace_demo()
