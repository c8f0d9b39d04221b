"""The statics jaxdc hands JAX: tuples that print their field or parameter names.

JAX shows a node's metadata with `repr` in its cache-miss explanations
(`jax_explain_cache_misses`) and in every structure-mismatch error (`scan`, `while_loop`,
`cond`, `tree_map` over two trees, `custom_vjp` outputs). A plain tuple `(0.2, 'a')` names
no field; the instances of this module's types print `Opt(lr=0.2, name='a')`, so those
messages say which field of which class differs, with no change to JAX.

Nothing else changes: each class's metadata type is a `tuple` subclass without slots or
methods of its own but `__repr__` and `__reduce__`, so `==` and `hash` are the tuple's (the
same semantics and speed, and equal to a plain tuple of the same values: a treedef made
from either compares equal). The per-class type is jaxdc's own subclass of `tuple`: making
it runs none of the user's class machinery.

Pickling a treedef pickles its metadata by the owner class and the values, so it unpickles
into the owner's metadata type again (the owner is pickled by reference, as the treedef's
node type already is).

`jaxdc.jit` hands each static argument to `jax.jit` as a `StaticArgument`, so JAX's
cache-miss explanation shows `Static(val=lr=0.2)` where it showed `Static(val=0.2)`.
"""

from __future__ import annotations

from typing import Any, ClassVar

from _jaxdc_rules.messages import class_display
from jax.tree_util import GetAttrKey

__all__ = [
    "CACHE_ATTR",
    "StaticArgument",
    "StaticMetadata",
    "metadata_type",
    "registered_metadata",
    "static_argument",
]

CACHE_ATTR = "_jaxdc_flat_"
"""The attribute holding each instance's `(children, statics)`: what flatten returns."""


class StaticMetadata(tuple[Any, ...]):
    """The static field values of one instance, in field order; shown with their names."""

    __slots__ = ()
    owner: ClassVar[type]
    names: ClassVar[tuple[str, ...]]
    shown: ClassVar[str]  # the owner as messages show it (`Outer.Inner`)
    data_keys: ClassVar[tuple[GetAttrKey, ...] | None]
    """The key paths of the owner's children, for a class whose instances carry
    `CACHE_ATTR` (so `_tree_diff` reads them without JAX's registry); else None."""

    def __repr__(self) -> str:
        pairs = ", ".join(f"{n}={v!r}" for n, v in zip(self.names, self, strict=False))
        return f"{self.shown}({pairs})"

    def __reduce__(self) -> tuple[Any, ...]:
        return _rebuild, (self.owner, self.names, tuple(self))


# Owner class -> its metadata type. A plain dict: JAX's registry keeps every registered
# class alive anyway, and each metadata type refers to its owner.
_TYPES: dict[type, type[StaticMetadata]] = {}


def metadata_type(
    owner: type, names: tuple[str, ...], cached_data: tuple[str, ...] | None = None
) -> type[StaticMetadata]:
    """The metadata type of class `owner`, whose static fields are `names` (made once).
    `cached_data`: its data field names, when its instances carry `CACHE_ATTR`."""
    made = _TYPES.get(owner)
    keys = None if cached_data is None else tuple(GetAttrKey(n) for n in cached_data)
    if made is None or made.names != names or (keys is not None and made.data_keys != keys):
        namespace = {
            "__slots__": (),
            "__module__": owner.__module__,
            "__qualname__": f"{owner.__qualname__}.<static metadata>",
            "owner": owner,
            "names": names,
            "shown": class_display(owner.__qualname__),
            "data_keys": keys,
        }
        made = type(f"{owner.__name__}Metadata", (StaticMetadata,), namespace)
        _TYPES[owner] = made
    return made


def registered_metadata(cls: type) -> type[StaticMetadata] | None:
    """The metadata type of jaxdc class `cls` (None for any other type)."""
    return _TYPES.get(cls)


def _rebuild(owner: type, names: tuple[str, ...], values: tuple[Any, ...]) -> StaticMetadata:
    """Unpickling: the values again in the owner's metadata type."""
    return metadata_type(owner, names)(values)


class StaticArgument(tuple[Any, ...]):
    """`(parameter name, type of the value, value)`: a static argument of a `jaxdc.jit`
    function as `jax.jit` sees it. Equal when the three are, which is JAX's own rule for
    static arguments (`1`, `1.0` and `True` are three cache keys); `==` and `hash` are the
    tuple's (C code, on every call)."""

    __slots__ = ()

    def __repr__(self) -> str:
        return f"{self[0]}={self[2]!r}"


_new_tuple = tuple.__new__


def static_argument(name: str, value: Any) -> StaticArgument:
    return _new_tuple(StaticArgument, (name, type(value), value))
