"""Finishing an instance: run `__post_init__`, check every field is set, validate static
values once, and store the flatten cache `(children, statics)`.

Generated `__init__`s inline the common case; this module holds the general paths
(custom `__init__`, `__post_init__`, subclasses calling `super().__init__`, pickle).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import jax
import numpy as np

from jaxdc._frozen import CONSTRUCTING
from jaxdc._hashability import class_name
from jaxdc._spec import CACHE_ATTR, ClassSpec, spec_of

__all__ = [
    "finish",
    "reconstruct",
    "run_post_init",
    "seal",
    "static_value_error",
    "undecorated_error",
    "unknown_fields_error",
    "wrap_custom_init",
]

_object_setattr = object.__setattr__
_MISSING = object()


def seal(obj: Any, spec: ClassSpec) -> None:
    """Check all fields are set, fill excluded defaults, validate statics, store the cache."""
    cls_name = class_name(type(obj))
    for f in spec.excluded:
        if f.factory is not None and getattr(obj, f.name, _MISSING) is _MISSING:
            _object_setattr(obj, f.name, f.factory())
    values = {}
    for f in spec.fields:
        if f.kind == "excluded":
            continue
        value = getattr(obj, f.name, _MISSING)
        if value is _MISSING:
            raise TypeError(
                f"field '{f.name}' of class '{cls_name}' was not set by __init__. A custom "
                f"__init__ must assign every field (self.{f.name} = ...) or the field needs a "
                f"default."
            )
        values[f.name] = value
    statics = tuple(values[n] for n in spec.static)
    if spec.cached:
        _object_setattr(obj, CACHE_ATTR, (tuple(values[n] for n in spec.data), statics))
    try:
        hash(statics)
    except TypeError:
        static_value_error(obj, statics)


def static_value_error(obj: Any, statics: tuple[Any, ...]) -> None:
    """Raise the TypeError for the first static value that cannot be hashed."""
    spec = spec_of(type(obj))
    assert spec is not None
    for name, value in zip(spec.static, statics):
        try:
            hash(value)
        except TypeError as exc:
            raise TypeError(
                _static_value_message(class_name(type(obj)), name, value, exc)
            ) from None


def _static_value_message(cls_name: str, name: str, value: Any, exc: TypeError) -> str:
    shown = class_name(type(value))
    array = _find_array(value)
    if array is not None:
        kind = "jax.Array" if isinstance(array, jax.Array) else "numpy.ndarray"
        shown = kind if array is value else shown
        inside = "" if array is value else f" containing a '{kind}'"
        return (
            f"static field '{name}' of class '{cls_name}' got a value of type '{shown}'"
            f"{inside}: arrays are not hashable, so they cannot be static. Fix: make '{name}' "
            f"a data field (drop Static[...] / static=True), or pass a tuple of Python "
            f"scalars if it is a small constant."
        )
    return (
        f"static field '{name}' of class '{cls_name}' got a value of type '{shown}', which is "
        f"not hashable ({exc}). Static values are jit cache keys. Fix: pass an immutable "
        f"value (a tuple instead of a list, a frozenset instead of a set), or make '{name}' a "
        f"data field."
    )


def _find_array(value: Any) -> Any:
    if isinstance(value, (np.ndarray, jax.Array)):
        return value
    if isinstance(value, (tuple, list)):
        for item in value:
            if (found := _find_array(item)) is not None:
                return found
    return None


def undecorated_error(cls: type) -> TypeError:
    parent = next((b for b in cls.__mro__[1:] if spec_of(b) is not None), object)
    return TypeError(
        f"class '{class_name(cls)}' subclasses the pytree dataclass '{class_name(parent)}' "
        f"but is not decorated itself, so JAX would treat its instances as opaque leaves. "
        f"Fix: decorate '{class_name(cls)}' with @jaxdc.pytree_dataclass (subclasses of "
        f"jaxdc.PyTreeNode are decorated automatically)."
    )


def unknown_fields_error(obj: Any, unknown: dict[str, Any]) -> None:
    """Raise the TypeError for `replace(obj, typo=...)`, listing the valid fields."""
    spec = spec_of(type(obj))
    assert spec is not None
    valid = [f.name for f in spec.fields]
    names = sorted(set(unknown) - set(valid) - set(spec.initvars))
    raise TypeError(
        f"replace() got unknown field(s) {', '.join(map(repr, names))} for class "
        f"'{class_name(type(obj))}'; its fields are: {', '.join(valid)}."
    )


def finish(obj: Any) -> None:
    """End of construction for anything but the inlined fast path."""
    spec = spec_of(type(obj))
    if spec is None:
        raise undecorated_error(type(obj))
    if id(obj) not in CONSTRUCTING:  # else an outer __init__ (a subclass's) will seal
        seal(obj, spec)
        if spec.shape_check is not None:
            spec.shape_check(obj)


def run_post_init(obj: Any, *initvars: Any) -> None:
    """Call `__post_init__` with its fields assignable, then finish."""
    key = id(obj)
    outer = key not in CONSTRUCTING
    if outer:
        CONSTRUCTING.add(key)
    try:
        obj.__post_init__(*initvars)
    finally:
        if outer:
            CONSTRUCTING.discard(key)
    finish(obj)


def wrap_custom_init(user_init: Callable[..., None]) -> Callable[..., None]:
    """A user-written `__init__`: fields assignable inside it, sealed after it."""

    @functools.wraps(user_init)
    def __init__(self: Any, *args: Any, **kwargs: Any) -> None:
        key = id(self)
        if key in CONSTRUCTING:  # called through super().__init__ from a subclass
            user_init(self, *args, **kwargs)
            return
        CONSTRUCTING.add(key)
        try:
            user_init(self, *args, **kwargs)
        finally:
            CONSTRUCTING.discard(key)
        finish(self)

    __init__.__jaxdc_custom_init__ = True  # type: ignore[attr-defined]
    return __init__


def reconstruct(cls: type, values: tuple[Any, ...]) -> Any:
    """Unpickle / deepcopy: set the fields without running __init__, then seal."""
    from jaxdc._dataclass import ensure_spec

    spec = ensure_spec(cls)
    obj = object.__new__(cls)
    for f, value in zip(spec.fields, values):
        _object_setattr(obj, f.name, value)
    seal(obj, spec)
    return obj
