"""`replace(obj, **changes)`: a copy with some fields changed, without running `__init__`.

Copy-on-write through generated code (`_codegen.make_replace`; several times faster than
`dataclasses.replace`, which re-runs the constructor; measured in benchmarks/results-*.md);
it works for classes with a custom `__init__` too. Changed static values are validated like
at construction. The errors the generated code raises are here: each names the class and
the field.
"""

from __future__ import annotations

from typing import Any, TypeVar

from _jaxdc_rules import messages

from jaxdc._display import class_name, wrong_kind
from jaxdc._spec import spec_of

__all__ = ["initvar_missing_error", "refused_field_error", "replace", "unknown_fields_error"]

_T = TypeVar("_T")


def replace(obj: _T, /, **changes: Any) -> _T:
    # A method call on the instance (the class's generated function, found without
    # building a bound method) costs less than `type(obj).__jaxdc_replace__(obj, ...)`;
    # what is not an instance of a jaxdc class is told apart only when the call fails.
    try:
        return obj.__jaxdc_replace__(changes)  # type: ignore[attr-defined, no-any-return]
    except (AttributeError, TypeError):
        if isinstance(obj, type) or not hasattr(type(obj), "__jaxdc_replace__"):
            raise TypeError(wrong_kind("jaxdc.replace", messages.JAXDC_INSTANCE, obj)) from None
        raise  # raised by the replace itself (an unknown field, __post_init__, ...)


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
        raise TypeError(messages.replace_initvar_ignored(ignored[0], cls))
    settable = [f.name for f in spec.fields if f.kind != "excluded"]
    settable += [f"{n} (InitVar)" for n in spec.initvars if takes_initvars]
    raise TypeError(messages.replace_unknown_fields(unknown, cls, settable or ["(none)"]))


def refused_field_error(obj: Any, name: str) -> None:
    """`replace(obj, f=...)` on a field the pytree leaves out (`pytree=False`)."""
    raise ValueError(messages.replace_excluded_field(name, class_name(type(obj))))


def initvar_missing_error(obj: Any, name: str) -> None:
    """`replace(obj, ...)` without an InitVar that has no default (as dataclasses)."""
    raise ValueError(messages.replace_initvar_missing(name, class_name(type(obj))))
