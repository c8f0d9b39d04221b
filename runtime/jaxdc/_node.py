"""`PyTreeNode`: subclassing it is the same as decorating with `@pytree_dataclass`.

Options are class keywords (`class State(PyTreeNode, kw_only=True)`), as with
`flax.struct.PyTreeNode`. Every subclass is processed, so a subclass can never turn
into an opaque pytree leaf by forgetting a decorator.
"""

from __future__ import annotations

from typing import Any

from jaxdc._annotations import caller_scope
from jaxdc._dataclass import check_options, process
from jaxdc._replace import replace

__all__ = ["PyTreeNode"]

_DATACLASS_KEYWORDS = {
    "init",
    "repr",
    "eq",
    "order",
    "unsafe_hash",
    "frozen",
    "match_args",
    "kw_only",
    "slots",
    "check_shapes",
}


class PyTreeNode:
    """Base class for frozen pytree dataclasses (fields declared as class annotations)."""

    __slots__ = ()

    def __init_subclass__(cls, **kwargs: Any) -> None:
        options = {k: kwargs.pop(k) for k in list(kwargs) if k in _DATACLASS_KEYWORDS}
        super().__init_subclass__(**kwargs)
        check_options(options, f"class {cls.__name__}(PyTreeNode)")
        if options.get("slots"):
            raise TypeError(
                f"class {cls.__name__}(PyTreeNode, slots=True): a base class cannot swap the "
                f"class being created for a slotted copy. Fix: decorate it instead: "
                f"@jaxdc.pytree_dataclass(slots=True) class {cls.__name__}: ..."
            )
        process(cls, options, caller_scope())

    def replace(self, **changes: Any) -> Any:
        """A copy with some fields changed (`jaxdc.replace(self, **changes)`)."""
        return replace(self, **changes)
