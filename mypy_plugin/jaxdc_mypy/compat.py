"""Every mypy import that is not part of the documented plugin API lives here.

mypy's plugin interface (``mypy.plugin``, ``mypy.types``, ``mypy.nodes``) is stable across
the supported range; the names below are internals that moved or may move between
releases. When one does, this is the only file to change.
"""

from __future__ import annotations

import os
from collections.abc import Callable

import mypy
from mypy.erasetype import erase_typevars
from mypy.errorcodes import ErrorCode
from mypy.errors import ErrorInfo
from mypy.expandtype import expand_type_by_instance
from mypy.maptype import map_instance_to_supertype
from mypy.messages import format_type_bare
from mypy.nodes import (
    MDEF,
    Context,
    Expression,
    FuncItem,
    MypyFile,
    SymbolTableNode,
    TypeInfo,
    TypeVarExpr,
    Var,
)
from mypy.options import Options
from mypy.plugin import AttributeContext, CheckerPluginInterface, ClassDefContext
from mypy.plugins.dataclasses import dataclass_class_maker_callback, dataclass_tag_callback
from mypy.semanal_shared import find_dataclass_transform_spec
from mypy.server.trigger import make_trigger
from mypy.subtypes import is_subtype
from mypy.types import AnyType, Instance, Type, TypeOfAny, TypeVarId, TypeVarType
from mypy.typevars import fill_typevars

_TYPESHED = os.path.join(os.path.dirname(os.path.abspath(mypy.__file__)), "typeshed")
_SITE_PACKAGES = f"{os.sep}site-packages{os.sep}"
_DIST_PACKAGES = f"{os.sep}dist-packages{os.sep}"


def tag_dataclass(ctx: ClassDefContext) -> None:
    """Do what mypy does in pass 1 for a ``dataclass_transform`` decorator.

    Returning our own class-decorator hook replaces mypy's default one, which only tags the
    class so that later dataclass processing sees it in subclasses' MROs.
    """
    if find_dataclass_transform_spec(ctx.reason) is not None:
        dataclass_tag_callback(ctx)


def tag_stdlib_dataclass(ctx: ClassDefContext) -> None:
    """What mypy's pass-1 hook for ``@dataclasses.dataclass`` does (ours replaces it)."""
    dataclass_tag_callback(ctx)


def make_dataclass(ctx: ClassDefContext) -> bool:
    """What mypy does after semantic analysis for a ``dataclass_transform`` decorator (build
    ``__init__``, ``__replace__``, ...); a hook of ours for the decorator replaces it. False:
    not ready yet, mypy calls again."""
    return dataclass_class_maker_callback(ctx)


# The static method mypy's dataclasses plugin adds to every dataclass to type
# `dataclasses.replace(obj, ...)` (every field, as a keyword), and `__replace__` (3.13).
INTERNAL_REPLACE = "__mypy-replace"
GENERATED_REPLACE_METHODS = ("__replace__", INTERNAL_REPLACE)


def forget_constructor_type(info: TypeInfo) -> None:
    """Drop the constructor type mypy (>= 1.16) caches per class, after its ``__init__``
    changed."""
    if getattr(info, "type_object_type", None) is not None:
        info.type_object_type = None


def without_type_variables(typ: Type) -> Type:
    """``typ`` with every type variable replaced by ``Any``."""
    return erase_typevars(typ)


def fits(typ: Type, declared: Type) -> bool:
    """Whether a value of type ``typ`` may be stored where ``declared`` is expected."""
    return is_subtype(typ, declared)


def self_type_variable(info: TypeInfo, method: str) -> TypeVarType:
    """``Self`` for a method the plugin adds to ``info``, as mypy's dataclasses plugin
    writes its own (``TypeVarType``'s constructor has changed between releases). Its
    declaration goes into the class's names: mypy looks it up when it analyses the method
    again (a deferred class)."""
    name, upper_bound = "_JaxdcSelf", fill_typevars(info)
    fullname, default = f"{info.fullname}.{name}", AnyType(TypeOfAny.from_omitted_generics)
    declaration = TypeVarExpr(name, fullname, [], upper_bound, default)
    info.names[name] = SymbolTableNode(MDEF, declaration, plugin_generated=True)
    return TypeVarType(
        name,
        fullname,
        id=TypeVarId(-1, namespace=f"{info.fullname}.{method}"),
        values=[],
        upper_bound=upper_bound,
        default=default,
    )


def class_trigger(fullname: str) -> str:
    """The daemon trigger fired when class or member ``fullname`` changes (for a class:
    its bases, MRO, kind, NamedTuple or TypedDict items; not its members)."""
    return make_trigger(fullname)


def class_being_checked(api: CheckerPluginInterface) -> TypeInfo | None:
    """The class whose definition the type checker is visiting, if any."""
    classes = getattr(getattr(api, "tscope", None), "classes", None)
    return classes[-1] if classes else None


def current_function(api: CheckerPluginInterface) -> FuncItem | None:
    """The innermost function being type-checked (``top_function`` in older mypy)."""
    scope = api.scope  # type: ignore[attr-defined]
    if hasattr(scope, "current_function"):
        return scope.current_function()  # type: ignore[no-any-return]
    return scope.top_function()  # type: ignore[no-any-return]


def expression_type(api: CheckerPluginInterface, expr: Expression) -> Type | None:
    """The type mypy inferred for ``expr``, already checked (None if it was not)."""
    return api.lookup_type_or_none(expr)  # type: ignore[attr-defined,no-any-return]


def all_modules(api: CheckerPluginInterface) -> dict[str, MypyFile]:
    """Every module of the build, by name (to ask whether a class is from a stub)."""
    return api.modules  # type: ignore[attr-defined,no-any-return]


def checked_module(api: CheckerPluginInterface) -> MypyFile:
    """The module being type-checked."""
    return api.tree  # type: ignore[attr-defined,no-any-return]


def lookup_in_checked_module(api: CheckerPluginInterface, name: str) -> SymbolTableNode | None:
    """Resolve a (possibly dotted) name as written in the module being type-checked.

    The head is looked up as a symbol of that module, so an import alias works
    (`import jaxdc as jdc` ... `jdc.Static`); the checker's own `lookup_qualified` starts
    from the table of module names, where `jdc` does not exist.
    """
    head, *rest = name.split(".")
    try:
        sym: SymbolTableNode | None = api.lookup(head)  # type: ignore[attr-defined]
    except KeyError:
        return None
    for part in rest:
        module = sym.node if sym is not None else None
        if not isinstance(module, MypyFile):
            return None
        sym = module.names.get(part)
    return sym


def format_type(typ: Type, options: Options) -> str:
    """A type as mypy prints it in its own messages (``list[int]``, ``int | None``)."""
    return format_type_bare(typ, options)


def is_silenced_path(path: str) -> bool:
    """Whether mypy never reports errors for this file (typeshed, installed packages).

    Asked for every module of every run, warm ones included (``report_config_data``), so
    it is written as three string tests rather than a loop."""
    return path.startswith(_TYPESHED) or _SITE_PACKAGES in path or _DIST_PACKAGES in path


def dataclass_fields(info: TypeInfo) -> list[tuple[str, bool]]:
    """(name, is_in_init) of every dataclass field, inherited ones included.

    Read from the JSON mypy's dataclasses plugin stores, whose layout is internal.
    """
    attributes = info.metadata.get("dataclass", {}).get("attributes", [])
    return [(attr["name"], attr.get("is_in_init", True)) for attr in attributes]


def dataclass_initvars(info: TypeInfo) -> list[tuple[str, bool]]:
    """(name, has_default) of every InitVar pseudo-field, from the same internal JSON."""
    attributes = info.metadata.get("dataclass", {}).get("attributes", [])
    return [(a["name"], a.get("has_default", False)) for a in attributes if a.get("is_init_var")]


def defined_in_function(info: TypeInfo) -> bool:
    """Whether the class is defined in a function (or in a class that is): mypy names such
    classes ``module.Name@line``."""
    return "@" in info.fullname


def as_seen_from(typ: Type, instance: Instance, owner: TypeInfo) -> Type:
    """``typ``, written in class ``owner`` (a base of ``instance``'s class), as seen on
    ``instance`` (its type variables replaced by ``instance``'s arguments)."""
    if owner is not instance.type:
        instance = map_instance_to_supertype(instance, owner)
    return expand_type_by_instance(typ, instance)


def member_type(instance: Instance, name: str) -> Type | None:
    """Declared type of attribute ``name`` as seen on ``instance`` (generics expanded).

    Asked for every field of every class checked: the class itself, where most fields are
    declared, is looked at before its MRO is walked."""
    info = instance.type
    sym = info.names.get(name)
    if sym is None:
        for base in info.mro[1:]:
            sym = base.names.get(name)
            if sym is not None:
                instance = map_instance_to_supertype(instance, base)
                break
        else:
            return None
    declared = sym.node.type if isinstance(sym.node, Var) else None
    return None if declared is None else expand_type_by_instance(declared, instance)


def self_instance(info: TypeInfo) -> Instance:
    """``info`` applied to its own type variables (``C[T]`` inside ``class C(Generic[T])``)."""
    instance = fill_typevars(info)
    assert isinstance(instance, Instance)
    return instance


def is_assignment_target(ctx: AttributeContext) -> bool:
    """Whether the attribute is being assigned, as far as this mypy tells.

    mypy >= 1.13 says so (``is_lvalue``) and also calls the hook, without it, for the value
    the target had before; older versions call the hook for targets only with no flag.
    """
    return getattr(ctx, "is_lvalue", True)


def read_only_errors(api: CheckerPluginInterface, context: Context, name: str) -> list[ErrorInfo]:
    """mypy's ``Property "<name>" ... is read-only`` errors just reported at ``context``.

    mypy reports assigning a field of a frozen dataclass before it calls the attribute hook
    for that assignment (``checkmember.analyze_var``; mypy < 1.13 may report it twice for a
    callable-typed field), so they are the last entries of the current file's errors. An
    error a ``# type: ignore`` silenced is not recorded, and none is found.
    """
    errors = api.msg.errors
    reported: list[ErrorInfo] = errors.error_info_map.get(errors.file, [])
    prefix = f'Property "{name}" defined in "'
    found = []
    for info in reversed(reported):
        if not (
            info.line == context.line
            and info.column == context.column
            and info.message.startswith(prefix)
            and info.message.endswith('" is read-only')
        ):
            break
        found.append(info)
    return found


def retract(api: CheckerPluginInterface, infos: list[ErrorInfo]) -> None:
    """Take back errors mypy reported at this very moment (see ``read_only_errors``)."""
    errors = api.msg.errors
    reported: list[ErrorInfo] = errors.error_info_map[errors.file]
    for info in infos:
        reported.remove(info)


def has_errors_reported(api: CheckerPluginInterface) -> bool:
    """Whether the file being checked has errors in mypy's list (what ``retract_where``
    reads): asked before building what a retraction needs."""
    errors = api.msg.errors
    return bool(errors.error_info_map.get(errors.file))


def retract_where(api: CheckerPluginInterface, wanted: Callable[[ErrorInfo], bool]) -> None:
    """Take back the errors of the file being checked that ``wanted`` picks: semantic
    analysis reported them, and they stay in mypy's list until the file is checked."""
    errors = api.msg.errors
    reported: list[ErrorInfo] | None = errors.error_info_map.get(errors.file)
    if reported:
        reported[:] = [info for info in reported if not wanted(info)]


def note(api: CheckerPluginInterface, message: str, context: Context, code: ErrorCode) -> None:
    """A note under the error mypy just reported (the checker has ``note``, the interface
    declares only ``fail``)."""
    api.note(message, context, code=code)  # type: ignore[attr-defined]
