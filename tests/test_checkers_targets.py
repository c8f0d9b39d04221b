"""The target-Python dimension of the checker harness: markers that hold for some targets
only, and runners that check for the target they are given.

Which checker synthesises `__replace__` for which target is what the stubs' typed
`replace` rests on (stubs/jaxdc-stubs/_replace.pyi), so it is pinned here on a stdlib
dataclass: pyright, basedpyright, ty and mypy from Python 3.13 on, pyrefly for every
target, zuban for none.
"""

from __future__ import annotations

from pathlib import Path

import checkers
import pytest
from checkers import Diagnostic, compare, parse_markers

SOURCE = (
    "x = 1  # E: pyright@3.13 reportCallIssue  # E: ty@<3.13 missing-attribute  # E: mypy misc\n"
)


def test_a_marker_may_name_the_targets_it_holds_for() -> None:
    markers = parse_markers("case.py", SOURCE)
    assert [(m.checker, m.code, m.target) for m in markers] == [
        ("pyright", "reportCallIssue", "3.13"),
        ("ty", "missing-attribute", "<3.13"),
        ("mypy", "misc", None),
    ]
    pyright, ty, mypy = markers
    assert [pyright.applies_to(t) for t in ("3.10", "3.12", "3.13", "3.14")] == [
        False,
        False,
        True,
        True,
    ]
    assert [ty.applies_to(t) for t in ("3.10", "3.12", "3.13")] == [True, True, False]
    assert all(mypy.applies_to(t) for t in checkers.TARGETS)


@pytest.mark.parametrize(
    ("line", "refusal"),
    [
        ("x = 1  # E: pyright@3 reportCallIssue", "unknown checker 'pyright@3'"),
        ("x = 1  # E: pyright@>3.13 reportCallIssue", r"write `# E: <checker>\[@\[<\]X.Y\]"),
    ],
)
def test_a_target_is_a_version_or_an_older_than(line: str, refusal: str) -> None:
    with pytest.raises(ValueError, match=refusal):
        parse_markers("case.py", line)


def _pyright_for(target: str) -> str:
    """How a report names pyright run for `target`: plainly for the running Python (3.10
    on the oldest leg), with the target for any other."""
    return "pyright" if target == checkers.RUNNING else f"pyright@{target}"


def test_each_target_expects_only_its_own_diagnostics() -> None:
    markers = parse_markers("case.py", SOURCE)
    found = [Diagnostic("case.py", 1, "reportCallIssue", "No parameter named 'stpe'")]
    assert compare("pyright", markers, found, "3.13") == []
    assert compare("pyright", markers, found, "3.10") == [
        f"case.py:1: {_pyright_for('3.10')} reportCallIssue: unexpected: No parameter named 'stpe'"
    ]
    assert compare("pyright", markers, [], "3.13") == [
        f"case.py:1: {_pyright_for('3.13')} reportCallIssue: expected, not reported"
    ]


PROBE = """\
import dataclasses


@dataclasses.dataclass(frozen=True)
class Point:
    x: int


Point(1).__replace__(x=2)
"""
# The checkers that report `Point(1).__replace__` as missing, by target.
NO_REPLACE = {
    "3.10": {"pyright", "basedpyright", "ty", "zuban", "mypy"},
    "3.13": {"zuban"},
}


@pytest.mark.parametrize("target", checkers.TARGETS)
def test_every_runner_checks_for_the_target_it_is_given(tmp_path: Path, target: str) -> None:
    (tmp_path / "probe.py").write_text(PROBE)
    runs = {
        "pyright": checkers.run_pyright(tmp_path, ["probe.py"], target=target),
        "basedpyright": checkers.run_basedpyright(tmp_path, ["probe.py"], target=target),
        "ty": checkers.run_ty(tmp_path, ["probe.py"], target=target),
        "pyrefly": checkers.run_pyrefly(tmp_path, ["probe.py"], target=target),
        "zuban": checkers.run_zuban(tmp_path, ["probe.py"], target=target),
        "mypy": checkers.run_mypy(
            tmp_path, ["probe.py"], cache_dir=tmp_path / "cache", target=target
        )
        .check()
        .errors,
    }
    missing = {name for name, found in runs.items() if any(d.line == 9 for d in found)}
    assert missing == NO_REPLACE[target], runs
