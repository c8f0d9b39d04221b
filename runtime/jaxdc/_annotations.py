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
import sys
import typing
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import typing_extensions

from jaxdc._static import STATIC_MARKER, is_static_annotation

__all__ = ["CallerScope", "Namespaces", "UnresolvedName", "caller_scope", "is_static", "resolve"]

_ANNOTATED = {typing.Annotated, typing_extensions.Annotated}
_FRAMEWORK_MODULES = ("jaxdc", "typing", "typing_extensions", "abc", "dataclasses")


class UnresolvedName(Exception):
    """An annotation names something that does not exist (yet) at runtime."""

    def __init__(self, name: str) -> None:
        super().__init__(name)
        self.name = name


@dataclass(frozen=True)
class CallerScope:
    """The globals and locals of the code that defined a class (its class statement)."""

    globalns: Mapping[str, Any]
    localns: Mapping[str, Any] | None


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


def caller_scope() -> CallerScope | None:
    """The scope whose class statement is being decorated.

    Needed for `from __future__ import annotations`: the string 'Static[int]' can only be
    evaluated where the class was written, which may be a function (local imports) or
    code whose globals are not `sys.modules[cls.__module__]` (exec, notebooks).
    """
    frame = sys._getframe(1)
    while frame is not None and _is_framework(frame.f_globals.get("__name__", "")):
        frame = frame.f_back
    if frame is None:
        return None
    local = None if frame.f_locals is frame.f_globals else dict(frame.f_locals)
    return CallerScope(frame.f_globals, local)


def _is_framework(module: str) -> bool:
    return any(module == m or module.startswith(m + ".") for m in _FRAMEWORK_MODULES)


def resolve(annotation: Any, ns: Namespaces) -> Any:
    """The annotation as a runtime object. Raises `UnresolvedName`."""
    while isinstance(annotation, (str, typing.ForwardRef)):  # PEP 563 + quotes: "'T'"
        source = annotation if isinstance(annotation, str) else annotation.__forward_arg__
        annotation = ns.eval(source)
    return annotation


def is_static(annotation: Any, ns: Namespaces) -> bool:
    """Whether the annotation marks a static field. Raises `UnresolvedName` only when
    the head of the annotation itself cannot be resolved."""
    if not isinstance(annotation, (str, typing.ForwardRef)):
        return is_static_annotation(annotation)
    source = annotation if isinstance(annotation, str) else annotation.__forward_arg__
    try:
        value = ns.eval(source)
    except UnresolvedName:
        pass  # the head may still be resolvable: `Static["Later"]`
    else:  # a quoted annotation under PEP 563 evaluates to the inner string
        return is_static(value, ns) if isinstance(value, str) else is_static_annotation(value)
    try:
        node = ast.parse(source.strip(), mode="eval").body
    except SyntaxError:
        return False  # not an expression we can read; it cannot be Static[...] either
    return _node_is_static(node, ns)


def _node_is_static(node: ast.expr, ns: Namespaces) -> bool:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return is_static(node.value, ns)
    if isinstance(node, (ast.Name, ast.Attribute)):
        return is_static_annotation(ns.eval(ast.unparse(node)))
    if not isinstance(node, ast.Subscript):
        return False  # unions, calls, ...: never Static at the top level
    head = ns.eval(ast.unparse(node.value))
    if head in _ANNOTATED:
        elements = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
        return any(ns.eval(ast.unparse(meta)) is STATIC_MARKER for meta in elements[1:])
    return is_static_annotation(head)
