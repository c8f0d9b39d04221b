"""Precise signatures for ``jaxdc.replace(obj, **changes)`` and ``obj.replace(**changes)``.

The stubs can only say ``**changes: Any``. Given the object's type, the plugin knows the
class's init fields and their types, so an unknown keyword or a wrongly typed value is
reported by mypy's own call checking (codes ``call-arg`` / ``arg-type``).
"""

from __future__ import annotations

from mypy.nodes import ARG_NAMED, ARG_NAMED_OPT, ARG_POS, ArgKind, CallExpr
from mypy.plugin import FunctionSigContext, MethodSigContext
from mypy.types import CallableType, Instance, Type, get_proper_type

from . import compat, names
from .fields import EXCLUDED, is_pytree_class, pytree_fields


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
    field_names, kinds, types = _keywords(instance)
    return signature.copy_modified(
        arg_names=[signature.arg_names[0], *field_names],
        arg_kinds=[signature.arg_kinds[0], *kinds],
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
    field_names, kinds, types = _keywords(instance)
    return signature.copy_modified(arg_names=field_names, arg_kinds=kinds, arg_types=types)


def _pytree_instance(typ: Type) -> Instance | None:
    typ = get_proper_type(typ)
    if isinstance(typ, Instance) and is_pytree_class(typ.type) and "dataclass" in typ.type.metadata:
        return typ
    return None


def _keywords(instance: Instance) -> tuple[list[str | None], list[ArgKind], list[Type]]:
    """What replace takes, as the runtime does: the fields the pytree carries (``init=False``
    ones too; a ``pytree=False`` field's new value would revert to its default after
    ``jit``), optional; and the InitVars ``__post_init__`` is given again, required when
    they have no default (a class with its own ``__init__`` takes none: replace does not
    run its ``__post_init__``)."""
    accepted: list[str | None] = []
    kinds: list[ArgKind] = []
    types: list[Type] = []
    excluded = {f.name for f in pytree_fields(instance.type) if f.kind == EXCLUDED}
    for name, _ in compat.dataclass_fields(instance.type):
        typ = compat.member_type(instance, name)
        if typ is not None and name not in excluded:
            accepted.append(name)
            kinds.append(ARG_NAMED_OPT)
            types.append(typ)
    init = instance.type.get_method("__init__")
    init_type = init.type if init is not None else None
    if isinstance(init_type, CallableType):
        for name, has_default in compat.dataclass_initvars(instance.type):
            if name in init_type.arg_names:
                accepted.append(name)
                kinds.append(ARG_NAMED_OPT if has_default else ARG_NAMED)
                types.append(init_type.arg_types[init_type.arg_names.index(name)])
    return accepted, kinds, types
