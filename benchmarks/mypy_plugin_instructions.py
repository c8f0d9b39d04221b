"""Instructions the mypy plugin adds to a project-cold run and a warm one, by callgrind.

The plugin's targets are CPU-time ratios (``mypy_plugin_bench.py``), but on a shared machine
those move by 0.01-0.02 between runs: more than most single changes to the plugin save.
Instruction counts repeat to about 0.1% (hash seed fixed), so this is the instrument for
work on the plugin's cost. Between two versions of the code, differences under about 0.3%
are layout, not work: mypy's types hash by the identity of their classes, so where objects
land in memory decides dictionary collisions (3,000 extra objects made at import, and
nothing else changed, moved a project-cold count by 30M). Counts understate the cost in
time: mypy is compiled (mypyc) and runs more instructions per second than the plugin's
interpreted Python, so the CPU overhead is a larger fraction than the instruction overhead.

Same generated project and third-party cache as ``mypy_plugin_bench.py`` (default 200
modules x 10 classes); the warm run re-checks it over the cache the project-cold run left.
Needs valgrind; a few minutes at the default size.

    .venv/bin/python benchmarks/mypy_plugin_instructions.py [--modules 200] [--write]
"""

from __future__ import annotations

import argparse
import os
import platform
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import mypy_plugin_bench as bench

RESULTS = Path(__file__).resolve().parent / "results-mypy-plugin-instructions.md"
_COLLECTED = re.compile(r"Collected : (\d+)")


def count(project: Path, cache: Path) -> int:
    """Instructions of one mypy run on ``project`` with ``cache`` (which it fills)."""
    proc = subprocess.run(
        [
            "valgrind",
            "--tool=callgrind",
            "--callgrind-out-file=/dev/null",
            sys.executable,
            "-m",
            "mypy",
            "--cache-dir",
            str(cache),
            "-p",
            "bench_pkg",
        ],
        cwd=project,
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONHASHSEED": "0"},  # dict and set order: counts repeat
        check=False,
    )
    found = _COLLECTED.search(proc.stderr)
    if proc.returncode != 0 or found is None:
        raise SystemExit(f"mypy under callgrind failed in {project}:\n{proc.stdout}{proc.stderr}")
    return int(found.group(1))


Counts = dict[str, dict[str, int]]  # run -> variant -> instructions
RUNS = ("project-cold", "warm")


def measure(project: Path, work: Path) -> Counts:
    """Instructions of plain mypy and of mypy with the plugin, project-cold then warm."""
    bench.warm_plugin_bytecode()
    counts: Counts = {run: {} for run in RUNS}
    for variant, config in (("plain", bench.PLAIN), ("plugin", bench.PLUGIN)):
        third_party = bench.third_party_cache(work, variant, config)
        (project / "pyproject.toml").write_text(config)
        cache = work / f"cache-{variant}"
        shutil.copytree(third_party, cache)
        for run in RUNS:
            counts[run][variant] = count(project, cache)
    return counts


def report(counts: Counts, modules: int, total: int) -> str:
    import mypy.version

    lines = [
        f"mypy on {modules} modules, {total} jaxdc classes: project-cold (third-party "
        "modules cached), then warm over the cache it left "
        f"(`benchmarks/mypy_plugin_instructions.py`; callgrind, PYTHONHASHSEED=0; Python "
        f"{platform.python_version()}, mypy {mypy.version.__version__}).",
        "",
        "| run | plain mypy | with plugin | plugin's own | ratio |",
        "|---|---|---|---|---|",
    ]
    for run in RUNS:
        plain, plugin = counts[run]["plain"], counts[run]["plugin"]
        lines.append(
            f"| {run} | {plain / 1e6:,.1f}M | {plugin / 1e6:,.1f}M | "
            f"{(plugin - plain) / 1e6:,.1f}M | {plugin / plain:.3f} |"
        )
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--modules", type=int, default=200)
    parser.add_argument("--classes", type=int, default=10)
    parser.add_argument("--write", action="store_true", help=f"also write {RESULTS.name}")
    args = parser.parse_args()
    if shutil.which("valgrind") is None:
        raise SystemExit("valgrind is not installed (apt install valgrind)")
    with tempfile.TemporaryDirectory(prefix="jaxdc-mypy-instructions-") as tmp:
        work = Path(tmp)
        project = work / "project"
        total = bench.generate(project, args.modules, args.classes)
        counts = measure(project, work)
    text = report(counts, args.modules, total)
    print(text)
    if args.write:
        RESULTS.write_text(f"# jaxdc_mypy: instructions at scale\n\n{text}")


if __name__ == "__main__":
    main()
