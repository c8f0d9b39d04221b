"""Frozen instances, and the two windows in which their fields may be assigned.

Instances are immutable like JAX arrays. Fields may be assigned only
- while the instance is being constructed (`__init__` / `__post_init__`), and
- while `copy_and_mutate` edits the fresh copy it yields (its pytree fields, and the
  properties with setters that assign them).
Both windows are sets of `id(obj)`, so an ordinary instance pays nothing and code that
assigns fields keeps the plain `self.x = ...` spelling.
"""

from __future__ import annotations

import dataclasses
import types
from collections.abc import Callable
from typing import Any

from _jaxdc_rules import messages

from jaxdc._annotations import class_origin
from jaxdc._display import class_name
from jaxdc._policy import report
from jaxdc._spec import CACHE_ATTR, ClassSpec, spec_of

__all__ = [
    "CONSTRUCTING",
    "EDITING",
    "data_descriptor_type",
    "descriptor_setter",
    "frozen_delattr",
    "frozen_setattr",
    "undecorated",
]

CONSTRUCTING: set[int] = set()
EDITING: set[int] = set()

_object_setattr = object.__setattr__
_SLOT_DESCRIPTORS = (types.MemberDescriptorType, types.GetSetDescriptorType)


def frozen_setattr(self: Any, name: str, value: Any) -> None:
    """`__setattr__` of every jaxdc class."""
    key = id(self)
    if key in CONSTRUCTING:
        spec = spec_of(type(self))
        if spec is not None and any(f.name == name for f in spec.excluded):
            raise TypeError(messages.excluded_in_construction(name, class_name(type(self))))
        if (
            spec is not None
            and name not in spec.data
            and name not in spec.static
            and _user_setter(type(self), name) is None
        ):
            message = messages.non_field_in_construction(name, class_name(type(self)))
            spec.report(message, f"assign {name}")
        _object_setattr(self, name, value)
    elif key in EDITING:
        spec = spec_of(type(self))
        if spec is None or name in spec.data or name in spec.static:
            _object_setattr(self, name, value)
        else:  # a property of the class (its setter assigns fields), or an error
            descriptor_setter(type(self), name, spec)(self, value)
        if spec is not None and spec.cached:  # keep flatten/replace right inside the block
            # (the same cache `_construct.seal` stores: keep the two in step)
            _object_setattr(
                self,
                CACHE_ATTR,
                (
                    tuple(getattr(self, n) for n in spec.data),
                    tuple(getattr(self, n) for n in spec.static),
                ),
            )
    else:
        is_field = name in getattr(self, "__dataclass_fields__", {})
        if spec_of(type(self)) is None:  # an undecorated subclass's own __init__
            undecorated(type(self))  # raises on jaxdc's path
            if not is_field:  # as for a frozen dataclass's undecorated subclass
                _object_setattr(self, name, value)
                return
        raise dataclasses.FrozenInstanceError(
            messages.frozen_assignment(name, class_name(type(self)), is_field=is_field)
        )


def descriptor_setter(cls: type, name: str, spec: ClassSpec) -> Callable[[Any, Any], None]:
    """How a copy_and_mutate block assigns `name`, which is not a pytree field of `cls`:
    through the class's own settable attribute (a property with a setter), as a mutable
    object would, so the fields the setter assigns are edits; else an error naming the
    fields."""
    setter = _user_setter(cls, name)
    if setter is not None:
        return setter
    fields = (f.name for f in spec.fields)
    raise AttributeError(messages.edit_no_such_field(name, class_name(spec.cls), fields))


def _user_setter(cls: type, name: str) -> Callable[[Any, Any], None] | None:
    """The setter of ``cls``'s own settable attribute ``name`` (a property with a setter, or
    another data descriptor), found in the classes' namespaces so that no ``__get__`` or
    metaclass hook runs for the question; None if it has none. (Slots, `__dict__` and
    `__weakref__` are not the user's descriptors.)"""
    for klass in cls.__mro__:
        if name in klass.__dict__:
            attr = klass.__dict__[name]
            setter = getattr(type(attr), "__set__", None)
            if setter is not None and not isinstance(attr, _SLOT_DESCRIPTORS):
                return lambda obj, value: setter(attr, obj, value)
            return None
    return None


def data_descriptor_type(cls: type, name: str) -> type | None:
    """The type of the user's data descriptor `cls` (or a base) holds at `name`, or None.

    Unflatten, `replace` and unpickling store fields with `object.__setattr__`, which calls
    a data descriptor's `__set__`: user code behind the user's back. Found in the
    namespaces (the class's, then its type's MRO), so that asking runs no `__get__` and no
    metaclass `__getattr__`. A non-data descriptor (a function, a staticmethod, a
    cached_property) is shadowed by the instance's own value and never runs; slots are
    jaxdc's storage, not the user's descriptors."""
    for klass in cls.__mro__:
        if name in klass.__dict__:
            attr = klass.__dict__[name]
            if isinstance(attr, _SLOT_DESCRIPTORS):
                return None
            kind = type(attr)
            hooks = ("__set__", "__delete__")
            if any(hook in k.__dict__ for k in kind.__mro__ for hook in hooks):
                return kind
            return None
    return None


def frozen_delattr(self: Any, name: str) -> None:
    """`__delattr__` of every jaxdc class: never allowed, a pytree needs all its fields."""
    raise dataclasses.FrozenInstanceError(messages.frozen_delete(name, class_name(type(self))))


def undecorated(cls: type) -> ClassSpec:
    """A subclass of a jaxdc class that is not decorated itself is being constructed: JAX
    would treat its instances as leaves. An error naming the fix; on the migration path (where
    flax and chex let it become a leaf) a warning, and the spec of the base it inherits."""
    parent = next((s for k in cls.__mro__[1:] if (s := spec_of(k)) is not None), None)
    shown = class_name(parent.cls) if parent is not None else "object"
    report(
        messages.undecorated_subclass(class_name(cls), shown),
        lenient=parent is not None and parent.lenient,
        cls=cls,
        topic="undecorated",
        origin=class_origin(cls, None),
    )
    assert parent is not None  # else report raised
    return parent
