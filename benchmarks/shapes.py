"""What `check_shapes=True` costs (issue 10), side by side in one interleaved run.

A 4-field class annotated with jaxtyping (`Float[Array, "b n"]`, ...), three ways:
- **checks off**: `@jaxdc.pytree_dataclass` (the reference, = 1.00);
- **checks on**: `@jaxdc.pytree_dataclass(check_shapes=True)`;
- **jaxtyped+beartype**: `@jaxtyped(typechecker=beartype)` on a frozen stdlib dataclass,
  the way jaxtyping checks a dataclass today (construction only: it is not a pytree).

Rows: construction (keyword call), `replace` of one field, unflatten
(`tree_unflatten(treedef, leaves)`) and jit dispatch (`f(o)`, `f = jax.jit(lambda o: o)`).
Targets: construction <= 1.5x checks off (issue 19) and <= 0.5x jaxtyped+beartype; unflatten and jit
dispatch 1.00 (nothing runs there).

Run: `python benchmarks/shapes.py [--quick]`. Thread CPU time (see harness.py); on a shared
machine the ratios are meaningful, the absolute times less so.
"""

# jaxtyping's shape strings are not forward references (and no `from __future__ import
# annotations`: these annotations are evaluated where the classes are defined):
# ruff: noqa: F722, F821
import dataclasses
import statistics
import sys
from typing import Any

import jax
import jax.numpy as jnp
import jaxdc
from beartype import beartype
from harness import Job, ratio, run_interleaved
from jaxtyping import Array, Float, Int, jaxtyped

OFF, ON, JAXTYPED = "checks off", "checks on", "jaxtyped+beartype"
TARGETS = {
    ("construction", ON, OFF): 1.5,
    ("construction", ON, JAXTYPED): 0.5,
    ("unflatten", ON, OFF): 1.0,
    ("jit dispatch", ON, OFF): 1.0,
}


def classes() -> dict[str, type]:
    @jaxdc.pytree_dataclass
    class Off:
        x: Float[Array, "b n"]
        y: Float[Array, "b"]
        z: Int[Array, "b n"]
        w: Float[Array, ""]

    @jaxdc.pytree_dataclass(check_shapes=True)
    class On:
        x: Float[Array, "b n"]
        y: Float[Array, "b"]
        z: Int[Array, "b n"]
        w: Float[Array, ""]

    @jaxtyped(typechecker=beartype)
    @dataclasses.dataclass(frozen=True)
    class Jaxtyped:
        x: Float[Array, "b n"]
        y: Float[Array, "b"]
        z: Int[Array, "b n"]
        w: Float[Array, ""]

    return {OFF: Off, ON: On, JAXTYPED: Jaxtyped}


def jobs() -> list[Job]:
    leaves = {
        "x": jax.device_put(jnp.zeros((4, 3))),
        "y": jax.device_put(jnp.zeros(4)),
        "z": jax.device_put(jnp.zeros((4, 3), jnp.int32)),
        "w": jax.device_put(jnp.zeros(())),
    }
    out = []
    for lib, cls in classes().items():
        ns: dict[str, Any] = {"C": cls, **leaves, "jax": jax, "jaxdc": jaxdc}
        construct = "C(x=x, y=y, z=z, w=w)"
        out.append(Job(("construction",), lib, construct, "", ns))
        if lib == JAXTYPED:
            continue  # not a pytree
        ns["o"] = o = cls(**leaves)
        ns["leaves"], ns["treedef"] = jax.tree_util.tree_flatten(o)
        ns["f"] = f = jax.jit(lambda o: o)
        f(o)
        out.append(Job(("replace",), lib, "jaxdc.replace(o, y=y)", "", ns))
        out.append(
            Job(("unflatten",), lib, "jax.tree_util.tree_unflatten(treedef, leaves)", "", ns)
        )
        out.append(Job(("jit dispatch",), lib, "f(o)", "", ns))
    return out


def report(done: list[Job]) -> str:
    by = {(job.cell[0], job.lib): job for job in done}
    lines = [
        "| row | checks off (ns) | checks on / off | checks on / jaxtyped+beartype | target |",
        "|---|---|---|---|---|",
    ]
    for row in ("construction", "replace", "unflatten", "jit dispatch"):
        off, on = by[row, OFF], by[row, ON]
        vs_off = ratio(on.samples, off.samples)
        cells = [
            row,
            f"{statistics.median(off.samples):.0f}",
            f"{vs_off.ratio:.2f} (±{vs_off.spread:.2f})",
        ]
        if (row, JAXTYPED) in by:
            vs_jt = ratio(on.samples, by[row, JAXTYPED].samples)
            cells.append(f"{vs_jt.ratio:.3f} (±{vs_jt.spread:.3f})")
        else:
            cells.append("-")
        targets = [
            f"<= {limit:g}x {other}" if limit != 1.0 else "1.00"
            for (r, _, other), limit in TARGETS.items()
            if r == row
        ]
        cells.append(", ".join(targets) or "-")
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main(argv: list[str]) -> None:
    quick = "--quick" in argv
    todo = jobs()
    run_interleaved(
        todo,
        rounds=8 if quick else 25,
        sample_ms=20 if quick else 40,
        progress=lambda msg: print(msg, file=sys.stderr),
    )
    print(f"Python {sys.version.split()[0]}, jax {jax.__version__}; ratios of medians")
    print("(± half the interquartile range of the per-round paired ratios)\n")
    print(report(todo))


if __name__ == "__main__":
    main(sys.argv[1:])
