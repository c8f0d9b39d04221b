"""``field(converter=...)``: what mypy's ``dataclass_transform`` support leaves out (mypy#17547).

mypy builds a jaxdc class's ``__init__`` (and ``__replace__``) from the fields' declared
types, ignoring ``converter=``, so ``x: jax.Array = field(converter=as_array)`` would
reject ``Model(np.zeros(3))``, which the runtime converts. The plugin retypes those
parameters to the converter's input, as the typing spec says and the other checkers do:

- a function: its first parameter's type; an overloaded one: the union of every
  overload's first parameter (what pyright, ty, pyrefly and zuban do);
- a class: the first parameter of its ``__init__`` (else ``__new__``); a generic class
  converting to the field's own class (``Box`` for ``Box[int]``) gets the field's type
  arguments, any other type variable becomes ``Any``;
- a lambda, an untyped function, or any other expression: ``Any``.

Inherited converter fields take the type from the base's (already retyped) methods, so a
base read from mypy's cache needs nothing but mypy's own data. The converter's
return type is checked against the field's type (``jaxdc-converter``) by ``checks``.
"""

from __future__ import annotations

from typing import NamedTuple

from mypy.nodes import (
    ARG_OPT,
    ARG_POS,
    ARG_STAR,
    AssignmentStmt,
    Decorator,
    Expression,
    FuncDef,
    NameExpr,
    OverloadedFuncDef,
    RefExpr,
    SymbolNode,
    TypeInfo,
    Var,
)
from mypy.types import (
    AnyType,
    CallableType,
    FunctionLike,
    Instance,
    Overloaded,
    Type,
    TypeOfAny,
    UnionType,
    get_proper_type,
)
from mypy.typevars import fill_typevars

from . import compat
from .fields import (
    PytreeField,
    converter_argument,
    converters_in_mro,
    declares_converters,
    pytree_fields,
)

_ANY = AnyType(TypeOfAny.special_form)
_GENERATED = ("__init__", *compat.GENERATED_REPLACE_METHODS)


class Converter(NamedTuple):
    """What a converter takes (the ``__init__`` parameter) and what it may return."""

    takes: Type
    returns: list[Type]
    """One per overload; empty when unknown (then nothing is checked)."""


def converter_of(expr: Expression, field_type: Type | None) -> Converter:
    """The input and output types of the converter ``expr`` for a field of ``field_type``."""
    signature, own_class = _signature(expr)
    if signature is None:
        return Converter(_ANY, [])
    items = signature.items
    takes = [_first_parameter(item) for item in items]
    returns = [item.ret_type for item in items]
    if own_class is not None:
        returns = [fill_typevars(own_class)] * len(items)
        field = get_proper_type(field_type)
        if isinstance(field, Instance) and field.type is own_class:  # Box for Box[int]
            takes = [compat.as_seen_from(t, field, own_class) for t in takes]
    takes = [compat.without_type_variables(t) for t in takes]
    returns = [compat.without_type_variables(t) for t in returns]
    return Converter(UnionType.make_union(takes) if len(takes) > 1 else takes[0], returns)


def own_converters(info: TypeInfo) -> dict[str, tuple[Expression, Converter]]:
    """The converter fields ``info`` declares itself, with the converter's expression."""
    found: dict[str, tuple[Expression, Converter]] = {}
    if not declares_converters(info):
        return found
    for stmt in info.defn.defs.body:  # fields and InitVars (whose converter runs too)
        if not isinstance(stmt, AssignmentStmt) or len(stmt.lvalues) != 1:
            continue
        target, expr = stmt.lvalues[0], converter_argument(stmt.rvalue)
        if expr is not None and isinstance(target, NameExpr):
            sym = info.names.get(target.name)
            field_type = sym.type if sym is not None else None
            found[target.name] = (expr, converter_of(expr, field_type))
    return found


def retype_generated_methods(info: TypeInfo) -> None:
    """Give the ``__init__``/``__replace__`` mypy generated for ``info`` the converters'
    input types (called once mypy has generated them; calling again changes nothing)."""
    inputs = _input_types(info)
    if not inputs:
        return
    for method in _GENERATED:
        sym = info.names.get(method)
        if sym is None or not sym.plugin_generated:
            continue
        func = _function(sym.node)
        if func is None or not isinstance(func.type, CallableType):
            continue
        types = [
            inputs.get(name, typ) if name else typ
            for name, typ in zip(func.type.arg_names, func.type.arg_types, strict=True)
        ]
        func.type = func.type.copy_modified(arg_types=types)
        if isinstance(sym.node, Decorator):  # a static method: its Var holds the type too
            sym.node.var.type = func.type
        for argument in func.arguments:
            if argument.variable.name in inputs:
                argument.variable.type = argument.type_annotation = inputs[argument.variable.name]
    compat.forget_constructor_type(info)


def _function(node: SymbolNode | None) -> FuncDef | None:
    """A generated method's function (a static method is wrapped in a Decorator)."""
    if isinstance(node, Decorator):
        return node.func
    return node if isinstance(node, FuncDef) else None


def init_input_types(instance: Instance, fields: list[PytreeField]) -> dict[str, Type]:
    """The converter fields of ``instance``'s class (``fields``: its ``pytree_fields``, which
    the caller has at hand) and what each takes, as seen on ``instance`` (what ``replace``
    takes for them)."""
    wanted = {f.name for f in fields if f.converter}
    if not wanted:
        return {}
    owner = next((base for base in instance.type.mro if _retyped(base) is not None), None)
    if owner is None:
        return {}
    return {
        name: compat.as_seen_from(typ, instance, owner)
        for name, typ in _retyped(owner) or ()
        if name in wanted
    }


def _input_types(info: TypeInfo) -> dict[str, Type]:
    """Own converter fields from their converters; inherited ones from the declaring base's
    retyped methods."""
    if not converters_in_mro(info):
        return {}  # the common case, decided without building the fields or the instance
    own = own_converters(info)
    inputs = {name: converter.takes for name, (_, converter) in own.items()}
    instance = compat.self_instance(info)
    for field in pytree_fields(info):
        if not field.converter or field.name in inputs or field.owner is info:
            continue
        for name, typ in _retyped(field.owner) or ():
            if name == field.name:
                inputs[name] = compat.as_seen_from(typ, instance, field.owner)
    return inputs


def _retyped(info: TypeInfo) -> list[tuple[str, Type]] | None:
    """(field, type) of the method mypy adds to every dataclass to type
    ``dataclasses.replace``, which ``retype_generated_methods`` retyped: there whether or not
    the class has its own ``__init__``, and in mypy's cache for a class read from it."""
    sym = info.names.get(compat.INTERNAL_REPLACE)
    func = _function(sym.node) if sym is not None else None
    if func is None or not isinstance(func.type, CallableType):
        return None
    typ = func.type
    return [(n, t) for n, t in zip(typ.arg_names, typ.arg_types, strict=True) if n is not None]


def _signature(expr: Expression) -> tuple[FunctionLike | None, TypeInfo | None]:
    """The converter's callable type, and the class it constructs when it is a class."""
    node: SymbolNode | None = expr.node if isinstance(expr, RefExpr) else None
    if isinstance(node, (FuncDef, OverloadedFuncDef)):
        return _function_like(node.type), None
    if isinstance(node, Decorator):
        return _function_like(node.var.type), None
    if isinstance(node, Var):
        typ = get_proper_type(node.type)
        if isinstance(typ, Instance):
            return _bound_method(typ.type, "__call__"), None
        return _function_like(node.type), None
    if isinstance(node, TypeInfo):
        for method in ("__init__", "__new__"):
            found = _bound_method(node, method)
            if found is not None:
                return found, node
        return None, None
    return None, None  # a lambda, a call (functools.partial(...)), ...


def _bound_method(info: TypeInfo, name: str) -> FunctionLike | None:
    """``info``'s own ``name`` method (not ``object``'s) without its first parameter."""
    method = info.get_method(name)
    if method is None or method.info.fullname == "builtins.object":
        return None
    typ = _function_like(method.type)
    if typ is None:
        return None
    bound = [
        item.copy_modified(
            arg_types=item.arg_types[1:],
            arg_kinds=item.arg_kinds[1:],
            arg_names=item.arg_names[1:],
        )
        for item in typ.items
        if item.arg_types
    ]
    if not bound:
        return None
    return Overloaded(bound) if len(bound) > 1 else bound[0]


def _function_like(typ: Type | None) -> FunctionLike | None:
    """A typed function's type; None for an untyped one (its parameters are ``Any``)."""
    proper = get_proper_type(typ)
    if isinstance(proper, CallableType) and proper.implicit:
        return None  # def f(x): ... (mypy gives it an implicit all-Any signature)
    return proper if isinstance(proper, (CallableType, Overloaded)) else None


def _first_parameter(item: CallableType) -> Type:
    """The type of the argument the converter is called with: its first positional
    parameter (``*args``' element type), else ``Any``."""
    if item.arg_kinds and item.arg_kinds[0] in (ARG_POS, ARG_OPT, ARG_STAR):
        return item.arg_types[0]
    return _ANY
