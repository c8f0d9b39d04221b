from collections.abc import Mapping
from dataclasses import field as _dataclasses_field
from typing import Any, TypeVar, overload

from jaxdc._field import field, static_field
from jaxdc._jax_tree import static as _jax_tree_static
from typing_extensions import dataclass_transform

_T = TypeVar("_T")

# What `pytree_dataclass(...)` returns: a named class (not a Callable) so the mypy plugin
# can hook its `__call__`.
class PytreeDataclassDecorator:
    def __init__(self, options: Mapping[str, Any]) -> None: ...
    def __call__(self, cls: type[_T], /) -> type[_T]: ...

# PEP 681 allows dataclass_transform on any one overload and applies it to both forms; on
# the call form it keeps stubtest able to match the bare form's positional-only `cls`.
@overload
def pytree_dataclass(cls: type[_T], /) -> type[_T]: ...
@overload
@dataclass_transform(
    frozen_default=True,
    field_specifiers=(field, static_field, _dataclasses_field, _jax_tree_static),
)
def pytree_dataclass(
    cls: None = None,
    /,
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
    check_shapes: bool = False,
) -> PytreeDataclassDecorator: ...
