"""The grammar of jaxtyping's shape strings (`"b n"`, `"*batch 3"`, `"#c dim-1"`, `""`).

One reader for both layers: the runtime (`jaxdc._shapes_annotations`) compiles a class's
shape annotations with it, and the mypy plugin reports a string it can prove malformed
(`jaxdc-shape`); both word the problem with `messages.shape_malformed`. It accepts exactly
what jaxtyping accepts (its `Float[...]` raises ValueError for everything rejected here),
plus one thing jaxtyping only finds when it checks an array: a symbolic dimension that is
not a Python expression (`"n+("`), which can never be evaluated.

Pure Python: imports neither jax nor mypy.

The grammar, per whitespace-separated token:
- `...`: any number of anonymous axes (alone, no modifiers);
- modifiers, in any order, at most once each: `#` broadcastable (size 1 also fits), `*`
  variadic (zero or more axes), `_` anonymous (not checked), `?` varies within a PyTree;
  a `name=` prefix is documentation (`rows=4` is `4`);
- then an integer (fixed size), an identifier or nothing (a named or anonymous axis), or
  any other text: a symbolic expression over named axes (`dim-1`, `2*n`), optionally
  with f-string fields (`{size}`) filled in from the instance's fields;
- at most one variadic token (`...` or `*name`) per string.
"""

from __future__ import annotations

from typing import Literal, NamedTuple

__all__ = [
    "JAXTYPING_DTYPES",
    "VARIADIC_KINDS",
    "Dim",
    "MalformedShape",
    "Shape",
    "fstring_fields",
    "parse_shape",
    "shape_problem",
]

DimKind = Literal["fixed", "named", "anonymous", "variadic", "anonymous_variadic", "symbolic"]
VARIADIC_KINDS = ("variadic", "anonymous_variadic")


class Dim(NamedTuple):
    """One token of a shape string.

    `name` is the dimension name for `named`/`variadic` (`*batch`; `...` and `*_` are
    `anonymous_variadic`), the expression for `symbolic`; `size` is set for `fixed`.
    """

    kind: DimKind
    name: str = ""
    size: int = 0
    broadcastable: bool = False
    text: str = ""
    """The token as written, for messages."""


class Shape(NamedTuple):
    dims: tuple[Dim, ...]
    variadic: int | None
    """Index of the variadic token, if any."""


class MalformedShape(ValueError):
    """A shape string jaxtyping rejects, or whose symbolic dimension cannot be evaluated."""

    def __init__(self, dim_str: str, reason: str) -> None:
        super().__init__(f'shape "{dim_str}" is malformed: {reason}')
        self.dim_str = dim_str
        self.reason = reason


JAXTYPING_DTYPES = frozenset(
    {
        *("Shaped", "Bool", "Num", "Real", "Inexact", "Float", "Complex", "Integer"),
        *("Int", "Int2", "Int4", "Int8", "Int16", "Int32", "Int64"),
        *("UInt", "UInt2", "UInt4", "UInt8", "UInt16", "UInt32", "UInt64"),
        *("BFloat16", "Float16", "Float32", "Float64", "Complex64", "Complex128", "Key"),
        *("Float4e2m1fn", "Float8e4m3b11fnuz", "Float8e4m3fn", "Float8e4m3fnuz"),
        *("Float8e5m2", "Float8e5m2fnuz"),
    }
)
"""jaxtyping's dtypes: `Float[Array, "<shape>"]` (PyTree's string is a structure name)."""

_MODIFIERS = {"#": "broadcastable", "*": "variadic", "_": "anonymous", "?": "pytree"}
_MODIFIER_EXAMPLES = {"#": "##n", "*": "**n", "_": "__n", "?": "??n"}
_PLACEHOLDERS = ("1", "_jaxdc_field")


def parse_shape(dim_str: str) -> Shape:
    """The dims of a shape string. Raises `MalformedShape` with the reason."""
    dims: list[Dim] = []
    variadic: int | None = None
    for index, token in enumerate(dim_str.split()):
        dim = _parse_token(dim_str, token)
        if dim.kind in VARIADIC_KINDS:
            if variadic is not None:
                raise MalformedShape(
                    dim_str,
                    f"'{dims[variadic].text}' and '{token}' both match any number of axes; "
                    f"a shape can have at most one variadic dimension (... or *name)",
                )
            variadic = index
        dims.append(dim)
    return Shape(tuple(dims), variadic)


def shape_problem(dim_str: str) -> str | None:
    """Why `dim_str` is malformed, or None (what the mypy plugin asks)."""
    try:
        parse_shape(dim_str)
    except MalformedShape as exc:
        return exc.reason
    return None


def _parse_token(dim_str: str, token: str) -> Dim:
    if "," in token and "(" not in token:
        raise MalformedShape(dim_str, "separate dimensions with spaces, not commas")
    if token.endswith("#"):
        raise MalformedShape(dim_str, f"'{token}': write the broadcast marker # first (#n)")
    if "..." in token:
        if token != "...":
            raise MalformedShape(dim_str, f"'{token}': '...' must stand alone")
        return Dim("anonymous_variadic", text=token)
    seen: set[str] = set()
    rest = token
    while rest:
        head = rest[0]
        if head in _MODIFIERS:
            if head in seen:
                raise MalformedShape(
                    dim_str,
                    f"'{token}': the {_MODIFIERS[head]} marker {head} is repeated "
                    f"({_MODIFIER_EXAMPLES[head]} is not allowed)",
                )
            seen.add(head)
            rest = rest[1:]
        elif rest.count("=") == 1:  # `rows=4`: the name is documentation only
            rest = rest.split("=")[1]
        else:
            break
    broadcastable, variadic, anonymous = "#" in seen, "*" in seen, "_" in seen
    if not rest or rest.isidentifier():
        if anonymous and broadcastable:
            raise MalformedShape(dim_str, f"'{token}': an anonymous axis cannot be broadcastable")
        if variadic:
            if anonymous:
                return Dim("anonymous_variadic", text=token)
            return Dim("variadic", rest, 0, broadcastable, token)
        if anonymous:
            return Dim("anonymous", text=token)
        return Dim("named", rest, 0, broadcastable, token)
    try:
        size = int(rest)
    except ValueError:
        pass
    else:
        for marker, what in (("*", "match several axes"), ("_", "be anonymous"), ("?", "vary")):
            if marker in seen:
                raise MalformedShape(dim_str, f"'{token}': a fixed size cannot {what}")
        return Dim("fixed", "", size, broadcastable, token)
    for marker, what in (("*", "match several axes"), ("_", "be anonymous"), ("?", "vary")):
        if marker in seen:
            raise MalformedShape(dim_str, f"'{token}': a symbolic dimension cannot {what}")
    problem = _expression_problem(rest)
    if problem is not None:
        raise MalformedShape(dim_str, f"'{token}' is not a valid expression ({problem})")
    return Dim("symbolic", rest, 0, broadcastable, token)


def fstring_fields(expr: str) -> list[tuple[int, int]] | str:
    """The `(start, end)` spans of the f-string fields `{...}` of a symbolic dimension
    (jaxtyping fills them in before evaluating it), or why its braces do not balance."""
    spans: list[tuple[int, int]] = []
    depth, start, i = 0, 0, 0
    while i < len(expr):
        char = expr[i]
        if depth == 0 and char in "{}" and expr[i + 1 : i + 2] == char:
            i += 2  # an escaped brace
            continue
        if char == "{":
            start = i if depth == 0 else start
            depth += 1
        elif char == "}":
            if depth == 0:
                return "a '}' closes no '{'"
            depth -= 1
            if depth == 0:
                if not expr[start + 1 : i].strip():
                    return "an empty '{}' field"
                spans.append((start, i + 1))
        elif depth and char in "'\"":  # a string inside a field: skip to its end
            close = expr.find(char, i + 1)
            i = len(expr) if close < 0 else close
        i += 1
    return "a '{' is never closed" if depth else spans


def _expression_problem(expr: str) -> str | None:
    """Why `expr` can never be evaluated, or None.

    f-string fields are replaced by placeholders first; the expression is malformed only
    if it fails to compile with every placeholder (a field's text is unknown before it
    is filled in: `{a}x` may become a name, `2{a}` a number).
    """
    spans = fstring_fields(expr)
    if isinstance(spans, str):
        return spans
    first: str | None = None
    for placeholder in _PLACEHOLDERS:
        text, end = "", 0
        for start, stop in spans:
            text += expr[end:start] + placeholder
            end = stop
        text += expr[end:]
        try:
            compile(text, "<shape>", "eval")
        except SyntaxError as exc:
            first = first or (exc.msg or "syntax error")
        except ValueError as exc:  # e.g. a null byte
            first = first or str(exc)
        else:
            return None
    return first
