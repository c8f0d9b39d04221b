"""mypy + jaxdc_mypy vs plain mypy on real code: the downstream projects after migration.

`make test-downstream` migrates each package of ``downstream/packages.py`` to jaxdc and
leaves the result in ``downstream/.work/<package>/jaxdc/``. This times mypy on each
package's sources (the same ones and settings the downstream check uses) without and with
the plugin, interleaved round by round so machine load hits both alike:

- cold: no cache (the package, jax and everything it imports analysed from scratch);
- warm: the same run again on that cache (nothing changed).

Time is the mypy process's CPU time (``mypy_plugin_bench._MEASURE``); each package is
copied to a temporary directory first, so the downstream tree is only read. The plugin
and rules imported are this checkout's (``PYTHONPATH``), whatever the Python given has
installed; that Python (default: the downstream venv) must have mypy and the packages'
dependencies.

    .venv/bin/python benchmarks/mypy_plugin_real.py [--python .venv-downstream/bin/python]
        [--work downstream/.work] [--rounds 3] [--only navix,mctx] [--write]

``--write`` writes ``results-mypy-plugin-real.md`` and the section "The mypy plugin on real
code" of docs/benchmarks.md (its generated block; ``make bench`` leaves it alone).
"""

from __future__ import annotations

import argparse
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

import mypy_plugin_bench

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))
import docblocks  # noqa: E402  (tools/ is not a package)

RESULTS = Path(__file__).resolve().parent / "results-mypy-plugin-real.md"
PAGE = ROOT / "docs" / "benchmarks.md"
BLOCK = "plugin-real"  # its section of PAGE

# downstream/checkers.py's settings: untyped third-party code is not followed into.
_SETTINGS = "ignore_missing_imports = True\nfollow_imports = silent\n"
CONFIGS = {
    "plain": "[mypy]\n" + _SETTINGS,
    "plugin": "[mypy]\nplugins = jaxdc_mypy\n" + _SETTINGS,
}


def packages() -> dict[str, tuple[str, ...]]:
    """Package name -> the sources the downstream check gives the type checkers."""
    sys.path.insert(0, str(ROOT / "downstream"))
    from packages import PACKAGES  # type: ignore[import-not-found]

    return {package.name: package.sources for package in PACKAGES}


def migrated_tree(work: Path, name: str) -> Path | None:
    """The package's migrated checkout (``<work>/<name>/jaxdc/<name>-<version>``)."""
    trees = [p for p in (work / name / "jaxdc").glob("*") if p.is_dir()]
    return trees[0] if len(trees) == 1 else None


def run_mypy(python: str, root: Path, config: Path, cache: Path, sources: tuple[str, ...]) -> float:
    """CPU seconds of one mypy run (which may report errors: exit 0 or 1; a crash fails)."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT / "mypy_plugin"), str(ROOT / "rules")])
    args = ["--config-file", str(config), "--cache-dir", str(cache), *sources]
    result = mypy_plugin_bench.measure_mypy(python, args, root, statuses=(0, 1), env=env)
    return float(result["cpu"])


Samples = dict[str, dict[str, list[float]]]


def measure(python: str, tree: Path, sources: tuple[str, ...], rounds: int) -> Samples:
    samples: Samples = {kind: {"plain": [], "plugin": []} for kind in ("cold", "warm")}
    with tempfile.TemporaryDirectory(prefix="jaxdc-mypy-real-") as tmp:
        root = Path(tmp) / tree.name
        shutil.copytree(tree, root, ignore=shutil.ignore_patterns(".*cache*", "__pycache__"))
        for variant, text in CONFIGS.items():
            (Path(tmp) / f"{variant}.ini").write_text(text)
        for _ in range(rounds):
            for variant in CONFIGS:
                config, cache = Path(tmp) / f"{variant}.ini", Path(tmp) / f"cache-{variant}"
                shutil.rmtree(cache, ignore_errors=True)
                samples["cold"][variant].append(run_mypy(python, root, config, cache, sources))
                for _ in range(mypy_plugin_bench.WARM_REPEATS):  # short runs: more of them
                    warm = run_mypy(python, root, config, cache, sources)
                    samples["warm"][variant].append(warm)
    return samples


_VERSIONS = "import mypy.version, jax; print(mypy.version.__version__, jax.__version__)"


def report(results: dict[str, Samples], rounds: int, python: str) -> str:
    version = subprocess.run(
        [
            python,
            "-c",
            "import mypy.version, jax; print(mypy.version.__version__, jax.__version__)",
        ],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    lines = [
        f"mypy + jaxdc_mypy vs plain mypy on the downstream packages' migrated sources "
        f"(`make test-downstream`): CPU seconds of the mypy process, median of {rounds} "
        f"interleaved rounds (warm: {mypy_plugin_bench.WARM_REPEATS} runs a round; Python "
        f"{platform.python_version()}, mypy {version[0]}, jax {version[1]}). Target: <= 1.10.",
        "",
        "| package | cold plain | cold plugin | cold ratio | warm plain | warm plugin "
        "| warm ratio |",
        "|---|---|---|---|---|---|---|",
    ]
    for name, samples in results.items():
        row = [name]
        for kind in ("cold", "warm"):
            plain = statistics.median(samples[kind]["plain"])
            plugin = statistics.median(samples[kind]["plugin"])
            row += [f"{plain:.2f} s", f"{plugin:.2f} s", f"{plugin / plain:.3f}"]
        lines.append("| " + " | ".join(row) + " |")
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--python", default=str(ROOT / ".venv-downstream" / "bin" / "python"))
    parser.add_argument("--work", type=Path, default=ROOT / "downstream" / ".work")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--only", help="comma-separated package names")
    parser.add_argument(
        "--write", action="store_true", help=f"also write {RESULTS.name} and its block of {PAGE}"
    )
    args = parser.parse_args()
    wanted = set(args.only.split(",")) if args.only else None
    results: dict[str, Samples] = {}
    for name, sources in packages().items():
        if wanted is not None and name not in wanted:
            continue
        tree = migrated_tree(args.work, name)
        if tree is None:
            print(f"{name}: no migrated tree under {args.work}; run make test-downstream")
            continue
        print(f"{name}: {args.rounds} rounds", file=sys.stderr)
        results[name] = measure(args.python, tree, sources, args.rounds)
    text = report(results, args.rounds, args.python)
    print(text)
    if args.write:
        mypy_plugin_bench.write_results(RESULTS, "jaxdc_mypy on real code", text)
        docblocks.replace_block(PAGE, BLOCK, docblocks.provenance() + "\n\n" + text)


if __name__ == "__main__":
    main()
