"""Run the whole test suite once per supported environment: `make test-matrix`.

Why a script rather than a make loop: each leg needs its own interpreter, its own venv and,
for the oldest leg, pinned constraints (`constraints-oldest.txt` says why), and the point of
the run is the record it leaves: which exact versions passed, with what counts, in how long.
The legs run one after another (the suite itself uses two workers), each to the end, so one
failing leg does not hide the others.

    python tools/test_matrix.py                  # every leg
    python tools/test_matrix.py py3.13 oldest    # some legs
    python tools/test_matrix.py --fresh oldest   # rebuild the venv first
    python tools/test_matrix.py oldest -- tests/test_jit.py   # pytest arguments after --

Venvs live in `.venv-matrix/<leg>/` and are reused while pyproject.toml, the leg's
constraints and the interpreter are unchanged. Each leg leaves `versions.txt` (pip freeze)
and `pytest.log` there, and the run writes `.venv-matrix/summary.md`; a run of every leg
with no pytest arguments also writes it into README.md (the `test-matrix` block). Stdlib
only: it runs on whichever Python starts it.
"""

from __future__ import annotations

import argparse
import glob
import hashlib
import os
import re
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import docblocks  # tools/docblocks.py, beside this script

REPO = Path(__file__).resolve().parent.parent
MATRIX = REPO / ".venv-matrix"
TOOLS = REPO / "tools"

# The versions that matter for a leg's verdict, printed in the summary.
KEY_PACKAGES = ("jax", "jaxlib", "numpy", "mypy", "flax", "orbax-checkpoint", "equinox")


@dataclass(frozen=True)
class Leg:
    name: str
    python: str  # "3.10"
    constraints: Path | None = None


LEGS = {
    leg.name: leg
    for leg in (
        Leg("py3.10", "3.10"),
        Leg("py3.11", "3.11"),
        Leg("py3.12", "3.12"),
        Leg("py3.13", "3.13"),
        Leg("oldest", "3.10", TOOLS / "constraints-oldest.txt"),
    )
}


def find_interpreter(version: str) -> Path:
    """`python3.X` from PATH if it runs, else the newest pyenv build of 3.X.

    Asking the candidate for its own path skips pyenv shims of versions that are installed
    but not selected (they exist on PATH and only print "command not found").
    """
    home = Path.home() / ".pyenv" / "versions"
    candidates = [shutil.which(f"python{version}")]
    builds = glob.glob(str(home / f"{version}.*" / "bin" / f"python{version}"))
    newest_first = sorted(builds, key=lambda p: [int(n) for n in re.findall(r"\d+", p)])[::-1]
    for candidate in (*candidates, *newest_first):
        if candidate is None:
            continue
        proc = subprocess.run(
            [candidate, "-c", "import sys; print(sys.executable)"],
            capture_output=True,
            text=True,
            check=False,
        )
        if proc.returncode == 0:
            return Path(proc.stdout.strip())
    raise SystemExit(f"no working python{version} on PATH or under {home}")


def run(cmd: list[str], env: dict[str, str] | None = None) -> None:
    print("+", " ".join(cmd), flush=True)
    subprocess.run(cmd, check=True, cwd=REPO, env=env)


def install_digest(leg: Leg, interpreter: Path) -> str:
    """What the venv was built from: rebuild when any of it changes."""
    h = hashlib.sha256(str(interpreter).encode())
    for path in (REPO / "pyproject.toml", leg.constraints):
        if path is not None:
            h.update(path.read_bytes())
    return h.hexdigest()


def ensure_venv(leg: Leg, fresh: bool) -> tuple[Path, float]:
    """The leg's venv, built by `make venv` like .venv; returns (python, install seconds).

    The oldest leg's pins reach every pip call of that recipe through PIP_CONSTRAINT, so
    its `.[dev]` resolves to them and the recipe stays the one way to build a venv.
    """
    venv = MATRIX / leg.name
    python = venv / "bin" / "python"
    interpreter = find_interpreter(leg.python)
    stamp = venv / ".matrix-digest"
    digest = install_digest(leg, interpreter)
    if not fresh and stamp.exists() and stamp.read_text() == digest:
        return python, 0.0
    start = time.monotonic()
    shutil.rmtree(venv, ignore_errors=True)
    env = dict(os.environ)
    env.pop("PIP_CONSTRAINT", None)
    if leg.constraints:
        env["PIP_CONSTRAINT"] = str(leg.constraints)
    run(["make", "venv", f"VENV={venv}", f"PYTHON={interpreter}"], env=env)
    frozen = subprocess.run(
        [str(python), "-m", "pip", "freeze", "--exclude-editable"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    (venv / "versions.txt").write_text(frozen)
    stamp.write_text(digest)
    return python, time.monotonic() - start


def versions(python: Path) -> dict[str, str]:
    code = (
        "import sys, importlib.metadata as m\n"
        "print('python', sys.version.split()[0])\n"
        f"for name in {KEY_PACKAGES!r}:\n"
        "    print(name, m.version(name))\n"
    )
    out = subprocess.run([str(python), "-c", code], capture_output=True, text=True, check=True)
    return dict(line.split(" ", 1) for line in out.stdout.splitlines())


def run_suite(leg: Leg, python: Path, pytest_args: list[str]) -> tuple[int, str, float]:
    """pytest on the whole suite; returns (exit code, closing summary, seconds)."""
    log = MATRIX / leg.name / "pytest.log"
    env = {**os.environ, "PATH": f"{python.parent}{os.pathsep}{os.environ['PATH']}"}
    env["VIRTUAL_ENV"] = str(python.parent.parent)
    cmd = [str(python), "-m", "pytest", "-q", "-n", "2", "-p", "no:cacheprovider", *pytest_args]
    print("+", " ".join(cmd), f"> {log.relative_to(REPO)}", flush=True)
    start = time.monotonic()
    with open(log, "w") as out:
        proc = subprocess.run(cmd, cwd=REPO, env=env, stdout=out, stderr=subprocess.STDOUT)
    seconds = time.monotonic() - start
    code = proc.returncode
    lines = log.read_text().splitlines()
    closing = next((ln.strip("= ") for ln in reversed(lines) if re.search(r" in [\d.]+s", ln)), "")
    # Failures and errors are what a reader of the summary needs next.
    for line in lines:
        if line.startswith(("FAILED ", "ERROR ")):
            print("   ", line, flush=True)
    return code, closing, seconds


def main() -> int:
    argv = sys.argv[1:]
    split = argv.index("--") if "--" in argv else len(argv)
    argv, pytest_args = argv[:split], argv[split + 1 :]
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("legs", nargs="*", metavar="LEG", help=f"any of {', '.join(LEGS)}")
    parser.add_argument("--fresh", action="store_true", help="rebuild the legs' venvs")
    args = parser.parse_args(argv)
    unknown = set(args.legs) - set(LEGS)
    if unknown:
        parser.error(f"unknown legs {sorted(unknown)}; choose from {', '.join(LEGS)}")
    MATRIX.mkdir(exist_ok=True)
    rows = []
    failed = False
    for name in args.legs or LEGS:
        leg = LEGS[name]
        print(f"== {name}", flush=True)
        try:
            python, install_seconds = ensure_venv(leg, args.fresh)
        except subprocess.CalledProcessError as exc:
            print(f"   install failed: {exc}", flush=True)
            rows.append((name, "install failed", "", 0.0, 0.0))
            failed = True
            continue
        found = versions(python)
        print("  ", ", ".join(f"{k} {v}" for k, v in found.items()), flush=True)
        code, closing, seconds = run_suite(leg, python, pytest_args)
        failed |= code != 0
        print(f"   {closing or f'pytest exited {code}'}", flush=True)
        shown = ", ".join(f"{k} {v}" for k, v in found.items())
        rows.append((name, closing or f"pytest exited {code}", shown, install_seconds, seconds))
    table = ["| leg | result | versions | install s | tests s |", "| --- | --- | --- | --- | --- |"]
    table += [f"| {n} | {r} | {v} | {i:.0f} | {t:.0f} |" for n, r, v, i, t in rows]
    (MATRIX / "summary.md").write_text("\n".join(table) + "\n")
    print("\n".join(["", *table]))
    if not args.legs and not pytest_args:  # a full run is the README's record (issue 20)
        commit = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, check=False
        ).stdout.strip()
        record_in_readme(REPO / "README.md", table, commit or "unknown")
    return 1 if failed else 0


def record_in_readme(readme: Path, table: list[str], commit: str) -> None:
    """Write a full run's table into README's `test-matrix` block, after the machine, the
    Python running this script, the date and the commit (each leg's versions are in it)."""
    where = docblocks.provenance().replace("Measured on", "Run by `make test-matrix` on", 1)
    record = [f"{where} Commit {commit}.", "", *table]
    docblocks.replace_block(readme, "test-matrix", "\n".join(record))


if __name__ == "__main__":
    sys.exit(main())
