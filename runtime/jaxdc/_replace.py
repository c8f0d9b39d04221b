"""`replace(obj, **changes)`: a copy with some fields changed, without running `__init__`.

Copy-on-write through generated code (`_codegen.make_replace`; 3-8x faster than
`dataclasses.replace`, which re-runs the constructor); it works for classes with a custom
`__init__` too. Changed static values are validated like at construction. The errors the
generated code raises are here: each names the class and the field.
"""

from __future__ import annotations

from typing import Any, TypeVar

from jaxdc._hashability import class_name
from jaxdc._spec import spec_of

__all__ = ["initvar_missing_error", "refused_field_error", "replace", "unknown_fields_error"]

_T = TypeVar("_T")


def replace(obj: _T, /, **changes: Any) -> _T:
    try:
        fast_replace = type(obj).__jaxdc_replace__  # type: ignore[attr-defined]
    except AttributeError:
        raise TypeError(
            f"jaxdc.replace() needs an instance of a jaxdc pytree dataclass, got "
            f"'{class_name(type(obj))}'"
        ) from None
    return fast_replace(obj, changes)  # type: ignore[no-any-return]


def unknown_fields_error(obj: Any, changes: dict[str, Any]) -> None:
    """`replace(obj, typo=...)`: raise a TypeError naming every unknown keyword and listing
    what `replace` takes."""
    spec = spec_of(type(obj))
    assert spec is not None
    cls = class_name(type(obj))
    known = {f.name for f in spec.fields}
    takes_initvars = spec.post_init and not spec.custom_init
    if takes_initvars:
        known.update(spec.initvars)
    unknown = [name for name in changes if name not in known]
    ignored = [name for name in unknown if name in spec.initvars]
    if ignored:
        raise TypeError(
            f"replace() got InitVar '{ignored[0]}' for class '{cls}', which has its own "
            f"__init__: replace() does not run __post_init__ for it, so the value would be "
            f"ignored. Fix: construct a new instance, or drop '{ignored[0]}'."
        )
    settable = [f.name for f in spec.fields if f.kind != "excluded" and f.field.init]
    settable += [f"{n} (InitVar)" for n in spec.initvars if takes_initvars]
    raise TypeError(
        f"replace() got unknown field(s) {', '.join(map(repr, unknown))} for class '{cls}'; "
        f"its fields are: {', '.join(settable) or '(none)'}."
    )


def refused_field_error(obj: Any, name: str) -> None:
    """`replace(obj, f=...)` on a field `__init__` does not take or the pytree leaves out."""
    spec = spec_of(type(obj))
    assert spec is not None
    cls = class_name(type(obj))
    field = next(f for f in spec.fields if f.name == name)
    if field.kind == "excluded":
        raise ValueError(
            f"replace() cannot set field '{name}' of class '{cls}': it is left out of the "
            f"pytree (pytree=False), so the new value would silently revert to its default "
            f"after jit/vmap/tree_map. Fix: carry it in the pytree (drop pytree=False), or "
            f"build a new instance."
        )
    raise ValueError(
        f"replace() cannot set field '{name}' of class '{cls}': it is declared with "
        f"init=False (its value comes from __post_init__ or its default), as "
        f"dataclasses.replace() refuses too. Fix: change the fields it is computed from, or "
        f"set it inside `with jaxdc.copy_and_mutate(obj) as new:`."
    )


def initvar_missing_error(obj: Any, name: str) -> None:
    """`replace(obj, ...)` without an InitVar that has no default (as dataclasses)."""
    raise ValueError(
        f"replace() on class '{class_name(type(obj))}': InitVar '{name}' must be specified "
        f"with replace(), as with dataclasses.replace(): __post_init__ runs again and takes "
        f"it, and it has no default. Fix: jaxdc.replace(obj, ..., {name}=...)."
    )
