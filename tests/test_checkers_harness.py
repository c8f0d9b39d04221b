"""The marker grammar and the comparison every checker test relies on."""

from __future__ import annotations

import pytest
from checkers import Diagnostic, compare, parse_markers

SOURCE = (
    "x: int = 'a'  # E: pyright,basedpyright reportAssignmentType  # E: mypy assignment\n"
    "y = 1  # E: mypy-plugin jaxdc-data: data field 'y' is wrong  # runtime: raises TypeError\n"
)


def test_markers_name_checkers_codes_and_messages() -> None:
    markers = parse_markers("case.py", SOURCE)
    assert [(m.line, m.checker, m.code, m.message) for m in markers] == [
        (1, "pyright", "reportAssignmentType", None),
        (1, "basedpyright", "reportAssignmentType", None),
        (1, "mypy", "assignment", None),
        (2, "mypy-plugin", "jaxdc-data", "data field 'y' is wrong"),
    ]


@pytest.mark.parametrize(
    "line",
    [
        "x = 1  # E: mypy",  # no code
        "x = 1  # E: pycharm foo",  # unknown checker
        "x = 1  # E: mypy-plugin jaxdc-data",  # the plugin's code without its message
    ],
)
def test_malformed_markers_are_refused(line: str) -> None:
    with pytest.raises(ValueError):
        parse_markers("case.py", line)


def test_compare_reports_missing_unexpected_and_reworded() -> None:
    markers = parse_markers("case.py", SOURCE)
    exact = [Diagnostic("case.py", 2, "jaxdc-data", "data field 'y' is wrong")]
    assert compare("mypy-plugin", markers, exact) == []
    assert compare("mypy-plugin", markers, []) == [
        "case.py:2: mypy-plugin jaxdc-data: expected, not reported"
    ]
    extra = [*exact, Diagnostic("case.py", 1, "misc", "boom")]
    assert compare("mypy-plugin", markers, extra) == [
        "case.py:1: mypy-plugin misc: unexpected: boom"
    ]
    reworded = [Diagnostic("case.py", 2, "jaxdc-data", "other words")]
    (problem,) = compare("mypy-plugin", markers, reworded)
    assert "expected message" in problem and "other words" in problem
    twice = [*exact, *exact]
    assert compare("mypy-plugin", markers, twice) == [
        "case.py:2: mypy-plugin jaxdc-data: unexpected: data field 'y' is wrong"
    ]
