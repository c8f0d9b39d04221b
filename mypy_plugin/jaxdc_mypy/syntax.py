"""Walking statements of a module or function body.

mypy's own ``TraverserVisitor`` is compiled (a mypyc trait), so a plugin cannot subclass
it; the few walks the plugin needs are a loop over nested blocks.
"""

from __future__ import annotations

from collections.abc import Iterator

from mypy.nodes import Block, ClassDef, Decorator, FuncItem, Statement

# Statement attributes holding nested blocks (if/for/while/with/try/match bodies).
_BLOCK_ATTRIBUTES = ("body", "else_body", "finally_body", "handlers", "bodies")


def statements(body: list[Statement], *, into_definitions: bool) -> Iterator[Statement]:
    """Every statement in ``body`` and its nested blocks; with ``into_definitions``, also
    inside nested functions and classes (otherwise those are yielded but not entered)."""
    pending = list(body)
    while pending:
        stmt = pending.pop()
        yield stmt
        if isinstance(stmt, (FuncItem, ClassDef, Decorator)):
            if into_definitions:
                pending.extend(_definition_body(stmt))
            continue
        for attribute in _BLOCK_ATTRIBUTES:
            value = getattr(stmt, attribute, None)
            for block in value if isinstance(value, list) else [value]:
                if isinstance(block, Block):
                    pending.extend(block.body)


def _definition_body(stmt: FuncItem | ClassDef | Decorator) -> list[Statement]:
    if isinstance(stmt, Decorator):
        return stmt.func.body.body
    if isinstance(stmt, ClassDef):
        return stmt.defs.body
    return stmt.body.body
