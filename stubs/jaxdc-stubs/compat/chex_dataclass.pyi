from dataclasses import field as _dataclasses_field
from typing import TypeVar, overload

from jaxdc._dataclass import PytreeDataclassDecorator as _PytreeDataclassDecorator
from jaxdc._field import field as _jaxdc_field, static_field as _jaxdc_static_field
from jaxdc._jax_tree import static as _jax_tree_static
from typing_extensions import dataclass_transform

__all__ = ["dataclass", "mappable_dataclass"]

_T = TypeVar("_T")

# chex's signature. `.replace` and the Mapping methods are added at runtime; no stub can add
# methods to a decorated class (PEP 681), as with chex itself (the mypy plugin adds
# `.replace`). The call form returns jaxdc's decorator type, whose `__call__` the mypy
# plugin hooks.
@overload
@dataclass_transform(
    frozen_default=True,
    field_specifiers=(_jaxdc_field, _jaxdc_static_field, _dataclasses_field, _jax_tree_static),
)
def dataclass(
    cls: None = None,
    *,
    init: bool = True,
    repr: bool = True,
    eq: bool = True,
    order: bool = False,
    unsafe_hash: bool = False,
    frozen: bool = ...,
    kw_only: bool = False,
    mappable_dataclass: bool = True,
) -> _PytreeDataclassDecorator: ...
@overload
def dataclass(
    cls: type[_T],
    *,
    init: bool = True,
    repr: bool = True,
    eq: bool = True,
    order: bool = False,
    unsafe_hash: bool = False,
    frozen: bool = ...,
    kw_only: bool = False,
    mappable_dataclass: bool = True,
) -> type[_T]: ...
def mappable_dataclass(cls: type[_T]) -> type[_T]: ...
