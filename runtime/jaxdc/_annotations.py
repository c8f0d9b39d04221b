"""Reading field annotations the way users write them.

Annotations may be strings (`from __future__ import annotations`), may name things
imported inside a function (local imports), and may refer to classes defined later
(forward references). Static-ness only depends on the *head* of an annotation
(`Static[...]`, `Annotated[..., STATIC_MARKER]` or an alias of those), so it is decided
from the head alone when the rest cannot be evaluated yet; the full type is needed
only for the class-definition hashability check, which is skipped for types that
cannot be resolved at runtime (values are still checked at construction).
"""

from __future__ import annotations

import ast
import collections.abc
import inspect
import sys
import types
import typing
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import typing_extensions

from jaxdc._policy import Origin
from jaxdc._static import STATIC_MARKER, is_static_annotation

__all__ = [
    "CallerScope",
    "Namespaces",
    "UnresolvedName",
    "caller_scope",
    "class_origin",
    "is_static",
    "resolve",
]

_ANNOTATED = {typing.Annotated, typing_extensions.Annotated}
_UNIONS = {typing.Optional, typing.Union, typing_extensions.Optional, typing_extensions.Union}
_FRAMEWORK_MODULES = ("jaxdc", "typing", "typing_extensions", "abc", "dataclasses")


class UnresolvedName(Exception):
    """An annotation names something that does not exist (yet) at runtime."""

    def __init__(self, name: str, error: Exception | None = None) -> None:
        super().__init__(name)
        self.name = name
        self.error = error  # what evaluating it raised, if not a NameError


@dataclass(frozen=True)
class CallerScope:
    """The globals and locals of the code that defined a class (its class statement)."""

    globalns: Mapping[str, Any]
    localns: Mapping[str, Any] | None
    origin: Origin | None = None
    """The line of the class statement (or its decorator): where its warnings point."""


@dataclass(frozen=True)
class Namespaces:
    """Where a class's annotations are evaluated: its module, its body, its caller's scope."""

    globalns: Mapping[str, Any]
    localns: Mapping[str, Any]

    @classmethod
    def for_class(cls, klass: type, caller: CallerScope | None) -> Namespaces:
        if caller is not None:
            globalns = caller.globalns
        else:
            module = sys.modules.get(klass.__module__)
            globalns = vars(module) if module is not None else {}
        localns = {**((caller and caller.localns) or {}), **vars(klass), klass.__name__: klass}
        return cls(globalns, localns)

    def eval(self, source: str) -> Any:
        try:
            return eval(source, dict(self.globalns), dict(self.localns))
        except NameError as exc:
            raise UnresolvedName(exc.name or source) from None
        except Exception as exc:
            # `"Later" | None` (str | None), `Static["list[int"]`, `Static[1]`: what cannot
            # be evaluated is read from its source instead (only the head decides).
            raise UnresolvedName(source, exc) from None


def caller_scope() -> CallerScope | None:
    """The scope whose class statement is being decorated.

    Needed for `from __future__ import annotations`: the string 'Static[int]' can only be
    evaluated where the class was written, which may be a function (local imports) or
    code whose globals are not `sys.modules[cls.__module__]` (exec, notebooks).
    """
    frame: types.FrameType | None = sys._getframe(1)
    while frame is not None and _is_framework(frame.f_globals.get("__name__", "")):
        frame = frame.f_back
    if frame is None:
        return None
    local = None if frame.f_locals is frame.f_globals else dict(frame.f_locals)
    module = frame.f_globals.get("__name__", "")
    origin = Origin(frame.f_code.co_filename, frame.f_lineno, module)
    return CallerScope(frame.f_globals, local, origin)


def class_origin(cls: type, caller: CallerScope | None) -> Origin:
    """Where `cls` was defined: its caller's line, else its module's file."""
    if caller is not None and caller.origin is not None:
        return caller.origin
    module = sys.modules.get(cls.__module__)
    filename = getattr(module, "__file__", None) or f"<{cls.__module__}>"
    lineno = getattr(cls, "__firstlineno__", None)  # Python >= 3.13
    if lineno is None:
        try:
            lineno = inspect.findsource(cls)[1] + 1
        except (OSError, TypeError):  # no source (exec, a REPL)
            lineno = 1
    return Origin(filename, lineno, cls.__module__)


def _is_framework(module: str) -> bool:
    return any(module == m or module.startswith(m + ".") for m in _FRAMEWORK_MODULES)


def resolve(annotation: Any, ns: Namespaces) -> Any:
    """The annotation as a runtime object, quoted parts inside it resolved too where they
    can be (`Static["list[int]"]` -> `Static[list[int]]`). Raises `UnresolvedName` when
    the annotation itself cannot be resolved."""
    return _resolve_inside(_resolve_top(annotation, ns), ns, frozenset())


def _resolve_top(annotation: Any, ns: Namespaces) -> Any:
    while isinstance(annotation, (str, typing.ForwardRef)):  # PEP 563 + quotes: "'T'"
        source = annotation if isinstance(annotation, str) else annotation.__forward_arg__
        annotation = ns.eval(source)
    return annotation


def _resolve_inside(annotation: Any, ns: Namespaces, seen: frozenset[str]) -> Any:
    """Resolve forward references among the type arguments; `seen` stops a recursive
    alias (`Tree = Union[int, tuple["Tree", ...]]`) from being unfolded forever."""
    origin, args = typing.get_origin(annotation), typing.get_args(annotation)
    if not args or origin in (typing.Literal, collections.abc.Callable):
        return annotation  # Literal arguments are values; Callable's are lists
    if origin is typing.Annotated:
        args = args[:1]
    resolved = tuple(_resolve_argument(arg, ns, seen) for arg in args)
    if all(new is old for new, old in zip(resolved, args, strict=True)):
        return annotation
    try:
        if origin is typing.Annotated:
            return typing.Annotated[(resolved[0], *annotation.__metadata__)]
        if origin in (typing.Union, types.UnionType):
            return typing.Union[resolved]  # noqa: UP007
        if isinstance(annotation, types.GenericAlias):  # list["int"]
            return types.GenericAlias(origin, resolved)
        return annotation.copy_with(resolved)  # typing's generic aliases
    except (AttributeError, TypeError):  # a special form we cannot rebuild: keep it as is
        return annotation


def _resolve_argument(arg: Any, ns: Namespaces, seen: frozenset[str]) -> Any:
    if not isinstance(arg, (str, typing.ForwardRef)):
        return _resolve_inside(arg, ns, seen)
    source = arg if isinstance(arg, str) else arg.__forward_arg__
    if source in seen:
        return arg
    try:
        value = _resolve_top(arg, ns)
    except UnresolvedName:
        return arg  # judged when a value arrives
    return _resolve_inside(value, ns, seen | {source})


def is_static(annotation: Any, ns: Namespaces) -> bool:
    """Whether the annotation marks a static field (see `is_static_annotation`). Raises
    `UnresolvedName` only when the head of the annotation itself cannot be resolved."""
    if isinstance(annotation, (str, typing.ForwardRef)):
        return _is_static_source(
            annotation if isinstance(annotation, str) else annotation.__forward_arg__, ns
        )
    if typing.get_origin(annotation) is typing.Annotated:
        return any(meta is STATIC_MARKER for meta in annotation.__metadata__) or is_static(
            annotation.__origin__, ns
        )
    if typing.get_origin(annotation) in (typing.Union, types.UnionType):  # Static[T] | None
        return any(_is_static_member(arg, ns) for arg in typing.get_args(annotation))
    return False


def _is_static_source(source: str, ns: Namespaces) -> bool:
    try:
        value = ns.eval(source)
    except UnresolvedName:
        pass  # the head may still be resolvable: `Static["Later"]`
    else:  # a quoted annotation under PEP 563 evaluates to the inner string
        return False if value == source else is_static(value, ns)  # `X = "X"; x: X`
    try:
        node = ast.parse(source.strip(), mode="eval").body
    except SyntaxError:
        return False  # not an expression we can read; it cannot be Static[...] either
    return _node_is_static(node, ns)


def _is_static_member(member: Any, ns: Namespaces) -> bool:
    """A union member: one that cannot be resolved is static only if it says so. A name
    imported under TYPE_CHECKING in `Optional[Config]` must not make the field undecidable."""
    try:
        return is_static(member, ns)
    except UnresolvedName:
        source = ast.unparse(member) if isinstance(member, ast.expr) else str(member)
        if "Static" in source:
            raise
        return False


def _node_is_static(node: ast.expr, ns: Namespaces) -> bool:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return is_static(node.value, ns)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):  # Static[T] | None
        return _is_static_member(node.left, ns) or _is_static_member(node.right, ns)
    if isinstance(node, (ast.Name, ast.Attribute)):
        return is_static(ns.eval(ast.unparse(node)), ns)
    if not isinstance(node, ast.Subscript):
        return False  # calls, literals, ...: never Static at the top level
    head = ns.eval(ast.unparse(node.value))
    elements = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
    if head in _ANNOTATED:
        return any(_is_marker(meta, ns) for meta in elements[1:]) or _node_is_static(
            elements[0], ns
        )
    if head in _UNIONS:  # Optional[Static[T]], Union[Static[T], None]
        return any(_is_static_member(element, ns) for element in elements)
    return is_static_annotation(head)


def _is_marker(metadata: ast.expr, ns: Namespaces) -> bool:
    """Whether an `Annotated` metadata expression is the static marker. Other metadata may
    be anything (calls, names defined later): it is only evaluated if it is a name."""
    if not isinstance(metadata, (ast.Name, ast.Attribute)):
        return False
    try:
        return ns.eval(ast.unparse(metadata)) is STATIC_MARKER
    except UnresolvedName:
        return False
