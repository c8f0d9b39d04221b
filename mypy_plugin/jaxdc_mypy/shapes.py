"""``jaxdc-shape``: a jaxtyping shape string in a field annotation that is never valid.

jaxtyping's ``Float[Array, "b n"]`` reaches mypy as ``Annotated[Array, "b n"]`` (its stubs
say so), so the array type is checked like any other and the string is lost from the
analysed type. It survives in the field's *unanalysed* annotation: as a raw string
literal, or, when the string happens to parse as a type (``"n"``), as an unbound name
that remembers its source. Both are read back here and given to the shared grammar
(``_jaxdc_rules.shapes``), which accepts everything jaxtyping accepts.

Only subscripts whose head provably is a jaxtyping dtype count: the head must be imported
from jaxtyping in this file (``from jaxtyping import Float``, ``import jaxtyping as jt``),
since after analysis it is indistinguishable from ``typing.Annotated``, whose string
metadata is free-form.
"""

from __future__ import annotations

from collections.abc import Iterator

from _jaxdc_rules import messages
from mypy.nodes import Import, ImportAll, ImportFrom, MypyFile, TypeInfo
from mypy.plugin import CheckerPluginInterface
from mypy.types import ProperType, RawExpressionType, Type, UnboundType, UnionType

from . import codes
from .fields import declaring_statements

_MODULE = "jaxtyping"


class ShapeChecker:
    """Reports each malformed shape string in the annotations a class declares.

    How a module names jaxtyping is read from its imports once, for its first class: mypy
    checks a module's classes one after another. The grammar (``_jaxdc_rules.shapes``) is
    loaded for the first file that imports jaxtyping: a run without one never pays for it."""

    def __init__(self) -> None:
        self._last: tuple[MypyFile, _Heads | None] | None = None

    def check(self, info: TypeInfo, file: MypyFile | None, api: CheckerPluginInterface) -> None:
        if file is None:
            return
        if self._last is None or self._last[0] is not file:
            self._last = (file, _jaxtyping_heads(file))
        heads = self._last[1]
        if heads is None or not (heads.names or heads.modules or heads.star):
            return
        from _jaxdc_rules.shapes import shape_problem

        for name, statement in declaring_statements(info).items():
            for dim_str in _shape_strings(statement.unanalyzed_type, heads):
                reason = shape_problem(dim_str)
                if reason is not None:
                    cls = messages.class_display(
                        messages.qualname_in(info.fullname, info.module_name)
                    )
                    text = messages.shape_malformed(name, cls, dim_str, reason)
                    api.fail(text, statement, code=codes.SHAPE)


class _Heads:
    """How this file can name jaxtyping's dtypes: local names bound to them, module
    aliases (``jt`` for ``import jaxtyping as jt``), and ``from jaxtyping import *``."""

    def __init__(self) -> None:
        from _jaxdc_rules.shapes import JAXTYPING_DTYPES

        self.dtypes = JAXTYPING_DTYPES
        self.names: set[str] = set()
        self.modules: set[str] = set()
        self.star = False

    def is_dtype(self, written: str) -> bool:
        module, _, name = written.rpartition(".")
        if module:
            return module in self.modules and name in self.dtypes
        return name in self.names or (self.star and name in self.dtypes)


def _jaxtyping_heads(file: MypyFile) -> _Heads | None:
    """None for a file that does not import jaxtyping (most files)."""
    heads = None
    for node in file.imports:  # every import in the file, also those inside functions
        if isinstance(node, ImportFrom) and _is_jaxtyping(node.id) and not node.relative:
            heads = heads or _Heads()
            heads.names.update(alias or name for name, alias in node.names if name in heads.dtypes)
        elif isinstance(node, ImportAll) and _is_jaxtyping(node.id) and not node.relative:
            heads = heads or _Heads()
            heads.star = True
        elif isinstance(node, Import):
            modules = [alias or module for module, alias in node.ids if _is_jaxtyping(module)]
            if modules:
                heads = heads or _Heads()
                heads.modules.update(modules)
    return heads


def _is_jaxtyping(module: str) -> bool:
    return module == _MODULE or module.startswith(_MODULE + ".")


def _shape_strings(annotation: Type | None, heads: _Heads) -> Iterator[str]:
    """The shape strings of the jaxtyping subscripts in an unanalysed annotation (also
    nested: ``Float[Array, "n"] | None``, ``Optional[...]``, ``Float[Float[...], "b"]``)."""
    if isinstance(annotation, UnionType):
        for item in annotation.items:
            yield from _shape_strings(item, heads)
        return
    if not isinstance(annotation, UnboundType):
        return
    if heads.is_dtype(annotation.name) and len(annotation.args) == 2:
        text = _string_literal(annotation.args[1])
        if text is not None:
            yield text
    for arg in annotation.args:
        yield from _shape_strings(arg, heads)


def _string_literal(arg: Type | ProperType) -> str | None:
    """The source text of a string literal argument, or None if it is not one."""
    if isinstance(arg, RawExpressionType):
        value = arg.literal_value
        return value if isinstance(value, str) and arg.base_type_name == "builtins.str" else None
    if isinstance(arg, UnboundType) and isinstance(arg.original_str_expr, str):
        return arg.original_str_expr  # a string that parsed as a type: "n", "dim"
    return None
