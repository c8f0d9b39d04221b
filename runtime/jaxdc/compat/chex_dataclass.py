"""`chex.dataclass` on jaxdc: the decorator's signature, `.replace`, and the Mapping interface.

    from jaxdc.compat import chex_dataclass        # was: import chex
    @chex_dataclass.dataclass(frozen=True)          # was: @chex.dataclass(frozen=True)
    class State: ...

Real chex code relies on instances being Mappings (flashbax builds one state from another
with `Cls(**state, extra=...)`), so with `mappable_dataclass=True` (chex's default) the
class gets `keys`/`values`/`items`/`get`, `state["x"]`, `len`, iteration over field names,
and is registered as a `collections.abc.Mapping`. The classes are jaxdc classes on the migration
path: every class and value chex accepts is accepted, and what `jaxdc.pytree_dataclass`
rejects warns once per class and field with `jaxdc.MigrationWarning`, naming the fix
(docs/migrating.md). As in chex, instances are mutable unless `frozen=True`: assigning a
field works (the first assignment of each field warns: jaxdc's own classes are frozen),
and JAX sees the new value. Leaves come in declaration order (chex sorts them by name),
and unflatten never runs `__post_init__`. Never imports chex.
"""

from __future__ import annotations

import collections.abc
import dataclasses
import functools
from collections.abc import Iterator
from typing import Any

from _jaxdc_rules import messages

from jaxdc._annotations import caller_scope
from jaxdc._dataclass import check_options, process
from jaxdc._display import wrong_kind
from jaxdc.compat.flax_struct import install_replace

__all__ = ["dataclass", "mappable_dataclass"]

_UNSET: Any = object()  # chex's default `frozen=False`, told apart from an explicit one


def dataclass(
    cls: Any = None,
    *,
    init: bool = True,
    repr: bool = True,
    eq: bool = True,
    order: bool = False,
    unsafe_hash: bool = False,
    frozen: bool = _UNSET,
    kw_only: bool = False,
    mappable_dataclass: bool = True,
) -> Any:
    """`chex.dataclass`: a jaxdc pytree dataclass with `.replace`, and a Mapping unless
    `mappable_dataclass=False`; mutable unless `frozen=True`, as in chex."""
    options = {"init": init, "repr": repr, "eq": eq, "order": order}
    options |= {"unsafe_hash": unsafe_hash, "kw_only": kw_only}
    if frozen is not _UNSET:  # an explicit frozen=False warns; chex's default does not
        options["frozen"] = frozen
    if cls is None:
        return functools.partial(_decorate, options=options, mappable=mappable_dataclass)
    return _decorate(cls, options=options, mappable=mappable_dataclass)


def _decorate(cls: Any, *, options: dict[str, Any], mappable: bool) -> Any:
    where = "jaxdc.compat.chex_dataclass.dataclass"
    check_options(options, where, lenient=True)
    mutable = "frozen" not in options
    cls = process(cls, options, caller_scope(), where, lenient=True, mutable=mutable)
    install_replace(cls)
    return mappable_dataclass(cls) if mappable else cls


def mappable_dataclass(cls: Any) -> Any:
    """Give a jaxdc class chex's Mapping interface over its fields (in declaration order)."""
    if not (isinstance(cls, type) and dataclasses.is_dataclass(cls)):
        where = "jaxdc.compat.chex_dataclass.mappable_dataclass"
        raise TypeError(wrong_kind(where, messages.DATACLASS_CLASS, cls))
    names = tuple(f.name for f in dataclasses.fields(cls))
    for name, method in _mapping_methods(names).items():
        if name not in cls.__dict__:
            setattr(cls, name, method)
    collections.abc.Mapping.register(cls)
    return cls


def _mapping_methods(names: tuple[str, ...]) -> dict[str, Any]:
    def __getitem__(self: Any, key: str) -> Any:
        if key not in names:
            raise KeyError(key)
        return getattr(self, key)

    def __iter__(self: Any) -> Iterator[str]:
        return iter(names)

    def __len__(self: Any) -> int:
        return len(names)

    def __contains__(self: Any, key: object) -> bool:
        return key in names

    def keys(self: Any) -> collections.abc.KeysView[str]:
        return collections.abc.KeysView(self)

    def values(self: Any) -> collections.abc.ValuesView[Any]:
        return collections.abc.ValuesView(self)

    def items(self: Any) -> collections.abc.ItemsView[str, Any]:
        return collections.abc.ItemsView(self)

    def get(self: Any, key: str, default: Any = None) -> Any:
        return getattr(self, key) if key in names else default

    return {
        "__getitem__": __getitem__,
        "__iter__": __iter__,
        "__len__": __len__,
        "__contains__": __contains__,
        "keys": keys,
        "values": values,
        "items": items,
        "get": get,
    }
