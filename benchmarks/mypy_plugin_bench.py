"""How much the jaxdc_mypy plugin adds to a mypy run.

Generates a project (default 60 modules x 10 jaxdc classes, every spelling: both decorator
forms, PyTreeNode subclasses, generics, Static/field(static=True), cross-module references,
replace and jit calls) and times mypy on it without and with the plugin, interleaved in
one run so machine noise hits both alike:

- cold: no cache at all (jax, numpy and the project are analysed from scratch);
- project-cold: third-party modules cached, the project not (a fresh checkout);
- warm: everything cached, nothing changed (the common re-run); a tenth of a second, so
  each round runs it WARM_REPEATS times per variant (noise is as large as the plugin's share).

Time is the mypy process's CPU time (user + sys; steadier than wall time on a shared
machine); memory its peak resident set size. Prints the median of each, the plugin/plain
ratio of the medians, and the quartiles of the ratios run by run (plugin run over the plain
run beside it), which show how far the machine's noise reaches. Issue 19's targets are
<= 1.05 cold, <= 1.10 project-cold, <= 1.03 warm. The measured ratios are in
docs/benchmarks.md (and, for real code, `mypy_plugin_real.py`). `--large` is the scale
check of issue 11: 200 modules x 10 classes (2,000 jaxdc classes); its last results are
in results-mypy-plugin.md (`--write`).

    .venv/bin/python benchmarks/mypy_plugin_bench.py [--modules 60] [--classes 10] [--rounds 3]
    .venv/bin/python benchmarks/mypy_plugin_bench.py --large --write

The cost against project size on docs/benchmarks.md comes from `scale()`, which `make bench`
runs for REDUCED_SIZES (`benchmarks/run.py --only plugin --plugin-sizes full|100,500,...`
picks other sizes).
"""

from __future__ import annotations

import argparse
import compileall
import json
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import harness

RESULTS = Path(__file__).resolve().parent / "results-mypy-plugin.md"

# Runs mypy in this child process and reports its own CPU time and peak memory, which is
# what one mypy run costs (mypy.api.run is what the `mypy` command does, without exiting).
_MEASURE = """
import json, resource, sys
from mypy import api
stdout, stderr, status = api.run(sys.argv[1:])
usage = resource.getrusage(resource.RUSAGE_SELF)
print(json.dumps({"status": status, "out": stdout + stderr,
                  "cpu": usage.ru_utime + usage.ru_stime, "rss_mib": usage.ru_maxrss / 1024}))
"""

PLAIN = "[tool.mypy]\n"
PLUGIN = '[tool.mypy]\nplugins = ["jaxdc_mypy"]\n'

HEADER = """\
from __future__ import annotations

import dataclasses
from typing import Generic, Optional, TypeVar

from typing_extensions import TypeAlias

import jax
import jax.numpy as jnp

import jaxdc
from jaxdc import PyTreeNode, Static, field, pytree_dataclass, static_field
{import_prev}

T = TypeVar("T")
P{i} = jaxdc.Static[T]
Name{i}: TypeAlias = Static[str]


@dataclasses.dataclass(frozen=True)
class Config{i}:
    depth: int
    names: tuple[str, ...]
"""

# Cycled through to make `classes` jaxdc classes per module; {n} makes names unique.
TEMPLATES = [
    """
@pytree_dataclass
class Layer{n}:
    w: jax.Array
    b: Optional[jax.Array]
    cfg: Static[Config{i}]
    act: Static[str] = "relu"
""",
    """
@pytree_dataclass(kw_only=True)
class Block{n}:
    layers: tuple[jax.Array, ...]
    scale: float
    n: int = field(static=True, default=1)
    tag: str = static_field(default="block")
""",
    """
class Node{n}(PyTreeNode):
    weights: dict[str, jax.Array]
    prev: Optional[{prev_node}]
    label: Static[str] = "x"
""",
    """
class Box{n}(PyTreeNode, Generic[T]):
    value: T
    key: Static[int] = 0
""",
    """
class ArrayBox{n}(Box{generic_base}[jax.Array]):
    extra: list[jax.Array] = field(default_factory=list)
""",
    """
@pytree_dataclass
class Spelled{n}:
    w: jax.Array
    a: Optional[Static[int]] = None
    b: Name{i} = "b"
    c: P{i}[str] = "c"
    d: str = dataclasses.field(default="d", metadata={{"static": True}})
""",
]

FOOTER = """

def step{i}(node: {last_node}, lr: float) -> {last_node}:
    return jaxdc.replace(node, label="y")


@jaxdc.jit
def apply{i}(x: jax.Array, depth: Static[int]) -> jax.Array:
    return x * depth
"""


def generate(root: Path, modules: int, classes: int) -> int:
    """Write the project under root/bench_pkg; return the number of jaxdc classes."""
    package = root / "bench_pkg"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text("")
    total = 0
    for i in range(modules):
        import_prev = f"from bench_pkg import mod{i - 1} as prev" if i else ""
        parts = [HEADER.format(i=i, import_prev=import_prev)]
        for k in range(classes):
            n = f"{i}_{k}"
            parts.append(
                TEMPLATES[k % len(TEMPLATES)].format(
                    n=n,
                    i=i,
                    prev_node=f"prev.Node{i - 1}_2" if i else "jax.Array",
                    generic_base=f"{i}_{k - 1}",  # ArrayBox follows its Box
                )
            )
            total += 1
        parts.append(FOOTER.format(i=i, last_node=f"Node{i}_2"))
        (package / f"mod{i}.py").write_text("".join(parts))
    return total


def measure_mypy(
    python: str,
    args: list[str],
    cwd: Path,
    *,
    statuses: tuple[int, ...] = (0,),
    env: dict[str, str] | None = None,
) -> dict[str, Any]:
    """One mypy run in a process of its own, measured by `_MEASURE`: its result (status,
    cpu, rss_mib, out). A failed measurement, or a mypy status outside ``statuses``, stops
    the benchmark with mypy's output."""
    proc = subprocess.run(
        [python, "-c", _MEASURE, *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    if proc.returncode != 0:
        raise SystemExit(f"measuring mypy failed in {cwd}:\n{proc.stdout}{proc.stderr}")
    result: dict[str, Any] = json.loads(proc.stdout)
    if result["status"] not in statuses:
        raise SystemExit(f"mypy failed in {cwd}:\n{result['out']}")
    return result


def run_mypy(project: Path, cache: Path) -> tuple[float, float]:
    """CPU seconds and peak MiB of one mypy run (fails loudly if mypy reports anything)."""
    result = measure_mypy(sys.executable, ["--cache-dir", str(cache), "-p", "bench_pkg"], project)
    return result["cpu"], result["rss_mib"]


Samples = dict[str, dict[str, list[tuple[float, float]]]]


def warm_plugin_bytecode() -> None:
    """Compile the plugin's and the rules' bytecode before timing, as pip does when it
    installs a wheel. On a machine that sets PYTHONDONTWRITEBYTECODE=1 (this one does) an
    editable install would otherwise recompile both packages in every mypy run, about
    70 ms that no installed plugin costs its users."""
    import _jaxdc_rules
    import jaxdc_mypy

    for package in (jaxdc_mypy, _jaxdc_rules):
        compileall.compile_dir(Path(package.__file__).parent, quiet=1)


def third_party_cache(work: Path, variant: str, config: str) -> Path:
    """A mypy cache holding only jax, numpy and jaxdc (``config``'s plugins loaded), for
    project-cold runs: copied fresh before each, it leaves only the project to analyse."""
    prelude = work / f"prelude-{variant}"
    prelude.mkdir()
    (prelude / "pyproject.toml").write_text(config)
    (prelude / "bench_pkg").mkdir()
    (prelude / "bench_pkg" / "__init__.py").write_text("import jax, jax.numpy, jaxdc\n")
    cache = work / f"third-party-{variant}"
    run_mypy(prelude, cache)
    return cache


# Warm runs per variant and round: a warm run is short, and its noise is as large as what
# the plugin adds to it.
WARM_REPEATS = 5


def measure(project: Path, work: Path, rounds: int) -> Samples:
    """Interleave plain and plugin runs: each round runs every (kind, variant), cold and
    project-cold once, warm ``WARM_REPEATS`` times. The i-th plain and plugin runs of a kind
    are a pair, run in the same round."""
    warm_plugin_bytecode()
    samples: Samples = {
        kind: {"plain": [], "plugin": []} for kind in ("cold", "project-cold", "warm")
    }
    third_party = {
        variant: third_party_cache(work, variant, config)
        for variant, config in (("plain", PLAIN), ("plugin", PLUGIN))
    }
    for _ in range(rounds):
        for variant, config in (("plain", PLAIN), ("plugin", PLUGIN)):
            (project / "pyproject.toml").write_text(config)
            cache = work / f"cache-{variant}"
            shutil.rmtree(cache, ignore_errors=True)
            samples["cold"][variant].append(run_mypy(project, cache))
            for _ in range(WARM_REPEATS):
                samples["warm"][variant].append(run_mypy(project, cache))
            shutil.rmtree(cache)
            shutil.copytree(third_party[variant], cache)
            samples["project-cold"][variant].append(run_mypy(project, cache))
    return samples


def report(samples: Samples, modules: int, total: int, rounds: int) -> str:
    import jax
    import mypy.version

    lines = [
        f"mypy + jaxdc_mypy vs plain mypy: {modules} modules, {total} jaxdc classes, median of "
        f"{rounds} interleaved rounds (warm: {WARM_REPEATS} runs a round); CPU seconds and peak "
        f"resident memory of the mypy process (Python {platform.python_version()}, mypy "
        f"{mypy.version.__version__}, jax {jax.__version__}). Time ratio: of the medians; "
        "run by run: the quartiles of the ratios of paired runs.",
        "",
        "| run | plain mypy | with plugin | time ratio | run by run | plain peak | plugin peak "
        "| memory ratio | target |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    # Issue 19's targets (project-cold isolates the plugin's own work: all of it is in the
    # project's modules).
    targets = {"cold": "<= 1.05", "project-cold": "<= 1.10", "warm": "<= 1.03"}
    for kind, by_variant in samples.items():
        cpu = {v: statistics.median(c for c, _ in runs) for v, runs in by_variant.items()}
        rss = {v: statistics.median(m for _, m in runs) for v, runs in by_variant.items()}
        # harness.ratio: the ratio of the medians, and the quartiles of the paired runs'
        time = harness.ratio(
            [c for c, _ in by_variant["plugin"]], [c for c, _ in by_variant["plain"]]
        )
        lines.append(
            f"| {kind} | {cpu['plain']:.2f} s | {cpu['plugin']:.2f} s | {time.ratio:.3f} | "
            f"{time.q1:.3f}–{time.q3:.3f} | {rss['plain']:.0f} MiB | "
            f"{rss['plugin']:.0f} MiB | {rss['plugin'] / rss['plain']:.3f} | {targets[kind]} |"
        )
    return "\n".join(lines) + "\n"


# Project sizes (jaxdc classes, 10 per module) of the scale curve in docs/benchmarks.md.
# `make bench` runs REDUCED_SIZES (within its time budget on 2 cores); --sizes full runs all.
FULL_SIZES = (100, 250, 500, 1000, 2000)
REDUCED_SIZES = (100, 500, 2000)


def scale(sizes: tuple[int, ...], rounds: int, progress=None) -> dict[int, Samples]:
    """`measure` for each project size (jaxdc classes, 10 per module): {size: samples}."""
    out: dict[int, Samples] = {}
    for size in sizes:
        if progress is not None:
            progress(f"mypy plugin: {size} classes x {rounds} rounds")
        with tempfile.TemporaryDirectory(prefix="jaxdc-mypy-bench-") as tmp:
            work = Path(tmp)
            project = work / "project"
            modules = max(1, size // 10)
            total = generate(project, modules, size // modules)
            out[total] = measure(project, work, rounds)
    return out


def write_results(path: Path, title: str, text: str) -> None:
    """A results file: the title, what its ratios mean on a shared machine, the report."""
    note = (
        "Measured on the project's 2-core VM while other work shared it: the ratios come "
        "from runs interleaved side by side, absolute times are not comparable across "
        "runs or machines.\n\n"
    )
    path.write_text(f"# {title}\n\n" + note + text)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--modules", type=int, default=60)
    parser.add_argument(
        "--classes", type=int, default=10, help="jaxdc classes per module (at least 6)"
    )
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--large", action="store_true", help="200 modules x 10 classes")
    parser.add_argument("--write", action="store_true", help=f"also write {RESULTS.name}")
    args = parser.parse_args()
    if args.large:
        args.modules, args.classes = 200, 10
    with tempfile.TemporaryDirectory(prefix="jaxdc-mypy-bench-") as tmp:
        work = Path(tmp)
        project = work / "project"
        total = generate(project, args.modules, args.classes)
        samples = measure(project, work, args.rounds)
    text = report(samples, args.modules, total, args.rounds)
    print(text)
    if args.write:
        write_results(RESULTS, "jaxdc_mypy at scale", text)


if __name__ == "__main__":
    main()
