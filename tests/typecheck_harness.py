"""Run pyright, mypy, mypy + jaxdc_mypy and plain Python over `typecheck_cases/`.

A case states its own expectations, so one file says what every layer must report and that
every other line is clean:

- one line may end with `# runtime: raises <ExceptionName>`: running the file must raise
  that exception from that line (the runtime rejects the misuse there; later lines are
  checked by the checkers only); without the marker the file must run to completion;
- the module docstring's first line names the behaviour (a row of docs/checker-parity.md);
- `# E: <checker> <code>` trailing comments (several per line allowed) expect a diagnostic
  on that line. `<checker>` is `pyright` or `mypy`; a mypy code starting with `jaxdc-` is
  expected only when the jaxdc_mypy plugin runs, any other mypy code in both mypy runs.
  `mypy-plain` / `mypy-plugin` expect a code in one of the two mypy runs only (a plugin
  reusing mypy's own codes such as `arg-type`, or removing a false alarm).

Each checker runs once over the whole directory; that keeps the suite fast. Run as a script
(`python tests/typecheck_harness.py --write-parity`) to regenerate the parity table.
"""

from __future__ import annotations

import ast
import configparser
import dataclasses
import json
import re
import runpy
import subprocess
import sys
import tempfile
import traceback
from collections.abc import Iterable
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
CASES_DIR = REPO / "typecheck_cases"
PARITY_DOC = REPO / "docs" / "checker-parity.md"
BIN = Path(sys.executable).parent

PYRIGHT = "pyright"
MYPY = "mypy"
PLUGIN = "mypy + plugin"
PLUGIN_CODE_PREFIX = "jaxdc-"

_EXPECT = re.compile(r"#\s*E:\s*(pyright|mypy-plain|mypy-plugin|mypy)\s+([\w-]+)")
_RUNS = {
    PYRIGHT: (PYRIGHT,),
    "mypy": (MYPY, PLUGIN),
    "mypy-plain": (MYPY,),
    "mypy-plugin": (PLUGIN,),
}
_RUNTIME_MARKER = re.compile(r"#\s*runtime:\s*raises\s+(\w+)\s*$")

# (file name, line, code)
Diagnostic = tuple[str, int, str]


@dataclasses.dataclass(frozen=True)
class Case:
    path: Path
    behaviour: str
    raises: tuple[int, str] | None  # (line, exception class name)
    expected: dict[str, frozenset[Diagnostic]]


def load_case(path: Path) -> Case:
    source = path.read_text()
    docstring = ast.get_docstring(ast.parse(source))
    if not docstring:
        raise ValueError(f"{path.name}: a case starts with a docstring naming its behaviour")
    lines = source.splitlines()
    markers = [
        (lineno, marker.group(1))
        for lineno, line in enumerate(lines, start=1)
        if (marker := _RUNTIME_MARKER.search(line))
    ]
    if len(markers) > 1:
        raise ValueError(f"{path.name}: only the first rejected line can raise at runtime")
    found: dict[str, set[Diagnostic]] = {PYRIGHT: set(), MYPY: set(), PLUGIN: set()}
    for lineno, line in enumerate(lines, start=1):
        expectations = _EXPECT.findall(line)
        if len(expectations) != line.count("# E:"):
            raise ValueError(f"{path.name}:{lineno}: write `# E: <checker> <code>`")
        for checker, code in expectations:
            runs = (PLUGIN,) if code.startswith(PLUGIN_CODE_PREFIX) else _RUNS[checker]
            for run in runs:
                found[run].add((path.name, lineno, code))
    return Case(
        path=path,
        behaviour=docstring.splitlines()[0],
        raises=markers[0] if markers else None,
        expected={checker: frozenset(items) for checker, items in found.items()},
    )


def load_cases() -> list[Case]:
    return [load_case(path) for path in sorted(CASES_DIR.glob("*.py"))]


def expected(cases: Iterable[Case], checker: str) -> set[Diagnostic]:
    return {item for case in cases for item in case.expected[checker]}


# --- checkers -------------------------------------------------------------------------------


def run_pyright() -> dict[Diagnostic, str]:
    """Errors and warnings (not `information`) of one pyright run, with their messages."""
    proc = subprocess.run(
        [
            str(BIN / "pyright"),
            "--outputjson",
            "--pythonpath",
            sys.executable,
            "--project",
            str(CASES_DIR / "pyrightconfig.json"),
        ],
        capture_output=True,
        text=True,
        cwd=CASES_DIR,
        check=False,
    )
    try:
        report = json.loads(proc.stdout)
    except json.JSONDecodeError:
        raise RuntimeError(f"pyright failed:\n{proc.stdout}\n{proc.stderr}") from None
    return {
        (Path(d["file"]).name, d["range"]["start"]["line"] + 1, d.get("rule", "no-rule")): d[
            "message"
        ]
        for d in report["generalDiagnostics"]
        if d["severity"] in ("error", "warning")
    }


def run_mypy(*, plugin: bool) -> dict[Diagnostic, str]:
    """Errors (not notes) of one mypy run over the cases, configured by typecheck_cases/mypy.ini.

    The plugin run uses the same file plus `plugins = jaxdc_mypy`, so the two runs differ in
    nothing else. Each run keeps its own cache, which mypy invalidates when the stubs or
    the plugin's version change.
    """
    config = configparser.ConfigParser()
    config.read(CASES_DIR / "mypy.ini")
    if plugin:
        config["mypy"]["plugins"] = "jaxdc_mypy"
    cache = REPO / ".mypy_cache" / ("typecheck_cases-plugin" if plugin else "typecheck_cases")
    with tempfile.TemporaryDirectory() as tmp:
        config_file = Path(tmp) / "mypy.ini"
        with config_file.open("w") as stream:
            config.write(stream)
        proc = subprocess.run(
            [
                sys.executable,
                "-m",
                "mypy",
                "--config-file",
                str(config_file),
                "--cache-dir",
                str(cache),
                "--output",
                "json",
                ".",
            ],
            capture_output=True,
            text=True,
            cwd=CASES_DIR,
            check=False,
        )
    found: dict[Diagnostic, str] = {}
    for line in proc.stdout.splitlines():
        if not line.startswith("{"):
            continue
        d = json.loads(line)
        if d["severity"] == "error":
            found[(Path(d["file"]).name, d["line"], d["code"] or "no-code")] = d["message"]
    if proc.returncode not in (0, 1) or (proc.returncode == 1 and not found):
        raise RuntimeError(f"mypy failed ({proc.returncode}):\n{proc.stdout}\n{proc.stderr}")
    return found


# What running a case raised: (line in the case, the exception's MRO class names), or None.
Raised = tuple[int, list[str]] | None


def run_cases_in_python(cases: Iterable[Case]) -> dict[str, Raised]:
    """Run every case under plain Python in ONE fresh interpreter (jax is imported once)."""
    with tempfile.NamedTemporaryFile("r", suffix=".json") as out:
        proc = subprocess.run(
            [sys.executable, __file__, "--run-cases", out.name, *(str(c.path) for c in cases)],
            capture_output=True,
            text=True,
            cwd=CASES_DIR,
            check=False,
        )
        if proc.returncode != 0:
            raise RuntimeError(f"case runner failed:\n{proc.stdout}\n{proc.stderr}")
        outcomes: dict[str, list[Any] | None] = json.load(out)
    return {name: (raised[0], raised[1]) if raised else None for name, raised in outcomes.items()}


def _run_cases_main(out: str, paths: list[str]) -> None:
    outcomes: dict[str, Raised] = {}
    for path in paths:
        full = str(Path(path).resolve())
        try:
            runpy.run_path(full, run_name="__main__")
        except Exception as exc:
            tb = traceback.extract_tb(exc.__traceback__)
            line = [f.lineno or 0 for f in tb if f.filename == full][-1]
            outcomes[Path(path).name] = (line, [cls.__name__ for cls in type(exc).__mro__])
        else:
            outcomes[Path(path).name] = None
    Path(out).write_text(json.dumps(outcomes))


def runtime_problems(cases: Iterable[Case], outcomes: dict[str, Raised]) -> list[str]:
    problems = []
    for case in cases:
        raised = outcomes[case.path.name]
        if raised is None:
            if case.raises is not None:
                problems.append(f"{case.path.name}: ran through, expected {case.raises[1]}")
            continue
        line, names = raised
        if case.raises is None:
            problems.append(f"{case.path.name}:{line}: raised {names[0]} under plain Python")
        elif case.raises[1] not in names or case.raises[0] != line:
            problems.append(
                f"{case.path.name}:{line}: raised {names[0]}, expected {case.raises[1]} "
                f"from line {case.raises[0]}"
            )
    return problems


def run_checker(checker: str) -> dict[Diagnostic, str]:
    return run_pyright() if checker == PYRIGHT else run_mypy(plugin=checker == PLUGIN)


def compare(checker: str, want: set[Diagnostic], got: dict[Diagnostic, str]) -> list[str]:
    """Readable lines for every missing and every unexpected diagnostic."""
    missing = [
        f"{f}:{line}: {checker} {code}: expected, not reported"
        for f, line, code in sorted(want - got.keys())
    ]
    extra = [
        f"{f}:{line}: {checker} {code}: unexpected: {got[(f, line, code)]}"
        for f, line, code in sorted(got.keys() - want)
    ]
    return missing + extra


# --- parity table ---------------------------------------------------------------------------


def _cell(codes: Iterable[str]) -> str:
    return ", ".join(f"`{code}`" for code in sorted(set(codes))) or "–"


def render_parity(cases: Iterable[Case]) -> str:
    rows = []
    for case in cases:
        cells = [_cell(code for _, _, code in case.expected[c]) for c in (PYRIGHT, MYPY, PLUGIN)]
        runtime = f"raises `{case.raises[1]}`" if case.raises else "runs"
        link = f"[{case.path.stem}](../typecheck_cases/{case.path.name})"
        behaviour = case.behaviour.replace("|", "\\|")  # a bare | would split the cell
        rows.append(f"| {behaviour} | {link} | " + " | ".join([*cells, runtime]) + " |")
    return "\n".join(
        [
            "# What each layer catches",
            "",
            "Generated from `typecheck_cases/` by `python tests/typecheck_harness.py --write-parity`;",
            "`tests/test_typecheck_cases.py` checks every cell against real pyright, mypy,",
            "mypy + `jaxdc_mypy` and Python runs, and fails when this file is stale.",
            "",
            "A checker cell lists the codes it reports on the case's lines; – means none, which",
            "is a miss on a misuse and the right answer on correct code. The runtime cell says",
            "whether running the case raises (at the line marked in the case) or runs through.",
            "",
            f"| behaviour | case | {PYRIGHT} | {MYPY} | {PLUGIN} | runtime |",
            "|---|---|---|---|---|---|",
            *rows,
            "",
        ]
    )


if __name__ == "__main__":
    if sys.argv[1:2] == ["--run-cases"]:
        _run_cases_main(sys.argv[2], sys.argv[3:])
    elif sys.argv[1:] == ["--write-parity"]:
        PARITY_DOC.write_text(render_parity(load_cases()))
    else:
        sys.exit("usage: typecheck_harness.py --write-parity | --run-cases OUT CASE...")
