"""`replace(obj, **changes)`: a copy with some fields changed, without running `__init__`.

Copy-on-write through generated code (several times faster than `dataclasses.replace`,
which re-runs the constructor; measured in benchmarks/results-*.md); it works for classes
with a custom `__init__` too. Changed static values are validated like at construction.
"""

from __future__ import annotations

from typing import Any, TypeVar

from _jaxdc_rules import messages

from jaxdc._display import class_name

__all__ = ["replace"]

_T = TypeVar("_T")


def replace(obj: _T, /, **changes: Any) -> _T:
    try:
        fast_replace = type(obj).__jaxdc_replace__  # type: ignore[attr-defined]
    except AttributeError:
        raise TypeError(messages.replace_needs_instance(class_name(type(obj)))) from None
    return fast_replace(obj, changes)  # type: ignore[no-any-return]
