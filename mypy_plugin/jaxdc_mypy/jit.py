"""``Static[...]`` parameters of jitted functions.

- ``@jaxdc.jit`` / ``@jaxdc.jit(...)`` makes them static, so they must be hashable: JAX uses
  static arguments as jit cache keys, the rule is the one for static fields.
- ``@jax.jit`` / ``@jax.jit(...)`` does not read the annotation: a ``Static[...]`` parameter
  not named in ``static_argnames``/``static_argnums`` is traced, which the annotation says
  it must not be.

The marker is only visible in the function's unanalysed signature, resolved in the
module being checked (any import alias of ``Static`` works).
"""

from __future__ import annotations

from collections.abc import Iterator

from mypy.nodes import (
    Argument,
    CallExpr,
    Decorator,
    Expression,
    FuncDef,
    IntExpr,
    ListExpr,
    StrExpr,
    SymbolTableNode,
    TupleExpr,
)
from mypy.plugin import CheckerPluginInterface, FunctionContext
from mypy.types import CallableType, Type

from . import compat, messages, syntax
from .checks import ClassChecker
from .static_bound import retract_bound_errors
from .static_spelling import is_static_spelling


class JitChecker:
    def __init__(self, classes: ClassChecker) -> None:
        self._classes = classes  # the same rules and configured classes as static fields

    def __call__(self, ctx: FunctionContext) -> Type:
        func = _jitted_function(ctx)
        if func is not None:
            self._check(func, ctx)
        return ctx.default_return_type

    def _check(self, func: FuncDef, ctx: FunctionContext) -> None:
        rules = self._classes.rules(ctx.api)
        static = list(_static_parameters(func, ctx.api))
        written = func.unanalyzed_type
        retract_bound_errors(
            ctx.api,
            {argument.line for _, argument, _ in static},
            lambda: [
                written.arg_types[index]
                for index, _, _ in static
                if isinstance(written, CallableType)
            ],
        )
        for _, argument, typ in static:
            name = argument.variable.name
            problem = rules.unhashable_part(typ)
            if problem is not None:
                message = messages.jit_static_unhashable(name, func.name, problem)
                message.report(ctx.api, argument)
            elif kind := self._classes.float_static(typ):
                message = messages.float_static_parameter(name, func.name, rules.show(typ), kind)
                message.report(ctx.api, argument)


def check_jax_jit(ctx: FunctionContext) -> Type:
    """Function hook for ``jax.jit``: ``Static[...]`` parameters it is not told about."""
    func = _jitted_function(ctx)
    static = _named_static(ctx.context) if func is not None else None
    if func is None or static is None:
        return ctx.default_return_type
    for index, argument, _ in _static_parameters(func, ctx.api):
        name = argument.variable.name
        if name not in static and index not in static:
            messages.jax_jit_ignores_static(name, func.name).report(ctx.api, argument)
    return ctx.default_return_type


def _static_parameters(
    func: FuncDef, api: CheckerPluginInterface
) -> Iterator[tuple[int, Argument, Type]]:
    """(position, argument, analysed type) of each parameter annotated ``Static[...]``,
    however spelled (``static_spelling``)."""
    written, analysed = func.unanalyzed_type, func.type
    if not isinstance(written, CallableType) or not isinstance(analysed, CallableType):
        return

    def lookup(name: str, _: object) -> SymbolTableNode | None:
        return compat.lookup_in_checked_module(api, name)

    parameters = zip(func.arguments, written.arg_types, analysed.arg_types, strict=False)
    for index, (argument, annotation, typ) in enumerate(parameters):
        if is_static_spelling(typ, annotation, lookup):
            yield index, argument, typ


def _named_static(context: object) -> set[str | int] | None:
    """The names and positions ``jax.jit(...)`` makes static (none for bare ``@jax.jit``);
    None when they are not literals, so nothing can be said."""
    if not isinstance(context, CallExpr):
        return set()
    named: set[str | int] = set()
    for keyword, value in zip(context.arg_names, context.args, strict=True):
        if keyword in ("static_argnames", "static_argnums"):
            literals = _literals(value)
            if literals is None:
                return None
            named |= literals
    return named


def _literals(expr: Expression) -> set[str | int] | None:
    items = expr.items if isinstance(expr, (TupleExpr, ListExpr)) else [expr]
    if not all(isinstance(item, (StrExpr, IntExpr)) for item in items):
        return None
    return {item.value for item in items if isinstance(item, (StrExpr, IntExpr))}


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
