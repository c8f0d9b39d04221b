"""`copy_and_mutate(obj)`: edit a copy of a frozen tree in place, at the cost of the edited paths.

    with jaxdc.copy_and_mutate(state) as new:
        new.model.encoder.w = w2        # `state` itself is left untouched

The public definition (the stubs and the mypy plugin know `copy_and_mutate` by this
module's name); the machinery lives in the `jaxdc._edit` package, whose README explains
the design and its invariants.
"""

from __future__ import annotations

from typing import TypeVar

from jaxdc._edit import CopyAndMutate

__all__ = ["CopyAndMutate", "copy_and_mutate"]

_T = TypeVar("_T")


def copy_and_mutate(obj: _T, validate: bool = True) -> CopyAndMutate:
    """A context manager yielding an editable copy of `obj` (a jaxdc instance, or a list or
    dict of them).

    Assign fields at any depth inside the block (`new.a.b = x`, `new.layers[0].w = w`);
    `obj` is never changed, and untouched subtrees are shared with it, not copied. On exit
    the copy is frozen again. With `validate=True` (default), an edit that changes the tree
    structure (including static field values), or the shape or dtype of an array leaf,
    raises a `ValueError` naming the path, e.g. `new.a.b`; pass `validate=False` to allow
    it. If the block fails at exit (a validation error, an unhashable static value), every
    edit is discarded: `new` then holds `obj`'s values, so no rejected value is left in it.
    """
    return CopyAndMutate(obj, validate)
