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
from mypy.types import Instance, ProperType, Type, TypeAliasType, get_proper_type

from . import compat, dataclass_options, names
from .static_spelling import is_static_spelling, plainly_not_static

_NOT_FIELDS = frozenset({"dataclasses.KW_ONLY", "dataclasses.InitVar"})


class PytreeField(NamedTuple):
    name: str
    kind: str
    owner: TypeInfo
    """The class that declared it last (the type to read and expand)."""
    converter: bool = False
    """Declared with ``field(converter=...)`` (see ``converters``)."""


def record_fields(ctx: ClassDefContext, options: dict[str, Expression]) -> list[str] | None:
    """Semantic-analysis hook: store the kinds of the fields this class declares, and its
    hash options (``options``: the decorator's or class keywords; see ``dataclass_options``).

    One pass over the class body reads each field specifier's call once for all three
    (kind, converter, hash); most fields have none, and are decided from the annotation.
    The layout is ``{"fields": {name: kind}}``, plus ``"converters": [field names]`` when the
    class declares a converter (on an InitVar too, then possibly no field) and
    ``"made_defaults"`` (see ``made_defaults``): mypy writes it to the cache for every class
    and reads it back, so it holds plain strings, not a dict per field
    (``__init__.METADATA_LAYOUT`` names the layout).
    Runs again whenever mypy re-analyses the class, so the last (complete) run wins. If
    ``Static`` itself is not resolved yet (import cycles), ask mypy to come back later and
    return None; otherwise return the names recorded.
    """
    info = ctx.cls.info
    api = ctx.api
    in_function = compat.defined_in_function(info)
    kinds: dict[str, str] = {}
    converted: list[str] = []
    unhashed: list[str] = []
    declares_converters = False
    made_defaults: list[str] = []  # fields whose default is not a literal or specifier
    for stmt in ctx.cls.defs.body:
        if not isinstance(stmt, AssignmentStmt):
            continue
        rvalue = stmt.rvalue
        call = _specifier_call(rvalue) if isinstance(rvalue, CallExpr) else None
        if call is not None:
            declares_converters = declares_converters or call.converter is not None
            _note_unhashed(stmt, call, unhashed)
        name = _field_name(stmt, info)
        if name is None:
            continue
        is_static_annotation = False
        if in_function or not plainly_not_static(stmt.type, stmt.unanalyzed_type):
            found = _is_static_annotation(stmt, api)
            if found is None and not api.final_iteration:
                api.defer()
                return None
            is_static_annotation = bool(found)
        if call is None:
            kinds[name] = STATIC if is_static_annotation else DATA
        else:
            kinds[name] = _kind(call, is_static_annotation)
            if call.converter is not None:
                converted.append(name)
        default = rvalue if call is None else call.keywords.get("default")
        if isinstance(default, (CallExpr, RefExpr)) and _made_default(default):
            made_defaults.append(name)
    dataclass_options.store(info, options, unhashed)
    stored: dict[str, object] = {"fields": kinds}
    if declares_converters:  # also a converter on an InitVar, which `kinds` leaves out
        stored["converters"] = converted
    if made_defaults:
        stored["made_defaults"] = made_defaults
    info.metadata[names.METADATA_KEY] = stored
    return list(kinds)


def _note_unhashed(stmt: AssignmentStmt, call: _SpecifierCall, unhashed: list[str]) -> None:
    """Add the name ``stmt`` declares with ``call`` if the call leaves it out of the hash."""
    target = stmt.lvalues[0]
    if (
        len(stmt.lvalues) == 1
        and isinstance(target, NameExpr)
        and dataclass_options.left_out_of_hash(call.callee, call.keywords)
    ):
        unhashed.append(target.name)


def declares_converters(info: TypeInfo) -> bool:
    """Whether ``info`` itself declares a field or InitVar with a converter (as recorded
    by ``record_fields``): most classes declare none, and need not be read for them."""
    stored = info.metadata.get(names.METADATA_KEY)
    return stored is not None and "converters" in stored


def converters_in_mro(info: TypeInfo) -> bool:
    """Whether ``info`` or a base declares a converter (``declares_converters`` of each).
    Asked for every jaxdc class, so a plain loop reading each base's metadata (no
    generator, no call per base)."""
    for base in info.mro:
        stored = base.metadata.get(names.METADATA_KEY)
        if stored is not None and "converters" in stored:
            return True
    return False


def made_defaults(info: TypeInfo) -> list[str]:
    """The fields ``info`` itself declares whose default (the value, or a field specifier's
    ``default=``) is made by a call that is not a field specifier, or read from a variable
    (as recorded by ``record_fields``): only such a default can be a data descriptor, and
    most classes have none."""
    stored = info.metadata.get(names.METADATA_KEY)
    return [] if stored is None else stored.get("made_defaults", [])


def field_default(rvalue: Expression) -> Expression | None:
    """The default a field's declaration gives: its value, or a field specifier's
    ``default=``."""
    call = _specifier_call(rvalue)
    return rvalue if call is None else call.keywords.get("default")


def _made_default(default: CallExpr | RefExpr) -> bool:
    """``D()``, ``make()`` or ``SHARED`` as a field's default (not ``True``/``None``, a
    function or a class)."""
    if isinstance(default, CallExpr):
        return True
    return isinstance(default.node, Var) and default.fullname not in _LITERAL_NAMES


_LITERAL_NAMES = frozenset({"builtins.True", "builtins.False", "builtins.None"})


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
        converted = stored.get("converters", ())
        for name, kind in stored["fields"].items():
            previous = merged.pop(name, None)
            if previous is not None:
                kind = inherited_kind(previous.kind, kind)
            # What `PytreeField(...)` makes, without its `__new__`'s Python frame: this
            # runs for every field of every class each check reads.
            merged[name] = _new_field(PytreeField, (name, kind, base, name in converted))
    return list(merged.values())


_new_field = tuple.__new__


def inherits_fields(info: TypeInfo) -> bool:
    """Whether a base of ``info`` declares jaxdc fields. Most classes' bases declare none:
    then ``pytree_fields`` are just the fields ``info`` declares, of their recorded kinds."""
    for base in info.mro[1:]:  # a loop, not `any` over a generator (a frame per class)
        if names.METADATA_KEY in base.metadata:
            return True
    return False


def own_field_declarations(info: TypeInfo) -> list[tuple[str, str, Type]]:
    """(name, kind as recorded, analysed type) of each field ``info`` itself declares."""
    stored = info.metadata.get(names.METADATA_KEY)
    if stored is None:
        return []
    symbols = info.names
    found = []
    for name, kind in stored["fields"].items():
        sym = symbols.get(name)
        node = sym.node if sym is not None else None
        if isinstance(node, Var) and node.type is not None:
            found.append((name, kind, node.type))
    return found


def own_field_types(info: TypeInfo, kind: str) -> list[Type]:
    """The analysed types of the fields of ``kind`` that ``info`` itself declares: what
    ``own_field_declarations`` gives, without a tuple made for each field of another kind
    (the indirect-dependencies hook reads the static ones of every class of a run)."""
    stored = info.metadata.get(names.METADATA_KEY)
    if stored is None:
        return []
    symbols = info.names
    found = []
    for name, field_kind in stored["fields"].items():
        if field_kind == kind:
            sym = symbols.get(name)
            node = sym.node if sym is not None else None
            if isinstance(node, Var) and node.type is not None:
                found.append(node.type)
    return found


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
    call = _specifier_call(rvalue)
    return None if call is None else call.converter


class _SpecifierCall(NamedTuple):
    """A call of a field specifier (``field(...)``, ``static_field(...)``, ...), read once
    for the field's kind, converter and hash."""

    callee: str
    call: CallExpr
    keywords: dict[str, Expression]
    converter: Expression | None
    """The ``converter=`` argument of a jaxdc specifier (not a literal ``None``)."""


def _specifier_call(rvalue: Expression) -> _SpecifierCall | None:
    if not (isinstance(rvalue, CallExpr) and isinstance(rvalue.callee, RefExpr)):
        return None
    callee = rvalue.callee.fullname
    if callee not in _ANY_SPECIFIER:
        return None
    keywords = dataclass_options.keywords_of(rvalue)
    converter = keywords.get("converter") if callee in _CONVERTER_SPECIFIERS else None
    if isinstance(converter, NameExpr) and converter.fullname == "builtins.None":
        converter = None
    return _SpecifierCall(callee, rvalue, keywords, converter)


def _field_name(stmt: object, info: TypeInfo) -> str | None:
    if not isinstance(stmt, AssignmentStmt) or stmt.unanalyzed_type is None:
        return None
    lvalues = stmt.lvalues
    if len(lvalues) != 1 or not isinstance(lvalues[0], NameExpr):
        return None
    name = lvalues[0].name
    sym = info.names.get(name)
    node = None if sym is None else sym.node
    if not isinstance(node, Var) or node.is_classvar:
        return None
    analysed = stmt.type
    if not isinstance(analysed, ProperType):  # an alias
        analysed = _proper_type(analysed)
    if isinstance(analysed, Instance) and analysed.type.fullname in _NOT_FIELDS:
        return None
    return name


def _proper_type(typ: Type | None) -> ProperType | None:
    """``get_proper_type``, without expanding ``Static[X]`` (it is ``X``): most aliases in
    field annotations are ``Static``, and expanding one builds a new type."""
    while (
        isinstance(typ, TypeAliasType)
        and typ.alias is not None
        and typ.alias.fullname == names.STATIC
        and len(typ.args) == 1
    ):
        typ = typ.args[0]
    return get_proper_type(typ)


def _is_static_annotation(
    stmt: AssignmentStmt, api: SemanticAnalyzerPluginInterface
) -> bool | None:
    """Static as written, in any spelling (see ``static_spelling``); None while unresolved.
    Asked only when ``plainly_not_static``, which looks no name up, cannot tell."""
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
# Every call read for a field: also the specifiers only ``dataclass_options`` knows.
_ANY_SPECIFIER = _FIELD_SPECIFIERS | dataclass_options.FIELD_SPECIFIERS
# Field specifiers whose fields are always static: jax_dataclasses' `static_field()` and
# JAX's `jax.tree.static()`.
_STATIC_SPECIFIERS = frozenset({names.STATIC_FIELD, names.JAX_TREE_STATIC})


def _kind(call: _SpecifierCall, is_static_annotation: bool) -> str:
    """The shared rule (``_jaxdc_rules.kinds``) on the literal keywords of a field
    specifier's call (``field(...)``, ``static_field(...)``, ``jax.tree.static(...)``,
    ``dataclasses.field(...)``) and the annotation."""
    if call.callee not in _FIELD_SPECIFIERS:
        return STATIC if is_static_annotation else DATA
    keywords = call.keywords
    pytree_node = keywords.get("pytree_node")
    if call.callee == names.COMPAT_FLAX_FIELD and call.call.arg_names[:1] == [None]:
        pytree_node = call.call.args[0]  # flax's `field(False)`
    try:
        static = explicit_static(
            static=_literal_bool(keywords.get("static")),
            pytree_node=_literal_bool(pytree_node),
            static_field=call.callee in _STATIC_SPECIFIERS,
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
