"""The stubs' bound on ``Static``, superseded wherever the plugin judges hashability.

The stubs bound Static's type variable so that checkers without a plugin reject
``Static[list[int]]``: mypy reports it in semantic analysis as ``type-var`` ("Type argument
... of "Static" must be a subtype of ..."). Where the plugin judges the same annotation (a
field of a jaxdc class, a parameter of a jitted function) that error would report the
mistake a second time, naming neither the field nor the fix, and it is wrong where a bound
is too coarse (a Protocol, ``Hashable``, a type variable bounded by it). So when the plugin
checks a class or a jitted function, it takes back the bound's errors on its lines, and its
own verdict (``jaxdc-static``, or nothing) is the one diagnostic. The analysed types stay
as mypy made them (``static_spelling`` reads ``Static`` from them).
"""

from __future__ import annotations

from collections.abc import Iterable

from mypy.errorcodes import TYPE_VAR
from mypy.errors import ErrorInfo
from mypy.plugin import CheckerPluginInterface

from . import compat

_MESSAGE_START = "Type argument "
_MESSAGE_MIDDLE = ' of "Static" must be a subtype of '


def retract_bound_errors(api: CheckerPluginInterface, lines: Iterable[int]) -> None:
    """Take back the bound's errors on ``lines`` (and those mypy reports without a line:
    a subclass of a class whose generic base fixes an unhashable type)."""
    wanted: set[int] | None = None  # built only if the file has errors to look at

    def is_bound_error(info: ErrorInfo) -> bool:
        nonlocal wanted
        if info.code != TYPE_VAR:
            return False
        if wanted is None:
            wanted = {*lines, -1}
        return (
            info.line in wanted
            and info.message.startswith(_MESSAGE_START)
            and _MESSAGE_MIDDLE in info.message
        )

    compat.retract_where(api, is_bound_error)
