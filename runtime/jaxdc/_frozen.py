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

from jaxdc._hashability import class_name
from jaxdc._spec import CACHE_ATTR, spec_of

__all__ = ["CONSTRUCTING", "EDITING", "frozen_delattr", "frozen_setattr"]

CONSTRUCTING: set[int] = set()
EDITING: set[int] = set()

_object_setattr = object.__setattr__


def _fix(name: str) -> str:
    return (
        f"Fix: jaxdc.replace(obj, {name}=...), or for nested edits "
        f"`with jaxdc.copy_and_mutate(obj) as new: new.{name} = ...` (spelled "
        f"`jaxdc.attr(new, lambda n: n.{name}).set(...)` where type checkers must accept it)."
    )


def frozen_setattr(self: Any, name: str, value: Any) -> None:
    """`__setattr__` of every jaxdc class."""
    key = id(self)
    if key in CONSTRUCTING:
        spec = spec_of(type(self))
        if spec is not None and any(f.name == name for f in spec.excluded):
            raise TypeError(
                f"field '{name}' of class '{class_name(type(self))}' is not part of the "
                f"pytree (init=False or pytree=False), so a value computed during "
                f"construction would be lost after jit/vmap/tree_map (jaxdc never re-runs "
                f"__init__/__post_init__ on unflatten). Fix: declare it "
                f"jaxdc.field(init=False, pytree=True) to carry it, or compute it in a property."
            )
        _object_setattr(self, name, value)
    elif key in EDITING:
        spec = spec_of(type(self))
        if spec is not None and name not in spec.data and name not in spec.static:
            raise AttributeError(
                f"cannot assign '{name}' in copy_and_mutate: class '{class_name(type(self))}' "
                f"has no pytree field '{name}' (fields: "
                f"{', '.join(f.name for f in spec.fields)}; fields left out of the pytree keep "
                f"their defaults)."
            )
        _object_setattr(self, name, value)
        if spec is not None and spec.cached:  # keep flatten/replace right inside the block
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
            from jaxdc._construct import undecorated_error

            raise undecorated_error(type(self))
        what = "field" if name in getattr(self, "__dataclass_fields__", {}) else "attribute"
        raise dataclasses.FrozenInstanceError(
            f"cannot assign to {what} '{name}' of '{class_name(type(self))}': jaxdc instances "
            f"are frozen, like JAX arrays. {_fix(name)}"
        )


def frozen_delattr(self: Any, name: str) -> None:
    """`__delattr__` of every jaxdc class: never allowed, a pytree needs all its fields."""
    raise dataclasses.FrozenInstanceError(
        f"cannot delete field '{name}' of '{class_name(type(self))}': jaxdc instances are "
        f"frozen and every field is part of the pytree. {_fix(name)}"
    )
