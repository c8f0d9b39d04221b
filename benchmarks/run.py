"""Run every jaxdc benchmark in one process and print one markdown report.

    python benchmarks/run.py            # full run (a few minutes)
    python benchmarks/run.py --quick    # ~1 minute, fewer rounds
    python benchmarks/run.py --only micro,nested   # sections: micro, imports, nested
    python benchmarks/run.py --head     # measure committed jaxdc, ignore the working tree
    python benchmarks/run.py --rev=abc123   # same for a given commit
    python benchmarks/run.py --page docs/benchmarks.md --only micro,floor,plugin
                                        # also rewrite the page's blocks and plots (`make bench`
                                        # runs every section: see the Makefile)

The report goes to stdout and to benchmarks/results-<python>.md (raw samples in
results-<python>.json). See benchmarks/README.md for the method.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import statistics
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import floor  # noqa: E402
import imports  # noqa: E402
import jax  # noqa: E402
import micro  # noqa: E402
import mypy_plugin_bench  # noqa: E402
import nested_update  # noqa: E402
import page  # noqa: E402
from harness import ratio, run_interleaved  # noqa: E402
from peers import REFERENCE, SHAPES, all_peers  # noqa: E402

IMPORT_TARGET_MS = 15.0
# `check_shapes=True` construction against the same class without (issue 19)
SHAPES_CONSTRUCTION_TARGET = 1.5


def _jaxdc_source() -> str:
    """Which jaxdc was measured: its folder, and the git commit if it is this checkout's."""
    import subprocess

    try:
        import jaxdc
    except Exception as e:
        return f"jaxdc not importable ({type(e).__name__})"
    src = Path(jaxdc.__file__).resolve().parent
    note = os.environ.get("JAXDC_SOURCE_NOTE", "")
    try:
        root = subprocess.run(
            ["git", "-C", str(src), "rev-parse", "--show-toplevel"],
            capture_output=True,
            text=True,
            timeout=10,
        ).stdout.strip()
        if root:
            head = subprocess.run(
                ["git", "-C", root, "rev-parse", "--short", "HEAD"],
                capture_output=True,
                text=True,
                timeout=10,
            ).stdout.strip()
            dirty = subprocess.run(
                ["git", "-C", root, "status", "--porcelain", "--", str(src)],
                capture_output=True,
                text=True,
                timeout=10,
            ).stdout.strip()
            note = note or f"commit {head}" + (" + uncommitted changes" if dirty else "")
    except Exception:
        pass
    return f"jaxdc from `{src}`" + (f" ({note})" if note else "")


def _fmt_ratio(x: float) -> str:
    return f"{x:.2f}" if x < 10 else f"{x:.1f}" if x < 100 else f"{x:.0f}"


def _progress(msg: str) -> None:
    print(f"  .. {msg}", file=sys.stderr, flush=True)


def micro_section(peers, args) -> tuple[list[str], dict, list[str]]:
    jobs, skipped = micro.all_jobs(peers)
    _progress(f"micro: {len(jobs)} timings, {args.rounds} rounds of ~{args.sample_ms} ms samples")
    run_interleaved(jobs, args.rounds, args.sample_ms, progress=_progress if args.verbose else None)
    by = {(j.cell, j.lib): j for j in jobs}
    libs = [p.key for p in peers if p.key not in skipped]
    others = [k for k in libs if k not in (REFERENCE, "jaxdc")]
    has_jaxdc = "jaxdc" in libs
    head = ["op", "shape", f"{REFERENCE} (abs)"]
    if has_jaxdc:
        head += ["**jaxdc**", "target"]
    head += others
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    misses: list[str] = []
    raw: dict = {}
    for op, label in micro.OPS:
        for shape in SHAPES:
            ref = by[((shape, op), REFERENCE)]
            ref_med = statistics.median(ref.samples)
            abs_s = page.format_ns(ref_med) + ("/read" if op.startswith("attr") else "")
            row = [label, shape, abs_s]
            raw[f"{op}/{shape}"] = {k: by[((shape, op), k)].samples for k in libs}
            if has_jaxdc:
                r = ratio(by[((shape, op), "jaxdc")].samples, ref.samples)
                target = micro.target(op, shape)
                mark = ""
                if target is not None:
                    ok = r.ratio <= target
                    mark = " ✅" if ok else " ❌"
                    if not ok:
                        misses.append(
                            f"{label} / {shape}: {r.ratio:.3f} (target ≤ {target:.2f}, "
                            f"paired IQR {r.q1:.2f}–{r.q3:.2f})"
                        )
                row += [
                    f"**{_fmt_ratio(r.ratio)}** ±{r.spread:.2f}{mark}",
                    f"≤ {target:.2f}" if target is not None else "–",
                ]
            for k in others:
                row.append(_fmt_ratio(ratio(by[((shape, op), k)].samples, ref.samples).ratio))
            lines.append("| " + " | ".join(row) + " |")
    notes = [f"- `{k}` skipped: {why}" for k, why in skipped.items()]
    return lines, {"micro": raw}, misses + notes


def imports_section(peers, args) -> tuple[list[str], dict, list[str]]:
    libs = {
        p.key: p.import_stmt for p in peers if p.import_stmt and not (p.error and p.key != "jaxdc")
    }
    _progress(f"imports: {len(libs)} libraries x {args.import_rounds} rounds (subprocesses)")
    res = imports.measure(libs, args.import_rounds)
    lines = [
        "| library | `import` on top of `import jax` (best of "
        f"{args.import_rounds}, wall) | CPU | heavy packages it pulls in |",
        "|---|---|---|---|",
    ]
    misses: list[str] = []
    for r in sorted(res, key=lambda r: min(r.wall_ms) if r.wall_ms else 1e9):
        if r.error:
            lines.append(f"| {r.lib} | – ({r.error}) | – | – |")
            continue
        best, cpu = min(r.wall_ms), min(r.cpu_ms)
        mark = ""
        if r.lib == "jaxdc":
            ok = best < IMPORT_TARGET_MS
            mark = f" {'✅' if ok else '❌'} (target < {IMPORT_TARGET_MS:.0f} ms)"
            if not ok:
                misses.append(f"import jaxdc: {best:.1f} ms (target < {IMPORT_TARGET_MS:.0f} ms)")
        name = f"**{r.lib}**" if r.lib == "jaxdc" else r.lib
        lines.append(
            f"| {name} | {best:.1f} ms{mark} | {cpu:.1f} ms | {', '.join(r.heavy) or '–'} |"
        )
    return (
        lines,
        {
            "imports": {
                r.lib: {
                    "wall_ms": r.wall_ms,
                    "cpu_ms": r.cpu_ms,
                    "heavy": r.heavy,
                    "error": r.error,
                }
                for r in res
            }
        },
        misses,
    )


def nested_section(peers, args) -> tuple[list[str], dict, list[str]]:
    jobs, skipped = nested_update.jobs({p.key: p for p in peers})
    _progress(f"nested update: {len(jobs)} timings x {args.rounds} rounds")
    run_interleaved(jobs, args.rounds, args.sample_ms)
    upd = [j for j in jobs if j.cell == ("nested_update",)]
    reads = {j.lib: j for j in jobs if j.cell == ("nested_update_reads",)}
    ref = next(j for j in upd if j.lib == nested_update.REFERENCE)
    ref_reads = reads[nested_update.REFERENCE]
    lines = [
        "| update `o.a.b.c.x` in the 40-node tree | median | × chained `dataclasses.replace` "
        "| attribute read on the result (× reads on the chained-replace result) |",
        "|---|---|---|---|",
    ]
    misses: list[str] = []
    for j in upd:
        r = ratio(j.samples, ref.samples)
        rr = ratio(reads[j.lib].samples, ref_reads.samples)
        mark = ""
        if j.lib == nested_update.TARGET[0]:
            ok = r.ratio <= nested_update.TARGET[1]
            mark = f" {'✅' if ok else '❌'} (target ≤ {nested_update.TARGET[1]:.0f})"
            if not ok:
                misses.append(f"{j.lib}: {r.ratio:.2f}× chained replace (target ≤ 2)")
        if "jaxdc" in j.lib and rr.ratio > micro.target("attr", "nested"):
            misses.append(
                f"attribute reads on the result of {j.lib}: {rr.ratio:.2f}× "
                f"(target ≤ {micro.target('attr', 'nested'):.2f})"
            )
        name = f"**{j.lib}**" if "jaxdc" in j.lib else j.lib
        per_read = page.format_ns(statistics.median(reads[j.lib].samples))
        lines.append(
            f"| {name} | {page.format_ns(statistics.median(j.samples))} | "
            f"{_fmt_ratio(r.ratio)} ±{r.spread:.2f}{mark} | "
            f"{_fmt_ratio(rr.ratio)} ({per_read}/read) |"
        )
    notes = [f"- `{k}` skipped: {why}" for k, why in skipped.items()]
    raw = {
        "nested_update": {j.lib: j.samples for j in upd},
        "nested_update_reads": {k: j.samples for k, j in reads.items()},
    }
    return lines, raw, misses + notes


def floor_section(peers, args) -> dict:
    """register_dataclass, jaxdc and NamedTuple next to the cheapest custom nodes."""
    keep = {REFERENCE, "jaxdc", "NamedTuple"}
    jobs, _ = micro.all_jobs([p for p in peers if p.key in keep], ops=floor.OPS)
    for peer in floor.floor_peers():
        jobs += micro.all_jobs([peer], ops=floor.FLOOR_OPS[peer.key])[0]
    _progress(f"floor: {len(jobs)} timings x {args.rounds} rounds")
    run_interleaved(jobs, args.rounds, args.sample_ms)
    raw: dict = {}
    for j in jobs:
        raw.setdefault(f"{j.cell[1]}/{j.cell[0]}", {})[j.lib] = j.samples
    return {"floor": raw}


def shapes_section(args) -> dict:
    import shapes

    jobs = shapes.jobs()
    _progress(f"check_shapes: {len(jobs)} timings x {args.rounds} rounds")
    run_interleaved(jobs, args.rounds, args.sample_ms)
    raw: dict = {}
    for j in jobs:
        if j.lib != shapes.JAXTYPED:
            raw.setdefault(j.cell[0], {})[j.lib] = j.samples
    return {"shapes": raw}


def plugin_section(args) -> dict:
    if args.plugin_sizes == "reduced":
        sizes = mypy_plugin_bench.REDUCED_SIZES
    elif args.plugin_sizes == "full":
        sizes = mypy_plugin_bench.FULL_SIZES
    else:
        sizes = tuple(int(s) for s in args.plugin_sizes.split(","))
    samples = mypy_plugin_bench.scale(sizes, args.plugin_rounds, progress=_progress)
    return {
        "plugin": {str(size): s for size, s in samples.items()},
        "plugin_rounds": args.plugin_rounds,
        "plugin_reduced": sizes != mypy_plugin_bench.FULL_SIZES,
    }


def _reexec_on_rev(rev: str) -> None:
    """Measure a committed jaxdc, not the working tree: `git archive <rev> runtime` into a
    temporary folder, put it first on PYTHONPATH (subprocesses inherit it) and re-run."""
    import subprocess
    import tempfile

    root = HERE.parent
    commit = subprocess.run(
        ["git", "-C", str(root), "rev-parse", "--short", rev],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    tmp = tempfile.mkdtemp(prefix=f"jaxdc-{commit}-")
    archive = subprocess.run(
        ["git", "-C", str(root), "archive", commit, "runtime"], capture_output=True, check=True
    ).stdout
    subprocess.run(["tar", "-x", "-C", tmp], input=archive, check=True)
    env = dict(os.environ, JAXDC_SOURCE_NOTE=f"commit {commit}, working tree ignored")
    env["PYTHONPATH"] = os.pathsep.join([str(Path(tmp) / "runtime"), env.get("PYTHONPATH", "")])
    argv = [a for a in sys.argv[1:] if a != "--head" and not a.startswith("--rev")]
    os.execve(sys.executable, [sys.executable, str(Path(__file__).resolve()), *argv], env)


def main() -> int:
    for a in sys.argv[1:]:
        if a == "--head" or a.startswith("--rev="):
            _reexec_on_rev("HEAD" if a == "--head" else a.split("=", 1)[1])
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--quick", action="store_true", help="fewer rounds, ~1 minute")
    ap.add_argument(
        "--only",
        default="micro,imports,nested",
        help="comma-separated sections: micro, nested, imports, floor, shapes, plugin",
    )
    ap.add_argument(
        "--page",
        help="also rewrite this page's generated blocks and its plots (docs/benchmarks.md)",
    )
    ap.add_argument(
        "--plugin-sizes",
        default="reduced",
        help="plugin section: project sizes in jaxdc classes, 'reduced' "
        f"{mypy_plugin_bench.REDUCED_SIZES}, 'full' {mypy_plugin_bench.FULL_SIZES} or a list",
    )
    ap.add_argument("--plugin-rounds", type=int, help="plugin rounds per size (default 3, quick 1)")
    ap.add_argument("--rounds", type=int, help="interleaved rounds (default 31, quick 11)")
    ap.add_argument("--sample-ms", type=float, help="target CPU ms per sample (default 4, quick 2)")
    ap.add_argument(
        "--import-rounds", type=int, help="subprocesses per library (default 7, quick 3)"
    )
    ap.add_argument("--out", help="markdown output path (default benchmarks/results-<python>.md)")
    ap.add_argument("--verbose", action="store_true")
    ap.add_argument(
        "--head",
        action="store_true",
        help="measure the committed jaxdc (git archive HEAD), not the working tree",
    )
    ap.add_argument(
        "--rev",
        metavar="REV",
        help="like --head, for another commit (--rev=REV), e.g. to run two Pythons on one commit",
    )
    args = ap.parse_args()
    args.rounds = args.rounds or (11 if args.quick else 31)
    args.sample_ms = args.sample_ms or (2.0 if args.quick else 4.0)
    args.import_rounds = args.import_rounds or (3 if args.quick else 7)
    args.plugin_rounds = args.plugin_rounds or (1 if args.quick else 3)
    sections = args.only.split(",")

    pyver = f"{sys.version_info.major}.{sys.version_info.minor}"
    t0 = time.perf_counter()
    peers = all_peers()
    versions = []
    for mod in ("jaxdc", "flax", "jax_dataclasses", "equinox", "chex", "tjax", "ojax"):
        try:
            from importlib.metadata import version

            versions.append(f"{mod} {version(mod)}")
        except Exception:
            pass
    out = [
        f"### Python {platform.python_version()} · jax {jax.__version__} · "
        f"{datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M} UTC"
        f"{' · --quick' if args.quick else ''}",
        "",
        f"{platform.machine()}, {os.cpu_count()} CPUs, {', '.join(versions)}; {_jaxdc_source()}.",
        "",
    ]
    raw: dict = {"python": platform.python_version(), "jax": jax.__version__, "quick": args.quick}
    all_misses: list[str] = []
    if "micro" in sections:
        lines, data, notes = micro_section(peers, args)
        raw.update(data)
        out += [
            "Ratios to `jax.tree_util.register_dataclass` (= 1.00, lower is faster): thread CPU "
            f"time, median of {args.rounds} interleaved rounds; `±` is half the interquartile "
            "range of the per-round paired ratios. The reference column gives its absolute "
            "median time (attribute reads: per single attribute lookup).",
            "",
        ]
        out += [*lines, ""]
        all_misses += [n for n in notes if not n.startswith("- ")]
        out += [n for n in notes if n.startswith("- ")]
        out += [""]
    if "nested" in sections:
        lines, data, notes = nested_section(peers, args)
        raw.update(data)
        out += ["Nested update (one deep leaf of the 40-node tree):", "", *lines, ""]
        all_misses += [n for n in notes if not n.startswith("- ")]
        out += [*(n for n in notes if n.startswith("- ")), ""]
    if "imports" in sections:
        lines, data, notes = imports_section(peers, args)
        raw.update(data)
        out += ["Import cost on top of `import jax` (fresh subprocess per measurement):", ""]
        out += [*lines, ""]
        all_misses += notes
    if "floor" in sections:
        raw.update(floor_section(peers, args))
    if "shapes" in sections:
        raw.update(shapes_section(args))
    if "plugin" in sections:
        raw.update(plugin_section(args))
    notes_peers = [f"- {p.key}: {p.note}" for p in peers if p.note and not p.error]
    out += ["<details><summary>How each library is spelled</summary>", "", *notes_peers]
    out += ["", "</details>", ""]
    if any(p.key == "jaxdc" and not p.error for p in peers):
        out += ["**jaxdc misses:** " + ("none" if not all_misses else ""), ""]
        out += [f"- {m}" for m in all_misses] + ([""] if all_misses else [])
    out.append(f"_total run time {time.perf_counter() - t0:.0f} s_")
    text = "\n".join(out) + "\n"
    print(text)
    md = Path(args.out) if args.out else HERE / f"results-{pyver}.md"
    md.write_text(text)
    md.with_suffix(".json").write_text(json.dumps(raw, indent=1, default=str))
    print(f"(written to {md})", file=sys.stderr)
    if args.page:
        raw["meta"] = page.machine_meta(args.rounds, args.quick, _jaxdc_source())
        written = page.write(
            raw,
            Path(args.page),
            micro.OPS,
            micro.target,
            SHAPES_CONSTRUCTION_TARGET,
            ("jaxdc", *floor.FLOOR_OPS, "NamedTuple"),
            floor.VERDICT_FLOORS,
        )
        print(f"(page: {', '.join(str(p) for p in written)})", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
