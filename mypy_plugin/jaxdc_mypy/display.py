"""Types as the runtime prints them in messages (``list[int]``, ``jax.Array``, ``Cfg``).

Shared wording means shared type names too, and mypy's own formatting differs between
releases (``builtins.int`` in 1.x reveal output), so the common shapes are spelled here.
"""

from __future__ import annotations

from mypy.options import Options
from mypy.types import AnyType, Instance, NoneType, TupleType, Type, TypeVarType, UnionType, get_proper_type

from . import compat

_ARRAY = "jax._src.basearray.Array"


def show(typ: Type, options: Options) -> str:
    typ = get_proper_type(typ)
    if isinstance(typ, Instance):
        if typ.type.fullname == _ARRAY:
            return "jax.Array"
        if typ.type.module_name.split(".")[0] == "numpy":
            return f"numpy.{typ.type.name}"
        if typ.type.fullname == "builtins.tuple" and typ.args:
            return f"tuple[{show(typ.args[0], options)}, ...]"
        if typ.args:
            return f"{typ.type.name}[{', '.join(show(arg, options) for arg in typ.args)}]"
        return typ.type.name
    if isinstance(typ, TupleType):
        if typ.partial_fallback.type.fullname != "builtins.tuple":
            return typ.partial_fallback.type.name  # a NamedTuple
        return f"tuple[{', '.join(show(item, options) for item in typ.items)}]"
    if isinstance(typ, UnionType):
        return " | ".join(show(item, options) for item in typ.items)
    if isinstance(typ, NoneType):
        return "None"
    if isinstance(typ, AnyType):
        return "Any"
    if isinstance(typ, TypeVarType):
        return typ.name
    return compat.format_type(typ, options)
