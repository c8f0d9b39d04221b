"""docs/benchmarks.md and its plots, written from one run's raw samples (`run.py --page`).

Every number on the page comes from this module, between generated-block markers
(`tools/docblocks.py`), so `make bench` rewrites them all and nobody edits one by hand.
A section that did not run in this invocation (`--only`) keeps its block as it was.

Spread: each round samples a library and the reference moments apart, so the per-round
ratio lib[r] / ref[r] is one side-by-side measurement; the page gives the median ratio of
the rounds and their min and max.
"""

from __future__ import annotations

import datetime
import os
import platform
import statistics
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT / "tools"))

import docblocks  # noqa: E402

COMMAND = "make bench"
IMG = "img/benchmarks"  # relative to the page
PLOTTED_PEERS = ("jaxdc", "flax.struct", "jax_dataclasses", "equinox", "chex", "NamedTuple")
PEER_VERSIONS = ("jax", "jaxlib", "mypy", "flax", "jax_dataclasses", "equinox", "chex", "ojax")

TEMPLATE = """\
# Benchmarks

Everything on this page is written by `make bench` (`benchmarks/run.py --page`); the method
is in `benchmarks/README.md`. Runtime numbers are **ratios to
`jax.tree_util.register_dataclass`** (= 1, lower is faster), each library measured side by
side with the reference in one run: every round samples each library and the reference
moments apart, and a cell shows the median of the per-round ratios with their min and max.
Compare ratios, not absolute times, across machines.

{provenance}

## Runtime: jaxdc against register_dataclass

![jaxdc per operation]({img}/runtime-jaxdc.png)

{runtime}

## Runtime: every peer

![every peer per operation]({img}/runtime-peers.png)

## The floor of a Python-level node

`register_dataclass` is a node JAX implements in C++: flatten reads the fields in C++, and
unflatten calls `cls(**fields)`, which runs `__init__`. jaxdc keeps unflatten from running
`__init__` (it may validate, or be the user's own), so it registers a custom node, which
JAX calls through Python objects. The experiment below (`benchmarks/floor.py`) registers
custom nodes at their cheapest on the same classes, each timed on the operations it bounds:
**C flatten** (flatten and flatten-with-keys are C code reading pairs stored on the
instance), **Python flatten-with-keys** (a Python function returning the stored keyed pair:
one frame per node), **keys built per call** (instances store only the pair, as jaxdc's do;
a Python function builds the `(key, child)` pairs from it on each call, the cheapest way
measured), **stored pair** (a frozen class storing the pair a C flatten reads:
construction and unflatten set each field and the pair, nothing else), **stored pair,
`__init__` in its module** (the same `__init__` made as dataclasses and jaxdc make theirs: a
closure whose globals are the class's module, where tools resolve its annotations) and
**no-op unflatten** (builds nothing: JAX's own cost around any Python unflatten). A jaxdc cell at
these floors is the price of a custom node, not of jaxdc's code. The verdicts compare
jaxdc with the floors whose instances hold what a jaxdc instance holds (*keys built per
call*, *stored pair*).

![floor]({img}/floor.png)

{floor}

Reading the verdicts: *stored pair* checks nothing, and its `__init__` reads its names as
globals; jaxdc's, like dataclasses' own, keeps the class's module as its globals (the
*`__init__` in its module* column shows that price), and checks every instance: its static
values are compared with the last ones validated and a new one is hashed, so an unhashable
one fails at the line that made it, and a subclass's `__init__` is told apart.
Its `replace` is a method of one class; `jaxdc.replace` is a function taking an instance of
any jaxdc class, which finds that class's generated replace first (and checks every keyword
it is given). `flatten_with_path` reaches the *C flatten* floor only if every instance also
stores its keyed pair; the *C flatten* rows for construction and unflatten show what that
would cost every instance, whether or not anything asks for key paths, so jaxdc builds the
keyed pairs when asked, as *keys built per call* does (`benchmarks/floor.py` lists the ways
of building them that were measured). jit dispatch flattens the inputs and unflattens the
outputs, so it shares the floors of both.

## `check_shapes=True`

{shapes}

## Import cost

![import cost]({img}/imports.png)

{imports}

## The mypy plugin against project size

![plugin cost against project size]({img}/plugin.png)

{plugin}
"""

BLOCKS = ("provenance", "runtime", "floor", "shapes", "imports", "plugin")


def _block_name(section: str) -> str:
    return f"bench-{section}"


def _empty_page() -> str:
    filled = {
        s: f"{docblocks.begin_marker(_block_name(s), COMMAND)}\n"
        f"(not measured yet)\n{docblocks.end_marker(_block_name(s))}"
        for s in BLOCKS
    }
    return TEMPLATE.format(img=IMG, **filled)


# ---------------------------------------------------------------------------------------
# Numbers
# ---------------------------------------------------------------------------------------


def paired(lib: Sequence[float], ref: Sequence[float]) -> tuple[float, float, float]:
    """(min, median, max) of the per-round ratios lib[r] / ref[r]."""
    ratios = sorted(a / b for a, b in zip(lib, ref, strict=True))
    return ratios[0], statistics.median(ratios), ratios[-1]


def _fmt(x: float) -> str:
    return f"{x:.2f}" if x < 10 else f"{x:.1f}" if x < 100 else f"{x:.0f}"


def _cell(spread: tuple[float, float, float]) -> str:
    lo, mid, hi = spread
    return f"{_fmt(mid)} ({_fmt(lo)}–{_fmt(hi)})"


def cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def provenance_text(meta: dict[str, Any]) -> str:
    return (
        f"Measured on {meta['cpu']} ({meta['cores']} cores, {meta['system']}), Python "
        f"{meta['python']}; {', '.join(meta['versions'])}. Each section below says when it "
        "was measured (a run with `--only` rewrites only its own sections)."
    )


def run_line(meta: dict[str, Any]) -> str:
    """The first line of each section's block: which run wrote it."""
    quick = ", `--quick`" if meta["quick"] else ""
    return f"_Measured {meta['date']}; {meta['jaxdc_source']}{quick}._"


def machine_meta(rounds: int, quick: bool, jaxdc_source: str) -> dict[str, Any]:
    from importlib.metadata import PackageNotFoundError, version

    versions = []
    for name in ("jaxdc", *PEER_VERSIONS):
        try:
            versions.append(f"{name} {version(name)}")
        except PackageNotFoundError:
            pass
    return {
        "date": f"{datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M} UTC",
        "cpu": cpu_model(),
        "cores": os.cpu_count(),
        "system": f"{platform.system()} {platform.machine()}",
        "python": platform.python_version(),
        "versions": versions,
        "jaxdc_source": jaxdc_source,
        "rounds": rounds,
        "quick": quick,
    }


def _ops_table(
    samples: dict[str, dict[str, list[float]]],
    ops: Sequence[tuple[str, str]],
    libs: Sequence[str],
    reference: str,
    targets: Callable[[str, str], float | None] | None = None,
) -> list[str]:
    head = ["op", "shape", f"{reference} (median)"]
    head += [f"**{k}**" if k == "jaxdc" else k for k in libs]
    if targets is not None:
        head.append("jaxdc target")
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for op, label in ops:
        for key, by_lib in samples.items():
            cell_op, shape = key.split("/")
            if cell_op != op or reference not in by_lib:
                continue
            ref = by_lib[reference]
            row = [label, shape, format_ns(statistics.median(ref))]
            for k in libs:
                row.append(_cell(paired(by_lib[k], ref)) if k in by_lib else "–")
            if targets is not None:
                t = targets(op, shape)
                if t is None or "jaxdc" not in by_lib:
                    row.append("–")
                else:
                    ok = paired(by_lib["jaxdc"], ref)[1] <= t
                    row.append(f"≤ {t:.2f} {'✅' if ok else '❌'}")
            lines.append("| " + " | ".join(row) + " |")
    return lines


def format_ns(ns: float) -> str:
    """A time in nanoseconds with the unit that keeps it short (also run.py's reports)."""
    if ns < 1e3:
        return f"{ns:.0f} ns"
    if ns < 1e6:
        return f"{ns / 1e3:.3g} µs"
    return f"{ns / 1e6:.3g} ms"


# ---------------------------------------------------------------------------------------
# Plots
# ---------------------------------------------------------------------------------------


def _plt() -> Any:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    plt.rcParams.update({"font.size": 8, "svg.hashsalt": "jaxdc"})
    return plt


def _plain_log_ticks(axis: Any) -> None:
    """Log-scale ticks at 1, 2 and 5 of each decade, written as plain numbers (0.5, 2, 10)."""
    from matplotlib.ticker import FuncFormatter, LogLocator, NullFormatter

    axis.set_major_locator(LogLocator(base=10, subs=(1.0, 2.0, 5.0)))
    axis.set_major_formatter(FuncFormatter(lambda value, _: f"{value:g}"))
    axis.set_minor_formatter(NullFormatter())


def _save(fig: Any, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=110, bbox_inches="tight", metadata={"Software": None})
    import matplotlib.pyplot as plt

    plt.close(fig)


def plot_jaxdc(
    samples: dict, ops: Sequence[tuple[str, str]], targets: Callable, path: Path
) -> None:
    """One row per (op, shape): jaxdc's median ratio, its min–max, and the target."""
    plt = _plt()
    rows = []
    for op, label in ops:
        for key, by_lib in samples.items():
            if key.split("/")[0] == op and "jaxdc" in by_lib:
                spread = paired(by_lib["jaxdc"], by_lib["register_dataclass"])
                shape = key.split("/")[1]
                rows.append((f"{label} · {shape}", spread, targets(op, shape)))
    fig, ax = plt.subplots(figsize=(6.5, 0.22 * len(rows) + 1))
    for i, (_, (lo, mid, hi), target) in enumerate(rows):
        colour = "tab:grey" if target is None else "tab:green" if mid <= target else "tab:red"
        ax.plot([lo, hi], [i, i], color=colour, lw=2, alpha=0.5)
        ax.plot([mid], [i], "o", color=colour, ms=4)
        if target is not None:
            ax.plot([target], [i], "|", color="black", ms=8)
    ax.axvline(1.0, color="grey", lw=0.8, ls="--")
    ax.set_yticks(range(len(rows)), [r[0] for r in rows])
    ax.invert_yaxis()
    ax.set_xscale("log")
    _plain_log_ticks(ax.xaxis)
    ax.set_xlabel(
        "× register_dataclass (median of paired rounds, bar = min–max; | = target: "
        "green met, red missed, grey none)"
    )
    ax.set_title("jaxdc, ratio to jax.tree_util.register_dataclass (lower is faster)")
    _save(fig, path)


def plot_peers(samples: dict, ops: Sequence[tuple[str, str]], path: Path) -> None:
    """One panel per operation; per shape, each peer's median ratio with its min–max."""
    plt = _plt()
    shapes = ["small", "wide", "nested"]
    panels = [(op, label) for op, label in ops if any(k.startswith(op + "/") for k in samples)]
    cols = 2
    rows = -(-len(panels) // cols)
    fig, axes = plt.subplots(rows, cols, figsize=(10, 2.3 * rows), squeeze=False)
    peers = [
        p
        for p in PLOTTED_PEERS
        if any(p in by for k, by in samples.items() if k.split("/")[0] in dict(panels))
    ]
    width = 0.8 / max(1, len(peers))
    for n, (op, label) in enumerate(panels):
        ax = axes[n // cols][n % cols]
        for j, peer in enumerate(peers):
            xs, mids, los, his = [], [], [], []
            for s, shape in enumerate(shapes):
                by = samples.get(f"{op}/{shape}", {})
                if peer in by:
                    lo, mid, hi = paired(by[peer], by["register_dataclass"])
                    xs.append(s - 0.4 + width * (j + 0.5))
                    mids.append(mid)
                    los.append(mid - lo)
                    his.append(hi - mid)
            ax.errorbar(
                xs, mids, yerr=[los, his], fmt="o", ms=3, capsize=2, label=peer, color=f"C{j}"
            )
        ax.axhline(1.0, color="grey", lw=0.8, ls="--")
        ax.set_yscale("log")
        _plain_log_ticks(ax.yaxis)
        ax.set_xticks(range(len(shapes)), shapes)
        ax.set_title(label)
    for n in range(len(panels), rows * cols):
        axes[n // cols][n % cols].axis("off")
    handles, labels = axes[0][0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="lower center", ncol=len(peers), bbox_to_anchor=(0.5, -0.02))
    fig.suptitle("× register_dataclass per operation (dot: median of paired rounds; bar: min–max)")
    fig.tight_layout(rect=(0, 0.03, 1, 0.97))
    _save(fig, path)


def plot_floor(samples: dict, path: Path, libs: Sequence[str]) -> None:
    plt = _plt()
    keys = list(samples)
    fig, ax = plt.subplots(figsize=(7, 0.25 * len(keys) * len(libs) / 2 + 1.2))
    y = 0.0
    ticks = []
    labelled: set[str] = set()
    for key in keys:
        by = samples[key]
        first = True
        for j, lib in enumerate(libs):
            if lib not in by:
                continue
            lo, mid, hi = paired(by[lib], by["register_dataclass"])
            ax.plot([lo, hi], [y, y], color=f"C{j}", lw=2, alpha=0.5)
            label = None if lib in labelled else lib
            labelled.add(lib)
            ax.plot([mid], [y], "o", color=f"C{j}", ms=4, label=label)
            if first:
                ticks.append((y, key.replace("/", " · ")))
                first = False
            y += 1
        y += 0.5
    ax.axvline(1.0, color="grey", lw=0.8, ls="--")
    ax.set_xscale("log")
    _plain_log_ticks(ax.xaxis)
    ax.set_yticks([t for t, _ in ticks], [label for _, label in ticks])
    ax.invert_yaxis()
    ax.set_xlabel("× register_dataclass (median of paired rounds, bar = min–max)")
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.04), ncol=2)
    ax.set_title("jaxdc against the cheapest custom nodes (floor.py)")
    _save(fig, path)


def plot_imports(imports: dict, path: Path) -> None:
    plt = _plt()
    ok = {k: v for k, v in imports.items() if not v.get("error")}
    order = sorted(ok, key=lambda k: statistics.median(ok[k]["cpu_ms"]))
    fig, ax = plt.subplots(figsize=(6, 0.35 * len(order) + 1))
    for i, lib in enumerate(order):
        ms = ok[lib]["cpu_ms"]
        colour = "tab:blue" if lib == "jaxdc" else "tab:grey"
        ax.barh(i, statistics.median(ms), color=colour, alpha=0.7)
        ax.plot([min(ms), max(ms)], [i, i], color="black", lw=1)
    ax.set_yticks(range(len(order)), order)
    ax.invert_yaxis()
    ax.set_xlabel("CPU ms of `import <library>` after `import jax` (median; line = min–max)")
    _save(fig, path)


def plot_plugin(plugin: dict, path: Path) -> None:
    plt = _plt()
    sizes = sorted(int(s) for s in plugin)
    fig, ax = plt.subplots(figsize=(6, 3))
    for _j, kind in enumerate(("cold", "project-cold", "warm")):
        mids, los, his = [], [], []
        for size in sizes:
            runs = plugin[str(size)][kind]
            lo, mid, hi = paired([c for c, _ in runs["plugin"]], [c for c, _ in runs["plain"]])
            mids.append(mid)
            los.append(mid - lo)
            his.append(hi - mid)
        ax.errorbar(sizes, mids, yerr=[los, his], fmt="o-", ms=3, capsize=2, label=kind)
    ax.axhline(1.0, color="grey", lw=0.8, ls="--")
    ax.set_xscale("log")
    ax.set_xticks(sizes, [str(s) for s in sizes])
    ax.set_xlabel("jaxdc classes in the project (10 per module)")
    ax.set_ylabel("mypy + plugin / plain mypy (CPU)")
    ax.legend()
    ax.set_title("What the jaxdc_mypy plugin adds to a mypy run")
    _save(fig, path)


# ---------------------------------------------------------------------------------------
# The page
# ---------------------------------------------------------------------------------------


def _plugin_table(plugin: dict) -> list[str]:
    lines = [
        "| classes | run | plain mypy (median CPU) | plugin / plain | peak memory plugin / plain |",
        "|---|---|---|---|---|",
    ]
    for size in sorted(plugin, key=int):
        for kind in ("cold", "project-cold", "warm"):
            runs = plugin[size][kind]
            cpu = paired([c for c, _ in runs["plugin"]], [c for c, _ in runs["plain"]])
            rss = paired([m for _, m in runs["plugin"]], [m for _, m in runs["plain"]])
            plain = statistics.median(c for c, _ in runs["plain"])
            lines.append(f"| {size} | {kind} | {plain:.2f} s | {_cell(cpu)} | {_cell(rss)} |")
    return lines


def _verdicts(
    floor: dict[str, dict[str, list[float]]],
    ops: Sequence[tuple[str, str]],
    targets: Callable[[str, str], float | None],
    floor_ops: dict[str, Sequence[str]],
) -> list[str]:
    """Each jaxdc target measured in the floor run: met, at the floor (within 5% of the
    cheapest of `floor_ops`, the custom nodes whose instances hold what jaxdc's hold), or
    above it."""
    lines = [
        "| target | jaxdc | cheapest floor holding what jaxdc holds | verdict |",
        "|---|---|---|---|",
    ]
    labels = dict(ops)
    order = [op for op, _ in ops]
    shapes = ["small", "wide", "nested"]

    def position(key: str) -> tuple[int, int]:
        op, shape = key.split("/")
        return (order.index(op) if op in order else 99, shapes.index(shape))

    for key in sorted(floor, key=position):
        by = floor[key]
        op, shape = key.split("/")
        target = targets(op, shape)
        if target is None or "jaxdc" not in by:
            continue
        ref = by["register_dataclass"]
        mine = paired(by["jaxdc"], ref)[1]
        floors = {
            name: paired(by[name], ref)[1]
            for name, bounded in floor_ops.items()
            if op in bounded and name in by
        }
        best = min(floors, key=floors.__getitem__) if floors else None
        if mine <= target:
            verdict = "met"
        elif best is not None and mine <= floors[best] * 1.05:
            verdict = "**at the floor**: out of reach for a custom node"
        elif best is not None:
            verdict = f"{_fmt(mine / floors[best])}× the floor"
        else:
            verdict = "missed"
        floor_cell = f"{_fmt(floors[best])} ({best.removeprefix('floor: ')})" if best else "–"
        lines.append(
            f"| {labels.get(op, op)} · {shape} ≤ {target:.2f} | {_fmt(mine)} | {floor_cell} "
            f"| {verdict} |"
        )
    return lines


def _imports_table(imports: dict) -> list[str]:
    """CPU time ranks and compares (steady on a shared machine); wall time is shown too."""
    lines = [
        "| library | `import` after `import jax`: CPU median (min–max) | × `import jaxdc` "
        "| wall median | heavy packages it pulls in |",
        "|---|---|---|---|---|",
    ]
    ok = {k: v for k, v in imports.items() if not v.get("error")}
    base = statistics.median(ok["jaxdc"]["cpu_ms"]) if "jaxdc" in ok else None
    for lib in sorted(ok, key=lambda k: statistics.median(ok[k]["cpu_ms"])):
        cpu = ok[lib]["cpu_ms"]
        mid = statistics.median(cpu)
        rel = _fmt(mid / base) if base else "–"
        name = f"**{lib}**" if lib == "jaxdc" else lib
        lines.append(
            f"| {name} | {mid:.1f} ms ({min(cpu):.1f}–{max(cpu):.1f}) | {rel} | "
            f"{statistics.median(ok[lib]['wall_ms']):.1f} ms | "
            f"{', '.join(ok[lib]['heavy']) or '–'} |"
        )
    lines += [
        f"| {k} | – ({v['error']}) | – | – | – |" for k, v in imports.items() if v.get("error")
    ]
    return lines


def _shapes_table(shapes: dict, target: float) -> list[str]:
    lines = [
        "| row | checks off (median) | checks on / off | target |",
        "|---|---|---|---|",
    ]
    for row, by in shapes.items():
        on_off = paired(by["checks on"], by["checks off"])
        t = (
            f"≤ {target:.2f} {'✅' if on_off[1] <= target else '❌'}"
            if row == "construction"
            else "–"
        )
        lines.append(
            f"| {row} | {format_ns(statistics.median(by['checks off']))} | {_cell(on_off)} | {t} |"
        )
    return lines


def write(
    raw: dict[str, Any],
    page: Path,
    ops: Sequence[tuple[str, str]],
    targets: Callable[[str, str], float | None],
    shapes_target: float,
    floor_libs: Sequence[str],
    floor_ops: dict[str, Sequence[str]] | None = None,
) -> list[Path]:
    """Write the plots of the sections in `raw` and rewrite their blocks of `page` (created
    from the template if missing). Returns the files written. `floor_ops`: the floors the
    verdicts compare jaxdc with, each with the operations it bounds."""
    if not page.exists():
        page.parent.mkdir(parents=True, exist_ok=True)
        page.write_text(_empty_page())
    img = page.parent / IMG
    written = [page]
    text = page.read_text()
    sections: dict[str, list[str]] = {"provenance": [provenance_text(raw["meta"])]}
    ratio_note = (
        f"Cells: median ratio to the reference over {raw['meta']['rounds']} interleaved "
        "rounds (min–max of the per-round ratios); the reference column is its absolute "
        "median time."
    )
    if "micro" in raw:
        libs = [k for k in (*PLOTTED_PEERS, "ojax", "tjax", "tuple") if _has(raw["micro"], k)]
        sections["runtime"] = [
            ratio_note,
            "",
            *_ops_table(raw["micro"], ops, libs, "register_dataclass", targets),
        ]
        plot_jaxdc(raw["micro"], ops, targets, img / "runtime-jaxdc.png")
        plot_peers(raw["micro"], ops, img / "runtime-peers.png")
        written += [img / "runtime-jaxdc.png", img / "runtime-peers.png"]
    if "floor" in raw:
        floor_ops = floor_ops or {}
        libs = [k for k in floor_libs if _has(raw["floor"], k)]
        sections["floor"] = [
            ratio_note,
            "",
            *_ops_table(raw["floor"], ops, libs, "register_dataclass"),
            "",
            "jaxdc's targets against these floors (medians):",
            "",
            *_verdicts(raw["floor"], ops, targets, floor_ops),
        ]
        plot_floor(raw["floor"], img / "floor.png", libs)
        written.append(img / "floor.png")
    if "shapes" in raw:
        sections["shapes"] = [
            "A 4-field jaxtyping-annotated class with `check_shapes=True` against the same "
            "class without (`benchmarks/shapes.py`), side by side in one run.",
            "",
            *_shapes_table(raw["shapes"], shapes_target),
        ]
    if "imports" in raw:
        sections["imports"] = [
            "`import <library>` in a fresh subprocess that has imported jax, warm bytecode, "
            "rounds interleaved (`benchmarks/imports.py`). Ranked and compared by the CPU "
            "time of the importing thread, which other work on a shared machine does not "
            "inflate as it does wall time.",
            "",
            *_imports_table(raw["imports"]),
        ]
        plot_imports(raw["imports"], img / "imports.png")
        written.append(img / "imports.png")
    if "plugin" in raw:
        sizes = ", ".join(sorted(raw["plugin"], key=int))
        sections["plugin"] = [
            f"Generated projects of {sizes} jaxdc classes (`benchmarks/mypy_plugin_bench.py`); "
            f"mypy with and without the plugin interleaved, {raw['plugin_rounds']} rounds; "
            "CPU time of the mypy process. cold: no cache; project-cold: dependencies cached, "
            "the project not; warm: nothing changed."
            + (
                " `make bench` runs a reduced list of sizes to stay within its time budget; "
                "`benchmarks/run.py --page docs/benchmarks.md --plugin-sizes full` runs all."
                if raw.get("plugin_reduced")
                else ""
            ),
            "",
            *_plugin_table(raw["plugin"]),
        ]
        plot_plugin(raw["plugin"], img / "plugin.png")
        written.append(img / "plugin.png")
    for section, lines in sections.items():
        if section != "provenance":
            lines = [run_line(raw["meta"]), "", *lines]
        text = docblocks.render_block(text, _block_name(section), "\n".join(lines))
    page.write_text(text)
    return written


def _has(samples: dict, lib: str) -> bool:
    return any(lib in by for by in samples.values())
