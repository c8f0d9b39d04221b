"""`attr(obj, lambda o: o.a.b).set(value)`: field assignment that type checkers accept.

The stubs declare every jaxdc class frozen (`dataclass_transform(frozen_default=True)`), so
pyright and mypy reject `self.x = v` even where the runtime allows it: inside a custom
`__init__`/`__post_init__` and inside a `copy_and_mutate` block. `attr` is the spelling both
checkers accept without ignores while still checking it: the lambda is type-checked against
the object (unknown attribute = error) and `.set()` against the attribute's declared type.

A path is attribute reads and subscripts, ending in an attribute: `lambda o: o.a.b`,
`lambda o: o.layers[0].w`, `lambda o: o.table["k"].b`. At runtime `.set(value)` is exactly
`<the path's parent> .name = value` on the object the path leads to (each subscript read
with `[]`, as the lambda wrote it), so it is allowed exactly where plain assignment is, and
nowhere else: `attr` opens no mutation window of its own, it is not a way around frozenness.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Generic, TypeVar, final

from _jaxdc_rules import messages

from jaxdc._display import given, wrong_kind
from jaxdc._spec import spec_of

__all__ = ["Attr", "attr"]

_T = TypeVar("_T")
_V = TypeVar("_V")


@final
class _Item:
    """A subscript step of a path (`[key]`); attribute steps are plain `str`s."""

    __slots__ = ("key",)

    def __init__(self, key: object) -> None:
        self.key = key

    def __repr__(self) -> str:
        return f"[{self.key!r}]"


_Step = str | _Item


class _PathRecorder:
    """Stands in for the object while `where` runs, recording the attribute names and
    subscript keys read.

    Recording (instead of evaluating `where` on the object) matters in `__init__`, where the
    field being assigned has no value yet, and keeps `where` from running on user data.
    """

    __slots__ = ("_jaxdc_path",)

    def __init__(self, path: tuple[_Step, ...]) -> None:
        self._jaxdc_path = path

    def __getattr__(self, name: str) -> _PathRecorder:
        return _PathRecorder((*self._jaxdc_path, name))

    def __getitem__(self, key: object) -> _PathRecorder:
        if isinstance(key, slice):  # a slice is a new container, not a place in this one
            raise TypeError(messages.NOT_A_PATH)
        return _PathRecorder((*self._jaxdc_path, _Item(key)))


def _record_path(where: Callable[[Any], object]) -> tuple[_Step, ...]:
    if not callable(where):
        raise TypeError(wrong_kind("jaxdc.attr", messages.ATTR_PATH, where))
    try:
        result = where(_PathRecorder(()))
    except Exception as exc:  # anything but attribute and item reads fails on the recorder
        raise TypeError(messages.NOT_A_PATH) from exc
    if type(result) is not _PathRecorder or not result._jaxdc_path:
        raise TypeError(messages.NOT_A_PATH)
    path = result._jaxdc_path
    if type(path[-1]) is _Item:
        raise TypeError(messages.attr_path_ends_in_item(_show(path)))
    return path


def _show(path: tuple[_Step, ...]) -> str:
    """`.layers[0].w` for the path of `lambda o: o.layers[0].w`."""
    return "".join(repr(step) if type(step) is _Item else f".{step}" for step in path)


@final
class Attr(Generic[_V]):
    """An assignable attribute path on one object; made by `attr`."""

    __slots__ = ("_obj", "_path")

    def __init__(self, obj: object, path: tuple[_Step, ...]) -> None:
        self._obj = obj
        self._path = path

    def set(self, value: _V, /) -> None:
        """Assign `value` in place (returns None, unlike jax's functional `.at[].set()`)."""
        parent: Any = self._obj
        for step in self._path[:-1]:
            parent = parent[step.key] if type(step) is _Item else getattr(parent, step)
        if spec_of(type(parent)) is None:  # not jaxdc's to assign (nor to leave frozen)
            raise TypeError(messages.attr_target_not_jaxdc(_show(self._path[:-1]), given(parent)))
        setattr(parent, self._path[-1], value)  # type: ignore[arg-type]  # a name: checked

    def __repr__(self) -> str:
        return f"jaxdc.attr({type(self._obj).__name__}, lambda o: o{_show(self._path)})"


def attr(obj: _T, where: Callable[[_T], _V], /) -> Attr[_V]:
    """Name the attribute `where(obj)` so `.set(value)` can assign it.

    `where` must be a path of attribute reads and subscripts ending in an attribute, such
    as `lambda o: o.a.b` or `lambda o: o.layers[0].w`; it is called once on a recorder,
    never on `obj`.
    """
    if spec_of(type(obj)) is None and not isinstance(obj, (list, dict, tuple)):
        raise TypeError(wrong_kind("jaxdc.attr", messages.ATTR_TARGET, obj))
    return Attr(obj, _record_path(where))
