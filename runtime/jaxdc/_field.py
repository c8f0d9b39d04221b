"""`field()`: `dataclasses.field` plus the two jaxdc field kinds (static, not in the pytree).

The kinds are stored in the field's metadata, which is what other tools read:
`{"static": True}` is the key `jax.tree_util.register_dataclass` understands, and
`{"jaxdc.pytree": False}` marks a field that is left out of the pytree entirely.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from typing import Any

__all__ = ["PYTREE_KEY", "STATIC_KEY", "field", "static_field"]

STATIC_KEY = "static"
PYTREE_KEY = "jaxdc.pytree"

_MISSING: Any = dataclasses.MISSING


def field(
    *,
    default: Any = _MISSING,
    default_factory: Callable[[], Any] = _MISSING,
    init: bool = True,
    repr: bool = True,
    hash: bool | None = None,
    compare: bool = True,
    metadata: Mapping[Any, Any] | None = None,
    kw_only: bool = _MISSING,
    static: bool | None = None,
    pytree: bool | None = None,
) -> Any:
    """Declare a field of a jaxdc class.

    `static=True` makes the field static (same as annotating it `Static[T]`); `None`
    leaves the decision to the annotation. `pytree=False` leaves the field out of the
    pytree: it is neither a leaf nor part of the treedef, and after `jit`/`vmap`/
    `tree_map` it holds its default. `pytree=None` means: in the pytree unless
    `init=False`; `init=False, pytree=True` carries a field computed in `__post_init__`.
    """
    meta = dict(metadata or {})
    if static is not None:
        meta[STATIC_KEY] = static
    if pytree is not None:
        meta[PYTREE_KEY] = pytree
    if static and pytree is False:
        raise TypeError(
            "jaxdc.field(static=True, pytree=False): a field is either static (part of "
            "the treedef) or left out of the pytree, not both. Fix: drop one of them."
        )
    return dataclasses.field(
        default=default,
        default_factory=default_factory,
        init=init,
        repr=repr,
        hash=hash,
        compare=compare,
        metadata=meta or None,
        kw_only=kw_only,
    )


def static_field(**kwargs: Any) -> Any:
    """`field(static=True, ...)`; the spelling older jax_dataclasses code uses."""
    return field(static=True, **kwargs)
