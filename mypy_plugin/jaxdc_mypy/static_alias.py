"""``Static[T]`` under mypy + plugin is ``T``, analysed without the stubs' hashability bound.

The stubs bound Static's type variable so that checkers without a plugin reject
``Static[list[int]]``. With the plugin, that bound would report the same mistake a second
time (mypy's ``type-var``, which names neither the field nor the fix) next to the plugin's
``jaxdc-static``, which also covers what a bound cannot see (a frozen dataclass holding an
array, a tuple of lists). So the plugin analyses ``Static[...]`` itself, to its argument,
which is what mypy makes of the alias anyway (it drops ``Annotated`` metadata): the field
keeps its type, and the marker stays visible in the unanalysed annotation (``fields``).
"""

from __future__ import annotations

from mypy.errorcodes import TYPE_ARG
from mypy.plugin import AnalyzeTypeContext
from mypy.types import AnyType, Type, TypeOfAny


def analyze_static(ctx: AnalyzeTypeContext) -> Type:
    """Type-analyze hook for ``jaxdc.Static``."""
    args = ctx.type.args
    if len(args) == 1:
        return ctx.api.analyze_type(args[0])
    if not args:  # a bare `Static`, as mypy reads any generic alias used without arguments
        return AnyType(TypeOfAny.from_omitted_generics)
    message = f"Bad number of arguments for type alias, expected 1, given {len(args)}"
    ctx.api.fail(message, ctx.context, code=TYPE_ARG)
    return AnyType(TypeOfAny.from_error)
