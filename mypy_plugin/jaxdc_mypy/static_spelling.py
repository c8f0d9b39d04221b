"""Whether an annotation marks a static field or ``jaxdc.jit`` parameter, however spelled.

The spellings the runtime accepts (``jaxdc._static.is_static_annotation``):
``Static[T]`` through any import or alias (``S = jdc.Static``, ``Name: TypeAlias =
jdc.Static[str]``, ``P = jdc.Static[T]``), bare ``Static``, ``Annotated[T, STATIC_MARKER]``,
``Annotated`` wrapped around ``Static[T]``, and a union holding one of those
(``Static[int] | None``, ``Optional[Static[int]]``: a static field of type ``int | None``).

Two sources, because mypy keeps only part of what was written:

- the *analysed* type keeps every use of an alias as a ``TypeAliasType`` naming it, so
  ``Static`` stays visible through chains of aliases, string annotations and other modules
  (also when they come from the cache), but ``Annotated`` metadata is dropped;
- the *written* (unanalysed) annotation still holds ``Annotated[T, STATIC_MARKER]``, and
  names an alias defined inside a function (whose uses mypy expands eagerly).

Each answer is True, False, or None when a name is not resolved yet (mypy will analyse
the class again).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from mypy.errorcodes import TYPE_ARG
from mypy.nodes import Context, PlaceholderNode, SymbolTableNode, TypeAlias
from mypy.plugin import AnalyzeTypeContext
from mypy.types import (
    AnyType,
    Instance,
    NoneType,
    PlaceholderType,
    Type,
    TypeAliasType,
    TypeOfAny,
    UnboundType,
    UnionType,
    get_proper_type,
)

from . import names

Lookup = Callable[[str, Context], "SymbolTableNode | None"]

_ANNOTATED = frozenset({"typing.Annotated", "typing_extensions.Annotated"})
_UNIONS = frozenset(
    {"typing.Optional", "typing.Union", "typing_extensions.Optional", "typing_extensions.Union"}
)


def is_static_spelling(analysed: Type | None, written: Type | None, lookup: Lookup) -> bool | None:
    """Whether the annotation (its analysed and written forms) marks a static value."""
    found = _in_analysed(analysed, set())
    return True if found else _any_of([found, _in_written(written, lookup)])


def plainly_not_static(analysed: Type | None, written: Type | None) -> bool:
    """Whether an annotation of a class outside functions is surely not static, told from
    its two forms alone (no name looked up: most fields are decided here).

    Outside functions mypy keeps every use of an alias as an alias, so a written name that
    mypy analysed to a class (``Instance``) is that class or a plain alias of it, never
    ``Static``; with arguments it is the class when it carries the class's own name
    (``tuple[int, ...]``, ``dict[str, Array]``): ``Annotated[...]``, the one spelling that
    analyses to the class it wraps, would not. ``Optional[...]`` and ``X | Y`` are read
    member by member. Inside a function mypy expands aliases where they are used, so the
    caller must not ask (``is_static_spelling`` looks the names up)."""
    if isinstance(written, UnboundType):
        if isinstance(analysed, Instance):
            return not written.args or written.name.rpartition(".")[2] == analysed.type.name
        if (
            isinstance(analysed, UnionType)
            and len(written.args) == 1
            and written.name.rpartition(".")[2] == "Optional"
        ):
            others = [item for item in analysed.items if not isinstance(item, NoneType)]
            return len(others) == 1 and plainly_not_static(others[0], written.args[0])
        return False
    if isinstance(written, UnionType) and isinstance(analysed, UnionType):
        return len(written.items) == len(analysed.items) and all(
            _is_none(w) if isinstance(a, NoneType) else plainly_not_static(a, w)
            for a, w in zip(analysed.items, written.items, strict=True)
        )
    return False


def _is_none(written: Type) -> bool:
    return isinstance(written, UnboundType) and written.name == "None" and not written.args


def _in_analysed(typ: Type | None, seen: set[str]) -> bool | None:
    """``Static`` at the top of the type, following aliases and union members (not type
    arguments: ``tuple[Static[int]]`` is not a static field)."""
    if isinstance(typ, PlaceholderType):
        return None
    if isinstance(typ, TypeAliasType):
        alias = typ.alias
        if alias is None or alias.fullname in seen:  # a recursive alias: seen it already
            return False
        if alias.fullname == names.STATIC:
            return True
        seen.add(alias.fullname)
        return _in_analysed(alias.target, seen)
    if isinstance(typ, UnionType):
        return _any_of(_in_analysed(item, seen) for item in typ.items)
    return False


def _in_written(annotation: Type | None, lookup: Lookup) -> bool | None:
    if isinstance(annotation, UnionType):  # `X | Y` as written
        return _any_of(_in_written(item, lookup) for item in annotation.items)
    if not isinstance(annotation, UnboundType):
        return False
    node = _resolve(annotation, lookup)
    if isinstance(node, PlaceholderNode):
        return None
    fullname = getattr(node, "fullname", None)
    if fullname == names.STATIC:
        return True
    if isinstance(node, TypeAlias):
        return _in_analysed(node.target, {node.fullname})
    if fullname in _ANNOTATED and annotation.args:
        first, *metadata = annotation.args
        return _any_of([*(_is_marker(m, lookup) for m in metadata), _in_written(first, lookup)])
    if fullname in _UNIONS:
        return _any_of(_in_written(arg, lookup) for arg in annotation.args)
    return False


def _is_marker(metadata: Type, lookup: Lookup) -> bool | None:
    if not isinstance(metadata, UnboundType) or metadata.args:
        return False
    node = _resolve(metadata, lookup)
    if isinstance(node, PlaceholderNode):
        return None
    return getattr(node, "fullname", None) == names.STATIC_MARKER


def _resolve(annotation: UnboundType, lookup: Lookup) -> object:
    sym = lookup(annotation.name, annotation)
    return None if sym is None else sym.node


def _any_of(answers: Iterable[bool | None]) -> bool | None:
    """True if one answer is True (read lazily, in order), else None if one is unknown."""
    unknown = False
    for found in answers:
        if found:
            return True
        unknown = unknown or found is None
    return None if unknown else False


def is_bare_static_alias(sym: SymbolTableNode | None) -> bool | None:
    """Whether ``sym`` is ``S = jdc.Static``: an alias of ``Static`` without arguments.

    The typing spec makes such an alias ``Static[Any]``, with no parameter left, so mypy
    rejects ``S[int]``; pyright and the runtime accept it as ``Static[int]``, and so does
    the plugin (``hooks.JaxdcPlugin.get_type_analyze_hook``). None: not analysed yet.
    """
    node = sym.node if sym is not None else None
    if not isinstance(node, TypeAlias) or node.alias_tvars:
        return False
    target = node.target
    if isinstance(target, PlaceholderType):
        return None
    return (
        isinstance(target, TypeAliasType)
        and target.alias is not None
        and target.alias.fullname == names.STATIC
        and all(isinstance(get_proper_type(arg), AnyType) for arg in target.args)
    )


def subscript_static(static: TypeAlias, ctx: AnalyzeTypeContext) -> Type:
    """``S[T]`` for a bare alias ``S`` of ``static`` (the ``Static`` alias): ``Static[T]``."""
    if len(ctx.type.args) > 1:
        from _jaxdc_rules import messages  # an error path: warm runs never load the wording

        # mypy's code for the same mistake on `Static[int, str]` itself
        ctx.api.fail(
            messages.static_alias_arguments(len(ctx.type.args)), ctx.context, code=TYPE_ARG
        )
        return AnyType(TypeOfAny.from_error)
    args = [ctx.api.analyze_type(arg) for arg in ctx.type.args]
    return TypeAliasType(
        static,
        args or [AnyType(TypeOfAny.from_omitted_generics)],
        line=ctx.type.line,
        column=ctx.type.column,
    )
