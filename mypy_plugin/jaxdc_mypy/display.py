"""Types as the runtime prints them in messages (``list[int]``, ``jax.Array``, ``Cfg``).

Shared wording means shared type names too, and mypy's own formatting differs between
releases (``builtins.int`` in 1.x reveal output), so the common shapes are spelled here.
"""

from __future__ import annotations

from mypy.options import Options
from mypy.types import (
    AnyType,
    Instance,
    NoneType,
    TupleType,
    Type,
    TypeVarType,
    UnionType,
    get_proper_type,
)

from . import compat

_ARRAY = "jax._src.basearray.Array"


def show(typ: Type, options: Options) -> str:
    """A class by its name (``Cfg``, ``jax.Array``); a generic as Python's repr would show
    it (``list[int]``, ``collections.deque[int]``), which is what the runtime prints."""
    typ = get_proper_type(typ)
    if isinstance(typ, Instance) and (not typ.args or _is_special(typ)):
        return _qualified(typ) if _is_special(typ) else typ.type.name
    return _repr(typ, options)


def _repr(typ: Type, options: Options) -> str:
    typ = get_proper_type(typ)
    if isinstance(typ, Instance):
        if typ.type.fullname == "builtins.tuple" and typ.args:
            return f"tuple[{_repr(typ.args[0], options)}, ...]"
        if typ.args and not _is_special(typ):
            args = ", ".join(_repr(arg, options) for arg in typ.args)
            return f"{_qualified(typ)}[{args}]"
        return _qualified(typ)
    if isinstance(typ, TupleType):
        if typ.partial_fallback.type.fullname != "builtins.tuple":
            return typ.partial_fallback.type.name  # a NamedTuple
        return f"tuple[{', '.join(_repr(item, options) for item in typ.items)}]"
    if isinstance(typ, UnionType):
        return " | ".join(_repr(item, options) for item in typ.items)
    if isinstance(typ, NoneType):
        return "None"
    if isinstance(typ, AnyType):
        return "Any"
    if isinstance(typ, TypeVarType):
        return typ.name
    return compat.format_type(typ, options)


def _is_special(typ: Instance) -> bool:
    """Arrays print without type arguments (mypy fills in ``ndarray``'s implicit ones)."""
    return typ.type.fullname == _ARRAY or typ.type.module_name.split(".")[0] == "numpy"


def _qualified(typ: Instance) -> str:
    """``int``, ``jax.Array``, ``numpy.ndarray``, ``collections.deque``, ``pkg.mod.Cfg``."""
    info = typ.type
    if info.fullname == _ARRAY:
        return "jax.Array"
    if info.module_name.split(".")[0] == "numpy":
        return f"numpy.{info.name}"
    if info.module_name == "builtins":
        return info.name
    return info.fullname
