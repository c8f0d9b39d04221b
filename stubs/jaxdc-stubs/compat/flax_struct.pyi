from collections.abc import Callable, Mapping
from dataclasses import field as _dataclasses_field
from typing import Any, TypeVar, overload

from jaxdc._dataclass import PytreeDataclassDecorator as _PytreeDataclassDecorator
from jaxdc._field import _Missing, field as _jaxdc_field, static_field as _jaxdc_static_field
from jaxdc._jax_tree import static as _jax_tree_static
from jaxdc._node import PyTreeNode as _JaxdcPyTreeNode
from typing_extensions import dataclass_transform

__all__ = ["PyTreeNode", "dataclass", "field"]

_T = TypeVar("_T")

# flax's signature: `pytree_node` first (positional or keyword), then dataclasses.field's
# keywords; overloads as in jaxdc.field so `x: int = field(default=1)` checks the default.
@overload
def field(
    pytree_node: bool = True,
    *,
    default: _T,
    default_factory: _Missing = ...,
    init: bool = True,
    repr: bool = True,
    hash: bool | None = None,
    compare: bool = True,
    metadata: Mapping[Any, Any] | None = None,
    kw_only: bool | _Missing = ...,
) -> _T: ...
@overload
def field(
    pytree_node: bool = True,
    *,
    default: _Missing = ...,
    default_factory: Callable[[], _T],
    init: bool = True,
    repr: bool = True,
    hash: bool | None = None,
    compare: bool = True,
    metadata: Mapping[Any, Any] | None = None,
    kw_only: bool | _Missing = ...,
) -> _T: ...
@overload
def field(
    pytree_node: bool = True,
    *,
    default: _Missing = ...,
    default_factory: _Missing = ...,
    init: bool = True,
    repr: bool = True,
    hash: bool | None = None,
    compare: bool = True,
    metadata: Mapping[Any, Any] | None = None,
    kw_only: bool | _Missing = ...,
) -> Any: ...

# Both forms of flax's decorator. PEP 681 lets one overload carry dataclass_transform for
# both; jaxdc's field specifiers and JAX's (`dataclasses.field`, `jax.tree.static`) are
# listed too, so mixing the spellings works. The call form returns jaxdc's decorator type,
# whose `__call__` the mypy plugin hooks.
@overload
@dataclass_transform(
    frozen_default=True,
    field_specifiers=(
        field,
        _jaxdc_field,
        _jaxdc_static_field,
        _dataclasses_field,
        _jax_tree_static,
    ),
)
def dataclass(
    clz: None = None,
    *,
    init: bool = True,
    repr: bool = True,
    eq: bool = True,
    order: bool = False,
    unsafe_hash: bool = False,
    frozen: bool = True,
    match_args: bool = True,
    kw_only: bool = False,
    slots: bool = False,
    weakref_slot: bool = False,
) -> _PytreeDataclassDecorator: ...
@overload
def dataclass(
    clz: type[_T],
    *,
    init: bool = True,
    repr: bool = True,
    eq: bool = True,
    order: bool = False,
    unsafe_hash: bool = False,
    frozen: bool = True,
    match_args: bool = True,
    kw_only: bool = False,
    slots: bool = False,
    weakref_slot: bool = False,
) -> type[_T]: ...

@dataclass_transform(
    frozen_default=True,
    field_specifiers=(
        field,
        _jaxdc_field,
        _jaxdc_static_field,
        _dataclasses_field,
        _jax_tree_static,
    ),
)
class PyTreeNode(_JaxdcPyTreeNode): ...
