"""Precise signatures for ``jaxdc.replace(obj, **changes)`` and ``obj.replace(**changes)``.

Before Python 3.13 the stubs can only say ``**changes: Any``; from 3.13 on they take the
keywords of the ``__replace__`` mypy synthesises, which leaves out ``init=False`` fields
(the runtime accepts them) and returns the class where the object is ``Self`` or a type
variable. Given the object's type, the plugin knows the fields ``replace`` takes and their
types, so it writes the signature itself, for every target version: an unknown keyword or
a wrongly typed value is reported once, by mypy's own call checking (codes ``call-arg`` /
``arg-type``), and the result has the object's own type.

A class decorated with ``jaxdc.compat.flax_struct.dataclass`` gets ``.replace`` at runtime,
as with flax; no stub can add a method to a decorated class (PEP 681), so the plugin adds
it during semantic analysis and types it like ``PyTreeNode.replace``.
"""

from __future__ import annotations

from mypy.meet import meet_types
from mypy.nodes import (
    ARG_NAMED,
    ARG_NAMED_OPT,
    ARG_POS,
    ARG_STAR2,
    MDEF,
    ArgKind,
    Argument,
    CallExpr,
    Context,
    Expression,
    MemberExpr,
    SymbolTableNode,
    TypeInfo,
    Var,
)
from mypy.plugin import (
    CheckerPluginInterface,
    ClassDefContext,
    FunctionSigContext,
    MethodSigContext,
)
from mypy.plugins.common import add_method_to_class
from mypy.types import (
    AnyType,
    CallableType,
    Instance,
    Type,
    TypeOfAny,
    TypeVarType,
    UnionType,
    get_proper_type,
)

from . import compat, names
from .converters import init_input_types
from .fields import EXCLUDED, is_pytree_class, pytree_fields


def replace_function_signature(ctx: FunctionSigContext) -> CallableType:
    """``replace(obj, /, **changes)`` before Python 3.13: the first argument decides the
    keywords."""
    return _with_object_first(ctx.default_signature, ctx.args, ctx.context, ctx.api)


def replace_call_signature(ctx: MethodSigContext) -> CallableType:
    """``replace(obj, ...)`` from Python 3.13 on, where ``replace`` is a callable object
    whose ``__call__`` takes the object first."""
    return _with_object_first(ctx.default_signature, ctx.args, ctx.context, ctx.api)


def bound_replace_signature(ctx: MethodSigContext) -> CallableType:
    """``obj.replace(...)`` from Python 3.13 on: ``PyTreeNode.replace`` is a descriptor
    whose ``__call__`` is bound to ``obj``."""
    receiver = _receiver_type(ctx)
    keywords = _keywords(receiver)
    if keywords is None:
        return ctx.default_signature
    field_names, kinds, types = keywords
    return ctx.default_signature.copy_modified(
        arg_names=field_names,
        arg_kinds=kinds,
        arg_types=types,
        ret_type=receiver,
        variables=[],
        name=f"replace of {names.PYTREE_NODE.rpartition('.')[2]}",
    )


def replace_method_signature(ctx: MethodSigContext) -> CallableType:
    """``obj.replace(**changes)`` before Python 3.13 (and the method the plugin adds to
    flax_struct classes): the receiver decides the keywords."""
    signature = ctx.default_signature
    instance = _pytree_instance(ctx.type)
    if instance is None:
        return signature
    if not _is_jaxdc_replace(instance.type.get("replace")):
        return signature  # the class defines a replace of its own
    field_names, kinds, types = _fields_keywords(instance)
    return signature.copy_modified(arg_names=field_names, arg_kinds=kinds, arg_types=types)


def _with_object_first(
    signature: CallableType,
    args: list[list[Expression]],
    context: Context,
    api: CheckerPluginInterface,
) -> CallableType:
    """``signature`` taking its first argument's type and returning it, with the fields of
    that object as keywords (unchanged when the object is not a jaxdc instance)."""
    if not args or len(args[0]) != 1 or not signature.arg_types:
        return signature
    obj = api.get_expression_type(args[0][0])
    keywords = _keywords(obj)
    if keywords is None:
        return signature
    field_names, kinds, types = keywords
    if isinstance(context, CallExpr) and context.arg_kinds.count(ARG_POS) > 1:
        # A change given positionally: mypy reports the extra argument once against
        # `(obj, /, **changes)`, where a signature of keywords only gets it twice.
        field_names, kinds, types = ["changes"], [ARG_STAR2], [AnyType(TypeOfAny.explicit)]
    return signature.copy_modified(
        arg_names=[signature.arg_names[0], *field_names],
        arg_kinds=[signature.arg_kinds[0], *kinds],
        arg_types=[obj, *types],
        ret_type=obj,
        variables=[],
        name="replace",
    )


def _receiver_type(ctx: MethodSigContext) -> Type:
    """The object a bound ``replace`` was taken from: the call's receiver as written
    (``self`` stays ``Self``), else the type the stubs bound it to."""
    callee = ctx.context.callee if isinstance(ctx.context, CallExpr) else None
    if isinstance(callee, MemberExpr):
        return ctx.api.get_expression_type(callee.expr)
    bound = get_proper_type(ctx.type)
    return bound.args[-1] if isinstance(bound, Instance) and bound.args else bound


def add_replace_method(ctx: ClassDefContext) -> bool:
    """``replace`` on a flax_struct-decorated class, declared exactly as the stubs declare
    ``PyTreeNode.replace`` (unless the class defines its own: flax and jaxdc.compat keep a
    user's method). flax's own tests derive from both (``class B(A, struct.PyTreeNode)``),
    and mypy requires the two bases' ``replace`` to agree: from Python 3.13 on the same
    descriptor (``ClassVar[_ReplaceMethod]``), before it ``(self: Self, **changes) -> Self``.
    False while the stubs' declaration is not analysed yet (mypy comes back)."""
    info = ctx.cls.info
    if "replace" in info.names:
        return True
    node_class = ctx.api.lookup_fully_qualified_or_none(names.PYTREE_NODE)
    if node_class is None or not isinstance(node_class.node, TypeInfo):
        return False
    declared = node_class.node.names.get("replace")
    node = declared.node if declared is not None else None
    if isinstance(node, Var):  # Python 3.13 on: the descriptor
        if node.type is None:
            return False
        method = Var("replace", node.type)
        method.info, method.is_classvar = info, True
        method._fullname = f"{info.fullname}.replace"
        info.names["replace"] = SymbolTableNode(MDEF, method, plugin_generated=True)
        return True
    self_type = compat.self_type_variable(info, "replace")
    changes = Argument(Var("changes"), AnyType(TypeOfAny.explicit), None, ARG_STAR2)
    add_method_to_class(
        ctx.api, ctx.cls, "replace", [changes], self_type, self_type=self_type, tvar_def=self_type
    )
    return True


def _is_jaxdc_replace(method: SymbolTableNode | None) -> bool:
    """PyTreeNode's replace, or the one ``add_replace_method`` added."""
    if method is None:
        return False
    return method.fullname == names.PYTREE_NODE_REPLACE or method.plugin_generated


def _pytree_instance(typ: Type) -> Instance | None:
    """The jaxdc instance type ``typ`` is, or is bounded by (``Self``, a type variable)."""
    typ = get_proper_type(typ)
    if isinstance(typ, TypeVarType):
        typ = get_proper_type(typ.upper_bound)
    if isinstance(typ, Instance) and is_pytree_class(typ.type) and "dataclass" in typ.type.metadata:
        return typ
    return None


def _keywords(obj: Type) -> tuple[list[str | None], list[ArgKind], list[Type]] | None:
    """What ``replace`` takes for ``obj``: a jaxdc instance's fields, or for a union of
    jaxdc instances (``A | B``) the keywords every member takes (the runtime replaces on
    whichever class the object has), each typed to suit every member; None otherwise."""
    proper = get_proper_type(obj)
    if not isinstance(proper, UnionType):  # most objects: one class
        instance = _pytree_instance(proper)
        return None if instance is None else _fields_keywords(instance)
    instances = [_pytree_instance(member) for member in proper.items]
    if not instances or any(instance is None for instance in instances):
        return None
    each = [_fields_keywords(instance) for instance in instances if instance is not None]
    return _common_keywords(each)


def _common_keywords(
    each: list[tuple[list[str | None], list[ArgKind], list[Type]]],
) -> tuple[list[str | None], list[ArgKind], list[Type]]:
    """The keywords in every one of ``each`` (in the first's order): required where any
    requires it, of a type every one accepts (their meet)."""
    by_name = [
        {name: (kind, typ) for name, kind, typ in zip(*keywords, strict=True)} for keywords in each
    ]
    accepted: list[str | None] = []
    kinds: list[ArgKind] = []
    types: list[Type] = []
    for name in each[0][0]:
        if any(name not in keywords for keywords in by_name):
            continue
        found = [keywords[name] for keywords in by_name]
        typ = found[0][1]
        for _, other in found[1:]:
            typ = meet_types(typ, other)
        accepted.append(name)
        kinds.append(ARG_NAMED if any(kind == ARG_NAMED for kind, _ in found) else ARG_NAMED_OPT)
        types.append(typ)
    return accepted, kinds, types


def _fields_keywords(instance: Instance) -> tuple[list[str | None], list[ArgKind], list[Type]]:
    """What replace takes, as the runtime does: the fields the pytree carries (``init=False``
    ones too; a ``pytree=False`` field's new value would revert to its default after
    ``jit``), optional, each of its converter's input type if it has one; and the InitVars
    ``__post_init__`` is given again, required when they have no default (a class with its
    own ``__init__`` takes none: replace does not run its ``__post_init__``)."""
    accepted: list[str | None] = []
    kinds: list[ArgKind] = []
    types: list[Type] = []
    fields = pytree_fields(instance.type)
    excluded = {f.name for f in fields if f.kind == EXCLUDED}
    converted = init_input_types(instance, fields)  # a converter field takes its input
    for name, _ in compat.dataclass_fields(instance.type):
        typ = converted.get(name) or compat.member_type(instance, name)
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
