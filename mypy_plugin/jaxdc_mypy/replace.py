"""Precise signatures for ``jaxdc.replace(obj, **changes)`` and ``obj.replace(**changes)``.

The stubs can only say ``**changes: Any``. Given the object's type, the plugin knows the
class's init fields and their types, so an unknown keyword or a wrongly typed value is
reported by mypy's own call checking (codes ``call-arg`` / ``arg-type``).

A class decorated with ``jaxdc.compat.flax_struct.dataclass`` gets ``.replace`` at runtime,
as with flax; no stub can add a method to a decorated class (PEP 681), so the plugin adds
it during semantic analysis and types it like ``PyTreeNode.replace``.
"""

from __future__ import annotations

from mypy.nodes import (
    ARG_NAMED,
    ARG_NAMED_OPT,
    ARG_POS,
    ARG_STAR2,
    ArgKind,
    Argument,
    CallExpr,
    SymbolTableNode,
    Var,
)
from mypy.plugin import ClassDefContext, FunctionSigContext, MethodSigContext
from mypy.plugins.common import add_method_to_class
from mypy.types import AnyType, CallableType, Instance, Type, TypeOfAny, get_proper_type
from mypy.typevars import fill_typevars

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
    if not _is_jaxdc_replace(instance.type.get("replace")):
        return signature  # the class defines a replace of its own
    field_names, kinds, types = _keywords(instance)
    return signature.copy_modified(arg_names=field_names, arg_kinds=kinds, arg_types=types)


def add_replace_method(ctx: ClassDefContext) -> None:
    """``replace(self, **changes) -> Self`` on a flax_struct-decorated class, unless the
    class defines its own (flax and jaxdc.compat keep a user's method)."""
    if "replace" in ctx.cls.info.names:
        return
    changes = Argument(Var("changes"), AnyType(TypeOfAny.explicit), None, ARG_STAR2)
    add_method_to_class(ctx.api, ctx.cls, "replace", [changes], fill_typevars(ctx.cls.info))


def _is_jaxdc_replace(method: SymbolTableNode | None) -> bool:
    """PyTreeNode's replace, or the one ``add_replace_method`` added."""
    if method is None:
        return False
    return method.fullname == names.PYTREE_NODE_REPLACE or method.plugin_generated


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
