"""Run real projects' own tests and type checks as published and migrated to jaxdc.

    python downstream/run.py fetch            # bootstrap, with network: download the sdists
    python downstream/run.py run [NAME ...]   # offline: both runs, then docs/downstream.md
    python downstream/run.py report           # docs/downstream.md from results.json only

For each package of `packages.py`: unpack its sdist twice under downstream/.work/NAME/,
leave `baseline/` as published and migrate `jaxdc/` (`migrate.py`: the import change a
user makes); run its tests in each (pytest, bounded by the package's time budget) and
pyright and mypy + the jaxdc plugin on its sources; then compare. Every test that fails
only with jaxdc and every diagnostic only jaxdc adds must be explained in `triage.py`; the
command exits non-zero while one is not.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tarfile
import time
import xml.etree.ElementTree as ET
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import checkers  # noqa: E402
import migrate  # noqa: E402
import report  # noqa: E402
from packages import PACKAGES, Package  # noqa: E402
from results import ERROR, FAILED, PASSED, SKIPPED, Outcome, TestRun, Warned  # noqa: E402

SDISTS = HERE / ".sdists"
WORK = HERE / ".work"
PROBE = HERE / "probe"  # the pytest plugin counting jaxdc's warnings
PROBE_PLUGIN = "jaxdc_downstream_warnings"
RESULTS = HERE / "results.json"  # committed: the page can be regenerated package by package
DOC = HERE.parent / "docs" / "downstream.md"
README = HERE.parent / "README.md"  # quotes the page's summary paragraph
VARIANTS = ("baseline", "jaxdc")
# pytest-timeout's failure text: the test was cut, like a run its budget cuts.
_CUT = "Failed: Timeout"


def sdist_path(pkg: Package) -> Path:
    found = sorted(SDISTS.glob(f"{pkg.name.replace('-', '_')}-{pkg.version}.tar.gz"))
    found += sorted(SDISTS.glob(f"{pkg.name}-{pkg.version}.tar.gz"))
    if not found:
        raise SystemExit(f"{pkg.sdist}: not downloaded; run `make test-downstream` once online")
    return found[0]


def fetch(packages: list[Package]) -> None:
    SDISTS.mkdir(exist_ok=True)
    for pkg in packages:
        try:
            sdist_path(pkg)
            continue
        except SystemExit:
            pass
        subprocess.run(
            [
                sys.executable,
                "-m",
                "pip",
                "download",
                "-q",
                "--no-deps",
                "--no-binary",
                ":all:",
                "-d",
                str(SDISTS),
                pkg.sdist,
            ],
            check=True,
        )


def prepare(pkg: Package, variant: str, outcome: Outcome, work: Path = WORK) -> Path:
    """A fresh copy of the package's sdist; the jaxdc copy migrated."""
    dest = work / pkg.name / variant
    shutil.rmtree(dest, ignore_errors=True)
    dest.mkdir(parents=True)
    with tarfile.open(sdist_path(pkg)) as tar:
        tar.extractall(dest, filter="data")
    (root,) = dest.iterdir()
    for helper, target in pkg.helpers:
        shutil.copy(HERE / "helpers" / helper, root / target)
    if variant == "jaxdc":
        changes = migrate.migrate(root, pkg.families, pkg.migrated)
        outcome.changed_lines = len(changes)
        outcome.leftovers = migrate.leftovers(root, pkg.families, pkg.migrated)
        (published,) = (work / pkg.name / "baseline").iterdir()  # prepared first
        outcome.hand_edits = migrate.hand_edits(published, root, changes)
    return root


def run_tests(pkg: Package, root: Path, report_file: Path) -> TestRun:
    args = [
        sys.executable,
        "-m",
        "pytest",
        "-q",
        "-p",
        "no:cacheprovider",
        "-o",
        "addopts=",
        "--rootdir",
        str(root),
        f"--junitxml={report_file}",
        "--continue-on-collection-errors",
        "-p",
        PROBE_PLUGIN,
        *pkg.tests,
        *pkg.extra_pytest,
    ]
    if importlib.util.find_spec("pytest_timeout"):  # one hanging test must not eat the budget
        args.append(f"--timeout={pkg.budget_s // 2}")
    for node, _why in pkg.deselect:
        path = os.path.relpath(root / node.split("::")[0], root / pkg.cwd)
        args += (
            ["--ignore", path]
            if "::" not in node
            else ["--deselect", path + node[node.index("::") :]]
        )
    warned = report_file.with_suffix(".warnings.json")
    env = {**os.environ, "JAX_PLATFORMS": "cpu", "PYTHONHASHSEED": "0", **probe_env(root, warned)}
    # A run that writes no report must not read an old one.
    report_file.unlink(missing_ok=True)
    warned.unlink(missing_ok=True)
    start = time.monotonic()
    run = TestRun()
    log = report_file.with_suffix(".log")
    with log.open("w") as out:
        proc = subprocess.Popen(args, cwd=root / pkg.cwd, env=env, stdout=out, stderr=out)
        _wait(proc, pkg, run)
    run.seconds = round(time.monotonic() - start, 1)
    if report_file.exists():
        _read_junit(report_file, run)
    if warned.exists():
        run.warnings = [Warned(**w) for w in json.loads(warned.read_text())]
    if proc.returncode not in (0, 1, 5) and not run.failures and not run.timed_out:
        # pytest stopped before running tests (e.g. a conftest failed to import).
        lines = [line for line in log.read_text().splitlines() if "Error" in line]
        run.errors += 1
        run.failures["<session>"] = (lines[-1] if lines else f"exit {proc.returncode}")[:300]
    return run


def probe_env(root: Path, out: Path) -> dict[str, str]:
    """What a pytest run of `root` needs to load the probe and write its tally to `out`."""
    return {
        "PYTHONPATH": os.pathsep.join((str(root), str(PROBE))),
        "JAXDC_DOWNSTREAM_WARNINGS": str(out),
        "JAXDC_DOWNSTREAM_ROOT": str(root),
    }


def _wait(proc: subprocess.Popen[bytes], pkg: Package, run: TestRun) -> None:
    try:
        proc.wait(timeout=pkg.budget_s)
    except subprocess.TimeoutExpired:
        # Interrupted, pytest still writes the report of the tests it finished.
        run.timed_out = True
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(timeout=60)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def _read_junit(path: Path, run: TestRun) -> None:
    for case in ET.parse(path).getroot().iter("testcase"):
        node = f"{case.get('classname')}::{case.get('name')}"
        problem = next((c for c in case if c.tag in ("failure", "error", "skipped")), None)
        if problem is None:
            run.passed += 1
            run.statuses[node] = PASSED
        elif problem.tag == "skipped":
            run.skipped += 1
            run.statuses[node] = SKIPPED
        else:
            if problem.tag == "failure":
                run.failed += 1
                run.statuses[node] = FAILED
            else:
                run.errors += 1
                run.statuses[node] = ERROR
            run.failures[node] = failure_text(problem.get("message"), problem.text, problem.tag)
            run.timed_out |= run.failures[node].startswith(_CUT)


def failure_text(message: str | None, details: str | None, tag: str) -> str:
    """The first line of what went wrong: junit's message, or, where that is pytest's
    bare "collection failure", the exception line of the traceback (`E   TypeError: ...`),
    so that a triage entry can name the exact error a module failed to import with."""
    text = (message or "").strip()
    if text in ("", "collection failure"):
        raised = [
            line[1:].strip() for line in (details or "").splitlines() if line.startswith("E ")
        ]
        text = next(
            (
                line
                for line in reversed(raised)
                if re.match(r"[\w.]+(Error|Exception|Warning)\b", line)
            ),
            text,
        )
    return text.splitlines()[0][:300] if text else tag


def run_package(pkg: Package) -> Outcome:
    """Both variants' tests side by side (two processes, one per core), then the checkers."""
    outcome = Outcome(pkg.name, pkg.version, pkg.family)
    roots = {variant: prepare(pkg, variant, outcome) for variant in VARIANTS}
    print(f"== {pkg.name} {pkg.version}: tests (budget {pkg.budget_s} s)", flush=True)
    with ThreadPoolExecutor(len(VARIANTS)) as pool:
        runs = {
            v: pool.submit(run_tests, pkg, roots[v], WORK / pkg.name / f"{v}.xml") for v in VARIANTS
        }
        outcome.tests = {v: runs[v].result() for v in VARIANTS}
    for variant, t in outcome.tests.items():
        budget = " (time budget hit)" if t.timed_out else ""
        print(
            f"   {variant}: {t.passed} passed, {t.failed} failed, {t.errors} errors, "
            f"{t.skipped} skipped in {t.seconds}s{budget}",
            flush=True,
        )
    if pkg.sources:
        print(f"== {pkg.name}: mypy + plugin, pyright", flush=True)
        for variant in VARIANTS:
            outcome.mypy[variant] = checkers.mypy(roots[variant], pkg.sources, pkg.budget_s)
            outcome.pyright[variant] = checkers.pyright(roots[variant], pkg.sources, pkg.budget_s)
    return outcome


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("command", choices=("fetch", "run", "report"))
    parser.add_argument("names", nargs="*", help="only these packages (default: all)")
    args = parser.parse_args()
    packages = [p for p in PACKAGES if not args.names or p.name in args.names]
    if args.command == "fetch":
        fetch(packages)
        return 0
    if args.command == "run":
        WORK.mkdir(exist_ok=True)
        for pkg in packages:
            outcome = asdict(run_package(pkg))
            # Read again: a run of other packages may have saved theirs meanwhile.
            previous = json.loads(RESULTS.read_text()) if RESULTS.exists() else {}
            RESULTS.write_text(json.dumps({**previous, pkg.name: outcome}, indent=1) + "\n")
    previous = json.loads(RESULTS.read_text()) if RESULTS.exists() else {}
    outcomes = [Outcome.load(previous[p.name]) for p in PACKAGES if p.name in previous]
    problems = report.write(DOC, outcomes)
    report.write_summary(README, DOC)
    for problem in problems:
        print(f"UNEXPLAINED: {problem}")
    print(f"wrote {DOC.relative_to(HERE.parent)} and its summary in README.md")
    return 1 if problems else 0


if __name__ == "__main__":
    raise SystemExit(main())
