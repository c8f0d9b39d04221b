"""`field()`: `dataclasses.field` plus the two jaxdc field kinds (static, not in the pytree).

The kinds are stored in the field's metadata, which is what other tools read:
`{"static": True}` is the key `jax.tree_util.register_dataclass` understands, and
`{"jaxdc.pytree": False}` marks a field that is left out of the pytree entirely, and
`{"jaxdc.converter": f}` holds the function `converter=` names. flax's
spelling, `pytree_node=False` (and `dataclasses.field(metadata={"pytree_node": False})`),
means `static=True`. How the kind follows from these is the shared rule
(`_jaxdc_rules.kinds`).
"""

from __future__ import annotations

import dataclasses
import inspect
from collections.abc import Callable, Mapping
from typing import Any

from _jaxdc_rules import messages
from _jaxdc_rules.kinds import explicit_static

from jaxdc._display import given

__all__ = [
    "CONVERTER_KEY",
    "PYTREE_KEY",
    "PYTREE_NODE_KEY",
    "STATIC_KEY",
    "checked_metadata",
    "converter_input_annotation",
    "converter_of",
    "field",
    "static_field",
]

STATIC_KEY = "static"
PYTREE_KEY = "jaxdc.pytree"
PYTREE_NODE_KEY = "pytree_node"  # flax.struct's metadata key
CONVERTER_KEY = "jaxdc.converter"

_MISSING: Any = dataclasses.MISSING


def field(
    *,
    default: Any = _MISSING,
    default_factory: Callable[[], Any] = _MISSING,
    init: bool = True,
    repr: bool = True,
    hash: bool | None = None,
    compare: bool = True,
    metadata: Mapping[Any, Any] | None = None,
    kw_only: bool = _MISSING,
    static: bool | None = None,
    pytree: bool | None = None,
    pytree_node: bool | None = None,
    converter: Callable[[Any], Any] | None = None,
) -> Any:
    """Declare a field of a jaxdc class.

    `static=True` makes the field static (same as annotating it `Static[T]`); `None`
    leaves the decision to the annotation. `pytree_node=False` is flax's spelling of
    `static=True` (`pytree_node=True`: a data field). `pytree=False` leaves the field out
    of the pytree: it is neither a leaf nor part of the treedef, and after `jit`/`vmap`/
    `tree_map` it holds its default. Every other field is carried, `init=False` ones
    included (computed in `__post_init__`, which unflatten never re-runs).

    `converter` (the typing spec's `dataclass_transform` converter) is called on the value
    the generated `__init__` receives for the field, or on its default, and on the value
    `replace` is given; what it returns is stored and checked. Unflatten, unpickling and
    `copy_and_mutate` never call it: they store values the field already holds. A field
    left out of the pytree takes none, since after `jit` it holds its default unconverted.
    """
    _check_kinds(
        "jaxdc.field",
        default_factory=default_factory,
        kw_only=kw_only,
        static=static,
        pytree=pytree,
        pytree_node=pytree_node,
        converter=converter,
    )
    try:
        explicit = explicit_static(static=static, pytree_node=pytree_node)
    except ValueError:
        message = messages.field_static_and_pytree_node(bool(static), bool(pytree_node))
        raise TypeError(message) from None
    meta = checked_metadata(metadata, "jaxdc.field")
    if explicit is not None:
        meta[STATIC_KEY] = explicit
    if pytree is not None:
        meta[PYTREE_KEY] = pytree
    if explicit and pytree is False:
        raise TypeError(messages.FIELD_STATIC_AND_EXCLUDED)
    if converter is not None:
        if pytree is False:
            raise TypeError(messages.FIELD_CONVERTER_AND_EXCLUDED)
        meta[CONVERTER_KEY] = converter
    return dataclasses.field(
        default=default,
        default_factory=default_factory,
        init=init,
        repr=repr,
        hash=hash,
        compare=compare,
        metadata=meta or None,
        kw_only=kw_only,
    )


def converter_of(f: dataclasses.Field[Any]) -> Callable[[Any], Any] | None:
    """The converter a field was declared with (`field(converter=...)`), or None."""
    return f.metadata.get(CONVERTER_KEY)


def converter_input_annotation(converter: Callable[[Any], Any], module: str) -> Any:
    """What the generated `__init__` of a class in `module` annotates a converter field's
    parameter with: the annotation of the converter's first parameter, which is what the
    caller passes (so `inspect.signature`, beartype and other `__init__` checkers accept a
    list for an `as_array` field), or `inspect.Parameter.empty` when there is none to give
    (no signature, an unannotated parameter, or a string annotation from another module,
    which `typing.get_type_hints` would resolve in the class's module instead). Read, never
    evaluated: no user code runs."""
    empty = inspect.Parameter.empty
    try:
        parameters = list(inspect.signature(converter).parameters.values())
    except (TypeError, ValueError):  # builtins without a signature, such as `tuple`
        return empty
    if not parameters or parameters[0].kind not in _POSITIONAL:
        return empty
    annotation = parameters[0].annotation
    if isinstance(annotation, str) and getattr(converter, "__module__", None) != module:
        return empty
    return annotation


_POSITIONAL = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)


def checked_metadata(metadata: Any, function: str) -> dict[Any, Any]:
    """A copy of a field's `metadata=` (a mapping, or None for none)."""
    _check_kinds(function, metadata=metadata)
    return dict(metadata or {})


# What each keyword jaxdc reads itself must be, and the value meaning "not given".
_KINDS: dict[str, tuple[Callable[[Any], bool], str, Any]] = {
    "default_factory": (
        callable,
        "a function of no arguments (such as list or lambda: jnp.zeros(3))",
        _MISSING,
    ),
    "metadata": (lambda v: isinstance(v, Mapping), "a mapping or None", None),
    "converter": (
        callable,
        "a function of one argument (such as jaxdc.as_array) or None",
        None,
    ),
    "kw_only": (lambda v: isinstance(v, bool), "True or False", _MISSING),
    **{
        flag: (lambda v: isinstance(v, bool), "True, False or None", None)
        for flag in ("static", "pytree", "pytree_node")
    },
}


def _check_kinds(function: str, **given_values: Any) -> None:
    """The keywords jaxdc reads itself get the kind of object they need, or a TypeError
    now, rather than a confusing error when the class is built or constructed."""
    for keyword, value in given_values.items():
        check = _KINDS.get(keyword)
        if check is not None and value is not check[2] and not check[0](value):
            raise TypeError(messages.wrong_keyword(function, keyword, check[1], given(value)))


def static_field(**kwargs: Any) -> Any:
    """`field(static=True, ...)`; the spelling older jax_dataclasses code uses."""
    _check_kinds("jaxdc.static_field", **kwargs)
    return field(static=True, **kwargs)
