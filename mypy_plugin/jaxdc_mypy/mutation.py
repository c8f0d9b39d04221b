"""``jaxdc.attr(obj, lambda o: o.a).set(v)``: only where the runtime allows the assignment.

The stubs type the path and the value, but cannot say *where* assignment is allowed: the
runtime permits it on ``self`` inside ``__init__``/``__post_init__`` (never to an excluded
field, whose value unflatten would drop) and on the object a
``with jaxdc.copy_and_mutate(...) as new:`` block binds, inside that block. Anywhere else
``.set()`` raises. The checks are lexical, so correct code never gets an alarm: an object
that is not a jaxdc class, or a ``where`` that is not a lambda, is left alone.
"""

from __future__ import annotations

from mypy.nodes import (
    CallExpr,
    Expression,
    FuncItem,
    IndexExpr,
    LambdaExpr,
    MemberExpr,
    MypyFile,
    NameExpr,
    RefExpr,
    ReturnStmt,
    WithStmt,
)
from mypy.plugin import FunctionContext
from mypy.types import Instance, Type, get_proper_type

from . import compat, messages, names, syntax
from .describe import class_name
from .fields import EXCLUDED, is_pytree_class, pytree_fields

_CONSTRUCTORS = ("__init__", "__post_init__")


def check_attr_call(ctx: FunctionContext) -> Type:
    """Function hook for ``jaxdc.attr``."""
    if len(ctx.args) >= 2 and ctx.args[0] and ctx.args[1]:
        _check(ctx.args[0][0], ctx.args[1][0], ctx)
    return ctx.default_return_type


def _check(obj: Expression, where: Expression, ctx: FunctionContext) -> None:
    path = _attribute_path(where)
    if isinstance(where, LambdaExpr) and path is None:
        messages.NOT_A_PATH.report(ctx.api, ctx.context)
        return
    obj_type = get_proper_type(ctx.arg_types[0][0]) if ctx.arg_types[0] else None
    if not isinstance(obj_type, Instance) or not is_pytree_class(obj_type.type):
        return
    function = compat.current_function(ctx.api)
    if _is_self_in_constructor(obj, function):
        if path:
            kinds = {field.name: field.kind for field in pytree_fields(obj_type.type)}
            if kinds.get(path[0]) == EXCLUDED:
                message = messages.excluded_in_construction(path[0], class_name(obj_type.type))
                message.report(ctx.api, ctx.context)
        return
    root = _root_name(obj)
    scope = function if function is not None else compat.checked_module(ctx.api)
    if root is not None and _inside_copy_and_mutate(root, ctx.context.line, scope):
        return
    shown = ".".join(path) if path else None
    messages.frozen_assignment(shown, class_name(obj_type.type)).report(ctx.api, ctx.context)


def _attribute_path(where: Expression) -> list[str] | None:
    """``lambda o: o.a.b`` -> ["a", "b"]; None if ``where`` is not such a lambda."""
    if not isinstance(where, LambdaExpr) or len(where.arguments) != 1:
        return None
    body = where.body.body
    if len(body) != 1 or not isinstance(body[0], ReturnStmt) or body[0].expr is None:
        return None
    expr, path = body[0].expr, []
    while isinstance(expr, MemberExpr):
        path.append(expr.name)
        expr = expr.expr
    if not path or not isinstance(expr, NameExpr):
        return None
    if expr.name != where.arguments[0].variable.name:
        return None
    return path[::-1]


def _is_self_in_constructor(obj: Expression, function: FuncItem | None) -> bool:
    if function is None or getattr(function, "name", None) not in _CONSTRUCTORS:
        return False
    if not function.arguments or not isinstance(obj, NameExpr):
        return False
    return obj.node is function.arguments[0].variable


def _root_name(obj: Expression) -> NameExpr | None:
    """``new`` for ``new``, ``new.a.b``, ``new.layers[1]`` (nodes reached through the
    block's object, including through lists and dicts, are editable too)."""
    while isinstance(obj, (MemberExpr, IndexExpr)):
        obj = obj.expr if isinstance(obj, MemberExpr) else obj.base
    return obj if isinstance(obj, NameExpr) else None


def _inside_copy_and_mutate(root: NameExpr, line: int, scope: FuncItem | MypyFile) -> bool:
    """Whether ``line`` is in the body of ``with jaxdc.copy_and_mutate(...) as <root>:``."""
    statements = scope.body.body if isinstance(scope, FuncItem) else scope.defs
    for stmt in syntax.statements(statements, into_definitions=False):
        if isinstance(stmt, WithStmt) and _binds_copy(stmt, root):
            if stmt.body.line <= line <= (stmt.body.end_line or stmt.body.line):
                return True
    return False


def _binds_copy(stmt: WithStmt, root: NameExpr) -> bool:
    return any(
        isinstance(expr, CallExpr)
        and isinstance(expr.callee, RefExpr)
        and expr.callee.fullname == names.COPY_AND_MUTATE
        and isinstance(target, NameExpr)
        and target.node is not None
        and target.node is root.node
        for expr, target in zip(stmt.expr, stmt.target)
    )
