"""`PyTreeNode`: subclassing it is the same as decorating with `@pytree_dataclass`.

Options are class keywords (`class State(PyTreeNode, kw_only=True)`), as with
`flax.struct.PyTreeNode`. Every subclass is processed, so a subclass can never turn
into an opaque pytree leaf by forgetting a decorator.
"""

from __future__ import annotations

from typing import Any

from _jaxdc_rules import messages

from jaxdc._annotations import caller_scope
from jaxdc._dataclass import OPTIONS, check_options, process
from jaxdc._replace import replace

__all__ = ["PyTreeNode"]


class PyTreeNode:
    """Base class for frozen pytree dataclasses (fields declared as class annotations)."""

    __slots__ = ()

    def __init_subclass__(cls, **kwargs: Any) -> None:
        options = {k: kwargs.pop(k) for k in list(kwargs) if k in OPTIONS}
        super().__init_subclass__(**kwargs)
        # True under the migration path's base (`jaxdc.compat.flax_struct.PyTreeNode`)
        lenient = bool(getattr(cls, "__jaxdc_lenient__", False))
        where = f"class {cls.__name__}(PyTreeNode)"
        check_options(options, where, lenient)
        if options.get("slots"):
            raise TypeError(messages.pytree_node_slots(cls.__name__))
        process(cls, options, caller_scope(), where, lenient=lenient)

    def replace(self, **changes: Any) -> Any:
        """A copy with some fields changed (`jaxdc.replace(self, **changes)`)."""
        return replace(self, **changes)
