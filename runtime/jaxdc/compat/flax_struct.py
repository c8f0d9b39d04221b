"""`flax.struct`'s API on jaxdc: `dataclass`, `field(pytree_node=...)`, `PyTreeNode`.

    from jaxdc.compat import flax_struct as struct   # was: from flax import struct

    @struct.dataclass
    class State:
        params: jax.Array
        apply_fn: Callable = struct.field(pytree_node=False)

    state = state.replace(params=p2)                 # unchanged call sites

Signatures are flax's (`dataclass(clz=None, **kwargs)`, `field(pytree_node=True, *,
metadata=None, **kwargs)`); the classes are jaxdc classes on the migration path: every
class and value flax accepts is accepted, and what `jaxdc.pytree_dataclass` rejects (an
unhashable `pytree_node=False` value such as a dict, arrays in static fields,
`frozen=False`, an undecorated subclass) warns once per class and field with
`jaxdc.MigrationWarning`, naming the fix (see docs/migrating.md). Unflatten never runs
`__init__`. Classes carry flax's `_flax_dataclass` marker, which code written for flax tests.
Never imports flax: flax's serialization finds these classes when flax is imported.
"""

from __future__ import annotations

import functools
from typing import Any, TypeVar

from jaxdc._annotations import caller_scope
from jaxdc._dataclass import check_options, process
from jaxdc._field import checked_metadata, field as _jaxdc_field
from jaxdc._node import PyTreeNode as _JaxdcPyTreeNode
from jaxdc._replace import replace as _replace

__all__ = ["PyTreeNode", "dataclass", "field"]

_T = TypeVar("_T")
_MARKER = "_flax_dataclass"  # flax.struct's: set on every class it makes


def field(pytree_node: bool = True, *, metadata: Any = None, **kwargs: Any) -> Any:
    """`flax.struct.field`: `pytree_node=False` makes the field static (`jaxdc.Static`).

    The metadata keeps flax's `pytree_node` entry, so tools that read it still see it.
    """
    meta = {
        **checked_metadata(metadata, "jaxdc.compat.flax_struct.field"),
        "pytree_node": pytree_node,
    }
    return _jaxdc_field(static=None if pytree_node else True, metadata=meta, **kwargs)


def dataclass(clz: Any = None, **kwargs: Any) -> Any:
    """`flax.struct.dataclass`: a jaxdc pytree dataclass with a `.replace` method, on the
    migration path (frozen unless `frozen=False`, which warns).

    `**kwargs` are the `dataclasses.dataclass` options jaxdc accepts (`kw_only`, `eq`,
    `order`, ...). Decorating a class twice returns it unchanged, as in flax.
    """
    if clz is None:
        return functools.partial(dataclass, **kwargs)
    if isinstance(clz, type) and _MARKER in clz.__dict__:
        return clz
    where = "jaxdc.compat.flax_struct.dataclass"
    check_options(kwargs, where, lenient=True)
    cls = process(clz, kwargs, caller_scope(), where, lenient=True)
    setattr(cls, _MARKER, True)
    return install_replace(cls)


def install_replace(cls: type[_T]) -> type[_T]:
    """Add the `.replace(**updates)` method flax.struct and chex classes have."""
    if not hasattr(cls, "replace"):  # a `replace` the class defines or inherits wins
        cls.replace = _replace_method  # type: ignore[attr-defined]
    return cls


def _replace_method(self: _T, **updates: Any) -> _T:
    """A copy with the given fields replaced (`jaxdc.replace(self, **updates)`)."""
    return _replace(self, **updates)


_replace_method.__name__ = _replace_method.__qualname__ = "replace"


class PyTreeNode(_JaxdcPyTreeNode):
    """`flax.struct.PyTreeNode`: subclasses are jaxdc classes (options as class keywords) on
    the migration path, like `dataclass`'s.

    A subclass of `jaxdc.PyTreeNode` (so `jaxdc.replace`, the plugin and `isinstance`
    treat both alike); it only adds `field` to what type checkers accept as a field
    specifier in its subclasses.
    """

    __slots__ = ()
    __jaxdc_lenient__ = True  # read by `jaxdc.PyTreeNode.__init_subclass__`

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        setattr(cls, _MARKER, True)
