"""`repr` of jaxdc instances: arrays as dtype and shape, nested trees indented.

    >>> Model(w=jnp.zeros((3, 4)), b=jnp.zeros(4), name="enc")
    Model(w=f32[3,4], b=f32[4], name='enc')

A tree that does not fit on one line gets one field per line, indented by nesting depth.
Printing array values is what makes the default dataclass repr of a model unreadable (and
slow: it copies every array to the host), so only the summary is shown. The values stay
one step away: `repr(model.w)` or `print(model.w)` prints the field itself.

Installed by the decorator in place of the dataclass repr unless the class defines
`__repr__` or is declared with `repr=False`; fields declared `field(repr=False)` are left
out, as in dataclasses.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from jaxdc._display import ARRAYS_AND_SCALARS, array_summary

__all__ = ["tree_repr"]

_WIDTH = 88
_INDENT = "  "


def tree_repr(self: Any) -> str:
    """`__repr__` of jaxdc classes."""
    return _format(self, 0)


def _format(value: Any, depth: int) -> str:
    """One line if it fits in the width left at this depth, else one item per line."""
    if isinstance(value, ARRAYS_AND_SCALARS):
        return array_summary(value)
    parts = _layout(value)
    if parts is None:
        return repr(value)
    open_, items, close = parts
    shown = [k + _format(v, depth + 1) for k, v in items]  # once: both layouts use them
    one_line = open_ + ", ".join(shown) + close
    if len(one_line) + len(_INDENT) * depth <= _WIDTH and "\n" not in one_line:
        return one_line
    pad = _INDENT * (depth + 1)
    return "\n".join([open_, *(f"{pad}{item}," for item in shown), _INDENT * depth + close])


def _layout(value: Any) -> tuple[str, list[tuple[str, Any]], str] | None:
    """(opening, [(prefix, item)], closing) for containers this module lays out."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        if type(value).__repr__ is not tree_repr:
            return None  # a user-defined repr (or a plain dataclass): respect it
        items = [
            (f"{f.name}=", getattr(value, f.name)) for f in dataclasses.fields(value) if f.repr
        ]
        return f"{type(value).__name__}(", items, ")"
    if type(value) is list and value:
        return "[", [("", v) for v in value], "]"
    if type(value) is tuple and value:
        return "(", [("", v) for v in value], ",)" if len(value) == 1 else ")"
    if type(value) is dict and value:
        return "{", [(f"{k!r}: ", v) for k, v in value.items()], "}"
    return None
