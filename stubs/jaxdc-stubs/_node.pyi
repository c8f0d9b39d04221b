import sys
from dataclasses import field as _dataclasses_field
from typing import Any, ClassVar

from jaxdc._field import field, static_field
from jaxdc._jax_tree import static as _jax_tree_static
from typing_extensions import Self, dataclass_transform

if sys.version_info >= (3, 13):
    from jaxdc._replace import _ReplaceMethod

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
    # `obj.replace(**changes)`: the keywords of `obj`'s synthesised `__replace__` where the
    # checker has one (jaxdc/_replace.pyi), else any keyword (the mypy plugin types them).
    if sys.version_info >= (3, 13):
        replace: ClassVar[_ReplaceMethod]
    else:
        def replace(self, **changes: Any) -> Self: ...
