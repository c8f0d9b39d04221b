"""``@jaxdc.jit`` / ``@jaxdc.jit(...)``: parameters annotated ``Static[...]`` must be hashable.

JAX uses static arguments as jit cache keys, so the rule is the one for static fields.
The marker is only visible in the function's unanalysed signature, resolved in the
module being checked (any import alias of ``Static`` works).
"""

from __future__ import annotations

from mypy.nodes import CallExpr, Decorator, FuncDef
from mypy.plugin import FunctionContext
from mypy.types import CallableType, Type

from . import compat, messages, names, syntax
from .checks import ClassChecker


class JitChecker:
    def __init__(self, classes: ClassChecker) -> None:
        self._classes = classes  # the same rules and configured classes as static fields

    def __call__(self, ctx: FunctionContext) -> Type:
        func = _jitted_function(ctx)
        if func is not None:
            self._check(func, ctx)
        return ctx.default_return_type

    def _check(self, func: FuncDef, ctx: FunctionContext) -> None:
        written, analysed = func.unanalyzed_type, func.type
        if not isinstance(written, CallableType) or not isinstance(analysed, CallableType):
            return
        rules = self._classes.rules(ctx.api)
        for argument, annotation, typ in zip(func.arguments, written.arg_types, analysed.arg_types):
            name = compat.annotation_name(annotation)
            if name is None:
                continue
            sym = compat.lookup_in_checked_module(ctx.api, name)
            if sym is None or sym.node is None or sym.node.fullname != names.STATIC:
                continue
            problem = rules.unhashable_part(typ)
            if problem is not None:
                message = messages.jit_static_unhashable(argument.variable.name, func.name, problem)
                message.report(ctx.api, argument)


def _jitted_function(ctx: FunctionContext) -> FuncDef | None:
    """The function under ``@jit`` or ``@jit(...)``.

    mypy checks a bare decorator with the Decorator node as context; for the call form the
    hook sees the call ``jit(...)`` itself, so find the decorated function it belongs to.
    ``jit(f)`` as a plain call is not checked: ``f`` may live in another file.
    """
    if isinstance(ctx.context, Decorator):
        return ctx.context.func
    if isinstance(ctx.context, CallExpr):
        module = compat.checked_module(ctx.api)
        for stmt in syntax.statements(module.defs, into_definitions=True):
            if isinstance(stmt, Decorator) and any(d is ctx.context for d in stmt.decorators):
                return stmt.func
    return None
