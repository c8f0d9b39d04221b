"""Where a field of a frozen jaxdc instance may be assigned: the runtime's two windows.

The runtime (``jaxdc._frozen``) lets a field be set only

- on ``self`` inside its class's ``__init__``/``__post_init__``, never a field left out of
  the pytree (unflatten would drop its value), and
- inside ``with jaxdc.copy_and_mutate(obj) as new:``, on ``new`` and on the nodes reached
  through it (``new.a.b``, ``new.layers[0]``), never a field left out of the pytree.

The stubs can only declare the classes frozen, so every checker calls those assignments
read-only. The plugin knows the windows and decides from the source, lexically: the
statement's function and the ``with`` blocks of the module. A name bound inside a block
(``enc = new.params.encoder``, ``for layer in new.layers``) counts as reached through the
copy; a name bound before the block (the original object) does not, nor does ``new``
after its block. That is the whole rule: it needs no types, so it behaves the same in a
cold run, a warm one and the daemon.
"""

from __future__ import annotations

import enum
from typing import NamedTuple

from mypy.nodes import (
    CallExpr,
    Expression,
    FuncItem,
    IndexExpr,
    MemberExpr,
    MypyFile,
    NameExpr,
    RefExpr,
    Var,
    WithStmt,
)

from . import names, syntax

CONSTRUCTORS = ("__init__", "__post_init__")


class Window(enum.Enum):
    CONSTRUCTOR = "constructor"
    """``self.<field>`` in ``__init__``/``__post_init__``."""
    BLOCK = "block"
    """Inside a ``copy_and_mutate`` block, through its copy."""


class _Block(NamedTuple):
    target: Var
    """The variable ``as new`` binds."""
    first: int
    last: int
    """First and last line of the block's body."""


def root_name(expr: Expression) -> NameExpr | None:
    """``new`` for ``new``, ``new.a.b`` and ``new.layers[1]``; None for ``f().a``."""
    while isinstance(expr, (MemberExpr, IndexExpr)):
        expr = expr.expr if isinstance(expr, MemberExpr) else expr.base
    return expr if isinstance(expr, NameExpr) else None


def find_window(
    owner: Expression, line: int, function: FuncItem | None, module: MypyFile
) -> Window | None:
    """The window that allows setting a field of ``owner`` on ``line``, if any.

    ``owner`` is the object whose field is set: ``new.a`` in ``new.a.b = v``.
    """
    if _is_self(owner, function):
        return Window.CONSTRUCTOR
    root = root_name(owner)
    if root is not None and _in_block(root, line, module):
        return Window.BLOCK
    return None


def _in_block(root: NameExpr, line: int, module: MypyFile) -> bool:
    var = root.node
    for block in _blocks_around(line, module):
        if not block.first <= line <= block.last:
            continue
        if var is block.target:
            return True
        # A name bound inside the block: an alias of a node of the copy, a loop variable.
        if isinstance(var, Var) and block.first <= var.line <= block.last:
            return True
    return False


def _is_self(owner: Expression, function: FuncItem | None) -> bool:
    if function is None or getattr(function, "name", None) not in CONSTRUCTORS:
        return False
    if not function.arguments or not isinstance(owner, NameExpr):
        return False
    return owner.node is function.arguments[0].variable


def _blocks_around(line: int, module: MypyFile) -> list[_Block]:
    """The ``copy_and_mutate`` blocks of the top-level statement that holds ``line``.

    Scanning only that statement keeps the cost independent of the module's size; nothing
    is cached, so an edited module (the daemon reuses module objects) is never misread.
    """
    around = [stmt for stmt in module.defs if stmt.line <= line <= (stmt.end_line or stmt.line)]
    blocks = []
    for stmt in syntax.statements(around, into_definitions=True):
        if not isinstance(stmt, WithStmt):
            continue
        for expr, target in zip(stmt.expr, stmt.target, strict=True):
            if (
                isinstance(expr, CallExpr)
                and isinstance(expr.callee, RefExpr)
                and expr.callee.fullname == names.COPY_AND_MUTATE
                and isinstance(target, NameExpr)
                and isinstance(target.node, Var)
            ):
                last = stmt.body.end_line or stmt.body.line
                blocks.append(_Block(target.node, stmt.body.line, last))
    return blocks
