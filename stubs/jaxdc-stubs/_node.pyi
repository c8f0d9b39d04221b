from dataclasses import field as _dataclasses_field
from typing import Any

from jaxdc._field import field, static_field
from jaxdc._jax_tree import static as _jax_tree_static
from typing_extensions import Self, dataclass_transform

# Subclassing decorates: the class keywords are the `pytree_dataclass(...)` options.
@dataclass_transform(
    frozen_default=True,
    field_specifiers=(field, static_field, _dataclasses_field, _jax_tree_static),
)
class PyTreeNode:
    def __init_subclass__(
        cls,
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
        check_shapes: bool = False,
        **kwargs: Any,
    ) -> None: ...
    def replace(self, **changes: Any) -> Self: ...
