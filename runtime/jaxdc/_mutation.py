"""`attr(obj, lambda o: o.a.b).set(value)`: field assignment that type checkers accept.

The stubs declare every jaxdc class frozen (`dataclass_transform(frozen_default=True)`), so
pyright and mypy reject `self.x = v` even where the runtime allows it: inside a custom
`__init__`/`__post_init__` and inside a `copy_and_mutate` block. `attr` is the spelling both
checkers accept without ignores while still checking it: the lambda is type-checked against
the object (unknown attribute = error) and `.set()` against the attribute's declared type.

At runtime `.set(value)` is exactly `parent.name = value` on the object the path leads to,
so it is allowed exactly where plain assignment is, and nowhere else: `attr` opens no
mutation window of its own, it is not a way around frozenness.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Generic, TypeVar, final

from _jaxdc_rules.messages import NOT_A_PATH

_T = TypeVar("_T")
_V = TypeVar("_V")


class _PathRecorder:
    """Stands in for the object while `where` runs, recording the attribute names read.

    Recording (instead of evaluating `where` on the object) matters in `__init__`, where the
    field being assigned has no value yet.
    """

    __slots__ = ("_jaxdc_path",)

    def __init__(self, path: tuple[str, ...]) -> None:
        self._jaxdc_path = path

    def __getattr__(self, name: str) -> _PathRecorder:
        return _PathRecorder((*self._jaxdc_path, name))


def _record_path(where: Callable[[Any], object]) -> tuple[str, ...]:
    try:
        result = where(_PathRecorder(()))
    except Exception as exc:  # anything but attribute reads fails on the recorder
        raise TypeError(NOT_A_PATH) from exc
    if type(result) is not _PathRecorder or not result._jaxdc_path:
        raise TypeError(NOT_A_PATH)
    return result._jaxdc_path


@final
class Attr(Generic[_V]):
    """An assignable attribute path on one object; made by `attr`."""

    __slots__ = ("_obj", "_path")

    def __init__(self, obj: object, path: tuple[str, ...]) -> None:
        self._obj = obj
        self._path = path

    def set(self, value: _V, /) -> None:
        """Assign `value` in place (returns None, unlike jax's functional `.at[].set()`)."""
        parent = self._obj
        for name in self._path[:-1]:
            parent = getattr(parent, name)
        setattr(parent, self._path[-1], value)

    def __repr__(self) -> str:
        return f"jaxdc.attr({type(self._obj).__name__}, lambda o: o.{'.'.join(self._path)})"


def attr(obj: _T, where: Callable[[_T], _V], /) -> Attr[_V]:
    """Name the attribute `where(obj)` so `.set(value)` can assign it.

    `where` must be an attribute path such as `lambda o: o.a.b`; it is called once on a
    recorder, never on `obj`.
    """
    return Attr(obj, _record_path(where))
