"""Assigning fields of jaxdc instances, plainly or with ``jaxdc.attr``: checked in place.

Only the two windows of ``windows`` allow it. Inside them the plugin takes back mypy's
"Property ... is read-only" (the stubs declare every jaxdc class frozen), so ``self.w = x``
in ``__init__`` and ``new.params.encoder.w = x`` in a ``copy_and_mutate`` block are clean
while mypy still checks the attribute exists and the value's type. Outside them mypy's
error stays, with a note naming the fix; a field left out of the pytree gets the runtime's
own error instead. ``jaxdc.attr(obj, lambda o: o.a.b).set(v)`` follows the same windows.

The copy a block binds is ``Any`` in the stubs (the only type that keeps the block clean
for checkers without a plugin); the plugin gives it back the type of the original.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from mypy.nodes import Context, Expression, IndexExpr, LambdaExpr, MemberExpr, NameExpr, ReturnStmt
from mypy.plugin import AttributeContext, CheckerPluginInterface, FunctionContext
from mypy.types import FunctionLike, Instance, Type, TypeVarType, UnionType, get_proper_type

from . import compat, messages
from .describe import class_name
from .fields import EXCLUDED, is_pytree_class, pytree_fields

if TYPE_CHECKING:
    from .windows import Window


def copy_type(ctx: FunctionContext) -> Type:
    """``copy_and_mutate(obj)``: the copy it yields has the type of ``obj``."""
    returned = get_proper_type(ctx.default_return_type)
    if not (ctx.arg_types and ctx.arg_types[0] and isinstance(returned, Instance)):
        return ctx.default_return_type
    return returned.copy_modified(args=[ctx.arg_types[0][0]])


def check_field_assignment(ctx: AttributeContext) -> Type:
    """Attribute hook for the fields of jaxdc classes: ``obj.<name> = value``."""
    target = ctx.context
    if not (isinstance(target, MemberExpr) and compat.is_assignment_target(ctx)):
        return ctx.default_attr_type
    name = target.name
    reported = compat.read_only_errors(ctx.api, target, name)
    if not reported:
        return ctx.default_attr_type
    owners = _instances(ctx.type)
    if not owners or not all(is_pytree_class(owner.type) for owner in owners):
        return ctx.default_attr_type
    window = _window(target.expr, target, ctx.api)
    if window is None:
        messages.read_only_note(name, class_name(owners[0].type)).note(ctx.api, target)
        return ctx.default_attr_type
    compat.retract(ctx.api, reported)
    for owner in owners:
        problem = _left_out(owner, name, window)
        if problem is not None:
            problem.report(ctx.api, target)
            break
    return ctx.default_attr_type


def check_attr_call(ctx: FunctionContext) -> Type:
    """Function hook for ``jaxdc.attr(obj, where)``."""
    if len(ctx.args) >= 2 and ctx.args[0] and ctx.args[1]:
        _check_attr(ctx.args[0][0], ctx.args[1][0], ctx)
    return ctx.default_return_type


def _check_attr(obj: Expression, where: Expression, ctx: FunctionContext) -> None:
    path = _attribute_path(where)
    if isinstance(where, LambdaExpr) and path is None:
        messages.NOT_A_PATH.report(ctx.api, ctx.context)
        return
    arg_type = get_proper_type(ctx.arg_types[0][0]) if ctx.arg_types[0] else None
    if isinstance(arg_type, FunctionLike) and arg_type.is_type_obj():  # the class itself
        cls = class_name(arg_type.type_object())
        messages.attr_not_jaxdc(cls, is_class=True).report(ctx.api, ctx.context)
        return
    obj_type = _instance(arg_type) if arg_type is not None else None
    if obj_type is not None and not is_pytree_class(obj_type.type):
        if obj_type.type.fullname not in _ATTR_CONTAINERS_AND_SCALARS:
            cls = class_name(obj_type.type)
            messages.attr_not_jaxdc(cls, is_class=False).report(ctx.api, ctx.context)
        return
    if obj_type is None:
        return
    window = _window(obj, ctx.context, ctx.api)
    from .windows import Window  # loaded by `_window`

    # `.set()` on `self` in a constructor assigns `self.<first>`: a longer path assigns a
    # field of another, finished object.
    if window is Window.CONSTRUCTOR and path is not None and len(path) > 1:
        window = None
    if window is None:
        shown = _show(path) if path else None
        messages.frozen_assignment(shown, class_name(obj_type.type)).report(ctx.api, ctx.context)
    elif path is not None and len(path) == 1 and isinstance(path[0], str):
        problem = _left_out(obj_type, path[0], window)
        if problem is not None:
            problem.report(ctx.api, ctx.context)


# What `jaxdc.attr` takes that is not a jaxdc instance (containers a block copies), and
# values whose runtime message shows the value, which mypy does not know (left to it).
_ATTR_CONTAINERS_AND_SCALARS = frozenset(
    f"builtins.{name}" for name in "list dict tuple object int float complex bool str bytes".split()
)


def _instances(typ: Type) -> list[Instance]:
    """The class instances an assignment's object may be: each member of a union (mypy
    calls the hook once per member, each time with the whole union, right after reporting
    that member's read-only error), else the one instance; none if a member is not one.
    Messages repeated for each member are shown once (mypy drops a line's duplicates)."""
    proper = get_proper_type(typ)
    members = (
        [_instance(item) for item in proper.items]
        if isinstance(proper, UnionType)
        else [_instance(proper)]
    )
    return [] if None in members else [member for member in members if member is not None]


def _instance(typ: Type) -> Instance | None:
    """The class instance ``typ`` is, seeing through ``Self`` and other type variables."""
    proper = get_proper_type(typ)
    if isinstance(proper, TypeVarType):
        proper = get_proper_type(proper.upper_bound)
    return proper if isinstance(proper, Instance) else None


def _window(owner: Expression, context: Context, api: CheckerPluginInterface) -> Window | None:
    """Loads ``windows`` at the first assignment mypy calls read-only (or ``jaxdc.attr``
    call): most runs have none, and never pay for importing it."""
    from .windows import find_window

    module = compat.checked_module(api)
    return find_window(owner, context.line, compat.current_function(api), module)


def _left_out(owner: Instance, name: str, window: Window) -> messages.ErrorMessage | None:
    """The runtime's error for setting field ``name`` of ``owner`` in ``window``, if any."""
    fields = pytree_fields(owner.type)
    if not any(field.name == name and field.kind == EXCLUDED for field in fields):
        return None
    cls = class_name(owner.type)
    from .windows import Window  # loaded by `_window`, which found `window`

    if window is Window.CONSTRUCTOR:
        return messages.excluded_in_construction(name, cls)
    return messages.edit_no_such_field(name, cls, [field.name for field in fields])


# One step of an attribute path: a name (`.a`) or an index (`[0]`, `[key]`, as written).
Step = str | IndexExpr


def _attribute_path(where: Expression) -> list[Step] | None:
    """``lambda o: o.a.b`` -> ["a", "b"]; ``lambda n: n.layers[0].w`` -> ["layers", <[0]>,
    "w"]; None if ``where`` is not a one-argument lambda returning such a path."""
    if not isinstance(where, LambdaExpr) or len(where.arguments) != 1:
        return None
    body = where.body.body
    if len(body) != 1 or not isinstance(body[0], ReturnStmt) or body[0].expr is None:
        return None
    expr, path = body[0].expr, []
    while isinstance(expr, (MemberExpr, IndexExpr)):
        path.append(expr.name if isinstance(expr, MemberExpr) else expr)
        expr = expr.expr if isinstance(expr, MemberExpr) else expr.base
    if not path or not isinstance(expr, NameExpr):
        return None
    if expr.name != where.arguments[0].variable.name:
        return None
    return path[::-1]


def _show(path: list[Step]) -> str:
    """The path as the user wrote it: ``layers[0].w``."""
    shown = ""
    for step in path:
        if isinstance(step, str):
            shown += f".{step}" if shown else step
        else:
            shown += f"[{_source(step.index)}]"
    return shown


def _source(index: Expression) -> str:
    value = getattr(index, "value", None)
    if isinstance(value, (int, str)):
        return repr(value)
    return getattr(index, "name", "...")
