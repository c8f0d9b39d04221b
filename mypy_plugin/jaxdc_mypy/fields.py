"""Which fields of a jaxdc class are data, static or excluded.

The kind is decided during semantic analysis, from the class body as written: that is the
only place the ``Static[...]`` marker is visible (mypy drops ``Annotated`` metadata from
analysed types). Each class stores the kinds of the fields it declares in
``TypeInfo.metadata`` (JSON, so it survives the cache, ``-n`` workers and the daemon);
checks read them back for the class and its bases, so inheritance across modules and from
cached modules works the same as within one file.
"""

from __future__ import annotations

from typing import NamedTuple

from _jaxdc_rules.kinds import (
    DATA,
    EXCLUDED as EXCLUDED,  # re-exported: the kinds other plugin modules read
    STATIC,
    UNKNOWN,
    Flag,
    decide_kind,
    explicit_static,
    inherited_kind,
)
from mypy.nodes import (
    AssignmentStmt,
    CallExpr,
    DictExpr,
    Expression,
    NameExpr,
    RefExpr,
    StrExpr,
    TypeInfo,
    Var,
)
from mypy.plugin import ClassDefContext, SemanticAnalyzerPluginInterface
from mypy.types import Instance, Type, get_proper_type

from . import compat, names
from .static_spelling import is_static_spelling, plainly_not_static

_NOT_FIELDS = frozenset({"dataclasses.KW_ONLY", "dataclasses.InitVar"})


class PytreeField(NamedTuple):
    name: str
    kind: str
    owner: TypeInfo
    """The class that declared it last (the type to read and expand)."""
    converter: bool = False
    """Declared with ``field(converter=...)`` (see ``converters``)."""


def record_fields(ctx: ClassDefContext) -> list[str] | None:
    """Semantic-analysis hook: store the kinds of the fields this class declares.

    Runs again whenever mypy re-analyses the class, so the last (complete) run wins. If
    ``Static`` itself is not resolved yet (import cycles), ask mypy to come back later
    and return None; otherwise return the names recorded.
    """
    info = ctx.cls.info
    in_function = compat.defined_in_function(info)
    kinds: dict[str, dict[str, object]] = {}
    declares_converters = False
    for stmt in ctx.cls.defs.body:
        if not isinstance(stmt, AssignmentStmt):
            continue
        converter = converter_argument(stmt.rvalue)
        declares_converters = declares_converters or converter is not None
        name = _field_name(stmt, info)
        if name is None:
            continue
        is_static_annotation = _is_static_annotation(stmt, ctx.api, in_function)
        if is_static_annotation is None:
            if not ctx.api.final_iteration:
                ctx.api.defer()
                return None
            is_static_annotation = False
        kinds[name] = {"kind": _kind(stmt.rvalue, is_static_annotation)}
        if converter is not None:
            kinds[name]["converter"] = True
    stored: dict[str, object] = {"fields": kinds}
    if declares_converters:  # also a converter on an InitVar, which `kinds` leaves out
        stored["converters"] = True
    info.metadata[names.METADATA_KEY] = stored
    return list(kinds)


def declares_converters(info: TypeInfo) -> bool:
    """Whether ``info`` itself declares a field or InitVar with a converter (as recorded
    by ``record_fields``): most classes declare none, and need not be read for them."""
    stored = info.metadata.get(names.METADATA_KEY)
    return stored is not None and bool(stored.get("converters"))


def is_pytree_class(info: TypeInfo) -> bool:
    """Whether ``info`` or a base was declared with jaxdc."""
    return any(names.METADATA_KEY in base.metadata for base in info.mro)


def pytree_fields(info: TypeInfo) -> list[PytreeField]:
    """All fields of a jaxdc class, bases first; static-ness is inherited."""
    merged: dict[str, PytreeField] = {}
    for base in reversed(info.mro):
        stored = base.metadata.get(names.METADATA_KEY)
        if stored is None:
            continue
        for name, entry in stored["fields"].items():
            kind = entry["kind"]
            previous = merged.pop(name, None)
            if previous is not None:
                kind = inherited_kind(previous.kind, kind)
            # What `PytreeField(...)` makes, without its `__new__`'s Python frame: this
            # runs for every field of every class each check reads.
            merged[name] = _new_field(
                PytreeField, (name, kind, base, entry.get("converter", False))
            )
    return list(merged.values())


_new_field = tuple.__new__


def own_field_types(info: TypeInfo) -> list[tuple[str, Type]]:
    """(kind, analysed type) of each field ``info`` itself declares."""
    stored = info.metadata.get(names.METADATA_KEY)
    if stored is None:
        return []
    symbols = info.names
    types = []
    for name, entry in stored["fields"].items():
        sym = symbols.get(name)
        node = sym.node if sym is not None else None
        if isinstance(node, Var) and node.type is not None:
            types.append((entry["kind"], node.type))
    return types


def declaring_statements(info: TypeInfo) -> dict[str, AssignmentStmt]:
    """The ``name: T`` lines of ``info``'s own body (present for classes being checked)."""
    found = {}
    for stmt in info.defn.defs.body:
        name = _field_name(stmt, info)
        if name is not None:
            assert isinstance(stmt, AssignmentStmt)
            found[name] = stmt
    return found


def converter_argument(rvalue: Expression) -> Expression | None:
    """The ``converter=`` argument of a jaxdc field specifier's call, if any."""
    if (
        isinstance(rvalue, CallExpr)
        and isinstance(rvalue.callee, RefExpr)
        and rvalue.callee.fullname in _CONVERTER_SPECIFIERS
    ):
        for name, arg in zip(rvalue.arg_names, rvalue.args, strict=True):
            if name == "converter":
                is_none = isinstance(arg, NameExpr) and arg.fullname == "builtins.None"
                return None if is_none else arg
    return None


def _field_name(stmt: object, info: TypeInfo) -> str | None:
    if not isinstance(stmt, AssignmentStmt) or stmt.unanalyzed_type is None:
        return None
    if len(stmt.lvalues) != 1 or not isinstance(stmt.lvalues[0], NameExpr):
        return None
    name = stmt.lvalues[0].name
    sym = info.names.get(name)
    if sym is None or not isinstance(sym.node, Var) or sym.node.is_classvar:
        return None
    analysed = get_proper_type(stmt.type)
    if isinstance(analysed, Instance) and analysed.type.fullname in _NOT_FIELDS:
        return None
    return name


def _is_static_annotation(
    stmt: AssignmentStmt, api: SemanticAnalyzerPluginInterface, in_function: bool
) -> bool | None:
    """Static as written, in any spelling (see ``static_spelling``); None while unresolved.
    Most annotations are told apart without looking up their names (``plainly_not_static``)."""
    if not in_function and plainly_not_static(stmt.type, stmt.unanalyzed_type):
        return False
    return is_static_spelling(
        stmt.type,
        stmt.unanalyzed_type,
        lambda name, ctx: api.lookup_qualified(name, ctx, suppress_errors=True),
    )


_FIELD_SPECIFIERS = frozenset(
    {
        names.FIELD,
        names.STATIC_FIELD,
        names.STDLIB_FIELD,
        names.COMPAT_FLAX_FIELD,
        names.JAX_TREE_STATIC,
    }
)
# Field specifiers that take `converter=`.
_CONVERTER_SPECIFIERS = frozenset({names.FIELD, names.STATIC_FIELD})
# Field specifiers whose fields are always static: jax_dataclasses' `static_field()` and
# JAX's `jax.tree.static()`.
_STATIC_SPECIFIERS = frozenset({names.STATIC_FIELD, names.JAX_TREE_STATIC})


def _kind(rvalue: Expression, is_static_annotation: bool) -> str:
    """The shared rule (``_jaxdc_rules.kinds``) on the literal keywords of a field
    specifier's call (``field(...)``, ``static_field(...)``, ``jax.tree.static(...)``,
    ``dataclasses.field(...)``) and the annotation."""
    if not (
        isinstance(rvalue, CallExpr)
        and isinstance(rvalue.callee, RefExpr)
        and rvalue.callee.fullname in _FIELD_SPECIFIERS
    ):
        return STATIC if is_static_annotation else DATA
    keywords = {name: arg for name, arg in zip(rvalue.arg_names, rvalue.args, strict=True) if name}
    if rvalue.callee.fullname == names.COMPAT_FLAX_FIELD and rvalue.arg_names[:1] == [None]:
        keywords["pytree_node"] = rvalue.args[0]  # flax's `field(False)`
    try:
        static = explicit_static(
            static=_literal_bool(keywords.get("static")),
            pytree_node=_literal_bool(keywords.get("pytree_node")),
            static_field=rvalue.callee.fullname in _STATIC_SPECIFIERS,
        )
    except ValueError:  # contradicting spellings: the runtime rejects the field() call
        return UNKNOWN
    if static is None and _has_static_metadata(keywords.get("metadata")):
        static = True
    return decide_kind(
        static=static,
        pytree=_literal_bool(keywords.get("pytree")),
        annotated_static=is_static_annotation,
    )


def _literal_bool(expr: Expression | None, default: bool | None = None) -> Flag:
    if expr is None:
        return default
    if isinstance(expr, NameExpr) and expr.fullname in ("builtins.True", "builtins.False"):
        return expr.fullname == "builtins.True"
    if isinstance(expr, NameExpr) and expr.fullname == "builtins.None":
        return default
    return UNKNOWN


def _has_static_metadata(expr: Expression | None) -> bool:
    # {"static": True} or dict(static=True), or flax's {"pytree_node": False}
    return any(
        _literal_bool(value) is (key == "static") and key in ("static", "pytree_node")
        for key, value in _literal_items(expr)
    )


def _literal_items(expr: Expression | None) -> list[tuple[str, Expression]]:
    """The string keys of a literal ``{...}`` or ``dict(key=...)``, with their values."""
    if isinstance(expr, DictExpr):
        return [(key.value, value) for key, value in expr.items if isinstance(key, StrExpr)]
    if (
        isinstance(expr, CallExpr)
        and isinstance(expr.callee, RefExpr)
        and expr.callee.fullname == names.STDLIB_DICT
    ):
        return [(name, arg) for name, arg in zip(expr.arg_names, expr.args, strict=True) if name]
    return []
