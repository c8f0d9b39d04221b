from typing import Any

from jaxdc._field import field, static_field
from jaxdc._replace import _SupportsReplace
from typing_extensions import ParamSpec, TypeVar, dataclass_transform

_P = ParamSpec("_P")
_T = TypeVar("_T")

# Subclassing decorates: the class keywords are the `pytree_dataclass(...)` options.
@dataclass_transform(frozen_default=True, field_specifiers=(field, static_field))
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
    def replace(self: _SupportsReplace[_P, _T], *args: _P.args, **changes: _P.kwargs) -> _T: ...
