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

An annotation written through a type alias of this module (``Sizes = Static[list[int]]``,
``sizes: Sizes``) got the bound's error on the alias's line, so those lines are taken back
too. An alias imported from another module keeps its error there: that module's errors
are final by the time this one is checked. So does an alias defined in a function or a
class body (found by module-level name only), a rarer spelling.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator

from mypy.errorcodes import TYPE_VAR
from mypy.errors import ErrorInfo
from mypy.nodes import TypeAlias
from mypy.plugin import CheckerPluginInterface
from mypy.types import Type, UnboundType, UnionType

from . import compat

_MESSAGE_START = "Type argument "
_MESSAGE_MIDDLE = ' of "Static" must be a subtype of '


def retract_bound_errors(
    api: CheckerPluginInterface,
    lines: Iterable[int],
    annotations: Callable[[], Iterable[Type | None]],
) -> None:
    """Take back the bound's errors on ``lines`` (and those mypy reports without a line:
    a subclass of a class whose generic base fixes an unhashable type), and on the lines
    of this module's type aliases that the unanalysed ``annotations()`` are written with.
    Asked for every class checked, almost always of a file without such errors: the
    annotations are read only once there is an error to look at."""
    wanted: set[int] | None = None  # built only if the file has errors to look at

    def is_bound_error(info: ErrorInfo) -> bool:
        nonlocal wanted
        if info.code != TYPE_VAR:
            return False
        if wanted is None:
            wanted = {*lines, *_alias_lines(api, annotations()), -1}
        return (
            info.line in wanted
            and info.message.startswith(_MESSAGE_START)
            and _MESSAGE_MIDDLE in info.message
        )

    compat.retract_where(api, is_bound_error)


def _alias_lines(api: CheckerPluginInterface, annotations: Iterable[Type | None]) -> set[int]:
    """The lines of the type aliases defined in the module being checked that
    ``annotations`` name (by a plain name: a dotted one is another module's)."""
    module = compat.checked_module(api)
    found = set()
    for name in {name for annotation in annotations for name in _names(annotation)}:
        symbol = module.names.get(name)
        alias = symbol.node if symbol is not None else None
        if isinstance(alias, TypeAlias) and alias.fullname == f"{module.fullname}.{name}":
            found.add(alias.line)
    return found


def _names(annotation: Type | None) -> Iterator[str]:
    """The plain names an unanalysed annotation is written with, its arguments' included."""
    if isinstance(annotation, UnionType):
        for item in annotation.items:
            yield from _names(item)
    elif isinstance(annotation, UnboundType):
        if "." not in annotation.name:
            yield annotation.name
        for arg in annotation.args:
            yield from _names(arg)
