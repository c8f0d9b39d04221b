"""Frozen instances, and the two windows in which their fields may be assigned.

Instances are immutable like JAX arrays. Fields may be assigned only
- while the instance is being constructed (`__init__` / `__post_init__`), and
- while `copy_and_mutate` edits the fresh copy it yields (its pytree fields only).
Both windows are sets of `id(obj)`, so an ordinary instance pays nothing and code that
assigns fields keeps the plain `self.x = ...` spelling.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from _jaxdc_rules import messages

from jaxdc._display import class_name
from jaxdc._spec import CACHE_ATTR, spec_of

__all__ = ["CONSTRUCTING", "EDITING", "frozen_delattr", "frozen_setattr", "undecorated_error"]

CONSTRUCTING: set[int] = set()
EDITING: set[int] = set()

_object_setattr = object.__setattr__


def frozen_setattr(self: Any, name: str, value: Any) -> None:
    """`__setattr__` of every jaxdc class."""
    key = id(self)
    if key in CONSTRUCTING:
        spec = spec_of(type(self))
        if spec is not None and any(f.name == name for f in spec.excluded):
            raise TypeError(messages.excluded_in_construction(name, class_name(type(self))))
        _object_setattr(self, name, value)
    elif key in EDITING:
        spec = spec_of(type(self))
        if spec is not None and name not in spec.data and name not in spec.static:
            fields = (f.name for f in spec.fields)
            raise AttributeError(messages.edit_no_such_field(name, class_name(type(self)), fields))
        _object_setattr(self, name, value)
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
        if spec_of(type(self)) is None:  # an undecorated subclass's own __init__
            raise undecorated_error(type(self))
        is_field = name in getattr(self, "__dataclass_fields__", {})
        raise dataclasses.FrozenInstanceError(
            messages.frozen_assignment(name, class_name(type(self)), is_field=is_field)
        )


def frozen_delattr(self: Any, name: str) -> None:
    """`__delattr__` of every jaxdc class: never allowed, a pytree needs all its fields."""
    raise dataclasses.FrozenInstanceError(messages.frozen_delete(name, class_name(type(self))))


def undecorated_error(cls: type) -> TypeError:
    """A subclass of a jaxdc class that is not decorated itself is being constructed."""
    parent = next((b for b in cls.__mro__[1:] if spec_of(b) is not None), object)
    return TypeError(messages.undecorated_subclass(class_name(cls), class_name(parent)))
