"""A test that expects an exception says which one: every `pytest.raises` in tests/ matches
the message (`match=`) or binds the exception (`as info`) to check it.

A bare `pytest.raises(TypeError)` passes on any TypeError, including one from an internal
bug or from another field than the one under test (issue 20 §1).
"""

from __future__ import annotations

import ast
from pathlib import Path

TESTS = Path(__file__).resolve().parent


def _raises(node: ast.AST) -> bool:
    return isinstance(node, ast.Call) and ast.unparse(node.func) == "pytest.raises"


def unchecked_raises(source: str) -> list[int]:
    """Lines of `with pytest.raises(...)` that neither match a message nor bind the
    exception, and of the call form, which can do neither."""
    lines = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.With):
            for item in node.items:
                call = item.context_expr
                if _raises(call) and item.optional_vars is None:
                    assert isinstance(call, ast.Call)
                    if not any(k.arg == "match" for k in call.keywords):
                        lines.append(node.lineno)
        elif _raises(node) and isinstance(node, ast.Call) and len(node.args) > 1:
            lines.append(node.lineno)  # pytest.raises(E, function, ...)
    return sorted(lines)


def test_every_expected_exception_is_checked() -> None:
    found = [
        f"{path.name}:{line}"
        for path in sorted(TESTS.glob("*.py"))
        for line in unchecked_raises(path.read_text())
    ]
    assert found == [], "add match= (the message's words) to: " + ", ".join(found)


def test_the_check_finds_bare_raises() -> None:
    source = (
        "import pytest\n"
        "with pytest.raises(TypeError):\n    f()\n"
        "with pytest.raises(TypeError, match='x'):\n    f()\n"
        "with pytest.raises(TypeError) as info:\n    f()\n"
        "pytest.raises(TypeError, f)\n"
    )
    assert unchecked_raises(source) == [2, 8]
