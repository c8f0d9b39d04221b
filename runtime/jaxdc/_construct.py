"""Finishing an instance: run `__post_init__`, check every field is set, validate static
values once, and store the flatten cache `(children, statics)`.

Generated `__init__`s inline the common case; this module holds the general paths
(custom `__init__`, `__post_init__`, subclasses calling `super().__init__`, pickle).
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable
from typing import Any

from _jaxdc_rules import messages

from jaxdc._display import class_name, is_array, type_shown
from jaxdc._equality import LenientStatics
from jaxdc._frozen import CONSTRUCTING, EDITING, frozen_setattr, undecorated
from jaxdc._spec import CACHE_ATTR, ClassSpec, spec_of

__all__ = [
    "excluded_given_error",
    "finish",
    "mutable_setattr",
    "run_post_init",
    "seal",
    "static_value_error",
    "static_value_message",
    "wrap_custom_init",
]

_object_setattr = object.__setattr__
_MISSING = object()


def seal(obj: Any, spec: ClassSpec) -> None:
    """Check all fields are set, fill excluded defaults, validate statics, store the cache."""
    for f in spec.excluded:
        if f.factory is not None and getattr(obj, f.name, _MISSING) is _MISSING:
            _object_setattr(obj, f.name, f.factory())
    values = {}
    for f in spec.fields:
        if f.kind == "excluded":
            continue
        value = getattr(obj, f.name, _MISSING)
        if value is _MISSING:
            message = messages.field_not_set(f.name, class_name(type(obj)), init=f.field.init)
            raise TypeError(message)
        values[f.name] = value
    statics = tuple(values[n] for n in spec.static)
    try:
        hash(statics)
    except TypeError:
        statics = _unhashable_statics(obj, spec, statics)
    if spec.cached:
        _object_setattr(obj, CACHE_ATTR, (tuple(values[n] for n in spec.data), statics))


def static_value_error(obj: Any, statics: tuple[Any, ...]) -> tuple[Any, ...]:
    """`_unhashable_statics` for generated code, which builds instances of its own class."""
    spec = spec_of(type(obj))
    assert spec is not None
    return _unhashable_statics(obj, spec, statics)


def _unhashable_statics(obj: Any, spec: ClassSpec, statics: tuple[Any, ...]) -> tuple[Any, ...]:
    """Static values of `obj` that `hash()` rejects: a TypeError naming the first one; on
    the migration path a warning per field, and the statics to store, which name the field
    if jit cannot compare them (`LenientStatics`)."""
    for name, value in zip(spec.static, statics, strict=True):
        try:
            hash(value)
        except TypeError as exc:
            spec.report(static_value_message(class_name(type(obj)), name, value, exc), name)
    return LenientStatics.of(spec.cls, spec.static, statics)


def static_value_message(cls_name: str, name: str, value: Any, exc: TypeError) -> str:
    """Why `value` cannot be the static field `name` of `cls_name` (`exc`: hash()'s error)."""
    array = _find_array(value)
    if array is None:
        return messages.static_value_unhashable(name, cls_name, class_name(type(value)), str(exc))
    kind = type_shown(array)
    if array is value:
        return messages.static_value_array(name, cls_name, kind, None)
    return messages.static_value_array(name, cls_name, class_name(type(value)), kind)


def _find_array(value: Any) -> Any:
    if is_array(value):
        return value
    if isinstance(value, (tuple, list)):
        for item in value:
            if (found := _find_array(item)) is not None:
                return found
    return None


def excluded_given_error(obj: Any, name: str) -> None:
    """Raise the TypeError for a value passed to the constructor for a `pytree=False` field
    (called by generated `__init__`s)."""
    raise TypeError(messages.excluded_given(name, class_name(type(obj))))


def finish(obj: Any) -> None:
    """End of construction for anything but the inlined fast path."""
    spec = spec_of(type(obj)) or undecorated(type(obj))
    if id(obj) not in CONSTRUCTING:  # else an outer __init__ (a subclass's) will seal
        seal(obj, spec)
        if spec.shape_check is not None:
            spec.shape_check(obj)


def run_post_init(obj: Any, *initvars: Any) -> None:
    """Call `__post_init__` with its fields assignable, then finish.

    Fields left out of the pytree must keep their values: one changed behind the frozen
    `__setattr__` (`object.__setattr__`) would be lost after jit, so it is an error.
    """
    spec = spec_of(type(obj)) or undecorated(type(obj))
    key = id(obj)
    outer = key not in CONSTRUCTING
    if outer:
        CONSTRUCTING.add(key)
    before = _excluded_values(obj, spec) if spec.excluded else None
    try:
        obj.__post_init__(*initvars)
    finally:
        if outer:
            CONSTRUCTING.discard(key)
    if before:
        _check_excluded_unchanged(obj, spec, before)
    if outer:
        seal(obj, spec)


def mutable_setattr(self: Any, name: str, value: Any) -> None:
    """`__setattr__` of a class declared mutable on the migration path (chex's default, or
    `frozen=False`): a field can be assigned, as in the original library, and the flatten
    cache is refreshed so JAX sees the new value. The first assignment of each field warns
    with the error jaxdc's own path raises."""
    key = id(self)
    if key in CONSTRUCTING or key in EDITING:
        frozen_setattr(self, name, value)
        return
    spec = spec_of(type(self))  # None: an undecorated subclass, a pytree leaf
    if spec is None or (name not in spec.data and name not in spec.static):
        _object_setattr(self, name, value)
        return
    message = messages.frozen_assignment(name, class_name(type(self)))
    spec.report(message, f"assign {name}", error=dataclasses.FrozenInstanceError)
    _object_setattr(self, name, value)
    seal(self, spec)


def wrap_custom_init(user_init: Callable[..., None]) -> Callable[..., None]:
    """A user-written `__init__`: fields assignable inside it, sealed after it."""

    @functools.wraps(user_init)
    def __init__(self: Any, *args: Any, **kwargs: Any) -> None:
        key = id(self)
        if key in CONSTRUCTING:  # called through super().__init__ from a subclass
            user_init(self, *args, **kwargs)
            return
        spec = spec_of(type(self))
        before = _excluded_values(self, spec) if spec is not None and spec.excluded else None
        CONSTRUCTING.add(key)
        try:
            user_init(self, *args, **kwargs)
        finally:
            CONSTRUCTING.discard(key)
        if before:
            _check_excluded_unchanged(self, spec, before)  # type: ignore[arg-type]
        finish(self)

    return __init__


def _excluded_values(obj: Any, spec: ClassSpec) -> list[Any]:
    """The values of the fields left out of the pytree, before construction code runs."""
    return [getattr(obj, f.name, _MISSING) for f in spec.excluded]


def _check_excluded_unchanged(obj: Any, spec: ClassSpec, before: list[Any]) -> None:
    for f, old in zip(spec.excluded, before, strict=True):
        # A field unset before (a default_factory) may be filled by a parent's __init__.
        if old is not _MISSING and getattr(obj, f.name, _MISSING) is not old:
            cls = class_name(type(obj))
            raise TypeError(messages.excluded_set_in_construction(f.name, cls))
