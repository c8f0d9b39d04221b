"""Precise signatures for ``jaxdc.replace(obj, **changes)`` and ``obj.replace(**changes)``.

The stubs can only say ``**changes: Any``. Given the object's type, the plugin knows the
class's init fields and their types, so an unknown keyword or a wrongly typed value is
reported by mypy's own call checking (codes ``call-arg`` / ``arg-type``).
"""

from __future__ import annotations

from mypy.nodes import ARG_NAMED_OPT, ARG_POS, CallExpr
from mypy.plugin import FunctionSigContext, MethodSigContext
from mypy.types import CallableType, Instance, Type, get_proper_type

from . import compat, names
from .fields import is_pytree_class


def replace_function_signature(ctx: FunctionSigContext) -> CallableType:
    """``replace(obj, /, **changes)``: the first argument decides the keywords."""
    signature = ctx.default_signature
    if not ctx.args or len(ctx.args[0]) != 1 or not signature.arg_types:
        return signature
    if isinstance(ctx.context, CallExpr) and ctx.context.arg_kinds.count(ARG_POS) > 1:
        return signature  # mypy reports the extra positional argument; one error is enough
    instance = _pytree_instance(ctx.api.get_expression_type(ctx.args[0][0]))
    if instance is None:
        return signature
    field_names, types = _init_fields(instance)
    return signature.copy_modified(
        arg_names=[signature.arg_names[0], *field_names],
        arg_kinds=[signature.arg_kinds[0], *([ARG_NAMED_OPT] * len(field_names))],
        arg_types=[signature.arg_types[0], *types],
    )


def replace_method_signature(ctx: MethodSigContext) -> CallableType:
    """``obj.replace(**changes)``: the receiver decides the keywords."""
    signature = ctx.default_signature
    instance = _pytree_instance(ctx.type)
    if instance is None:
        return signature
    method = instance.type.get("replace")
    if method is None or method.fullname != names.PYTREE_NODE_REPLACE:
        return signature  # the class defines a replace of its own
    field_names, types = _init_fields(instance)
    return signature.copy_modified(
        arg_names=list(field_names),
        arg_kinds=[ARG_NAMED_OPT] * len(field_names),
        arg_types=list(types),
    )


def _pytree_instance(typ: Type) -> Instance | None:
    typ = get_proper_type(typ)
    if isinstance(typ, Instance) and is_pytree_class(typ.type) and "dataclass" in typ.type.metadata:
        return typ
    return None


def _init_fields(instance: Instance) -> tuple[list[str], list[Type]]:
    """Names and types of the fields ``__init__`` accepts (what replace can change)."""
    accepted: list[str] = []
    types: list[Type] = []
    for name, in_init in compat.dataclass_fields(instance.type):
        typ = compat.member_type(instance, name)
        if in_init and typ is not None:
            accepted.append(name)
            types.append(typ)
    return accepted, types
