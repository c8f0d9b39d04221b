"""Reading a field's shape annotation into what the checker needs: dims and a dtype rule.

Two spellings are understood:
- jaxtyping's `Float[Array, "b n"]` (its class carries the shape string, re-read with
  `_jaxdc_rules.shapes`, and the dtype names it accepts). jaxtyping stays optional: its
  classes are recognised through `sys.modules`, so jaxdc never imports it.
- jax_dataclasses' `Annotated[jax.Array, (..., 50, 3), jnp.floating]`: a tuple of sizes
  and at most one `...` (the batch axes, shared by every field; leading when left out)
  and a dtype or dtype category, in any order. Dtypes follow `jnp.issubdtype`.

`X | None`, `Optional[X]` and unions of several array annotations are alternatives; any
other member of a union (`float`, `tuple[...]`) is kept to decide values that are not
arrays of the expected shape.
"""

from __future__ import annotations

import re
import sys
import types
import typing
from collections.abc import Callable
from typing import Any, NamedTuple, get_args, get_origin

import jax.numpy as jnp
import numpy as np
from _jaxdc_rules import messages
from _jaxdc_rules.shapes import Dim, MalformedShape, parse_shape

__all__ = [
    "BATCH",
    "WEAK_TYPES",
    "ArraySpec",
    "DtypeRule",
    "FieldShape",
    "MalformedShape",
    "Weak",
    "dtype_name",
    "field_shape",
]

BATCH = "..."
"""The name under which the `Annotated` form's shared batch axes are bound."""

_UNIONS = (typing.Union, types.UnionType)
_ANNOTATED = typing.Annotated


class Weak(NamedTuple):
    """A Python scalar's dtype: weakly typed in JAX, so it fits a family of dtypes."""

    name: str
    fits: tuple[str, ...]


_INTS = ("int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64")
_FLOATS = ("bfloat16", "float16", "float32", "float64")
_COMPLEX = ("complex64", "complex128")
WEAK_TYPES: dict[type, Weak] = {
    bool: Weak("bool", ("bool",)),
    int: Weak("int", _INTS + _FLOATS + _COMPLEX),
    float: Weak("float", _FLOATS + _COMPLEX),
    complex: Weak("complex", _COMPLEX),
}
"""Python `bool`/`int`/`float`/`complex` values count as shape `()`; they fit any dtype
they would take on meeting an array (`x * 2` keeps `x`'s dtype): an int fits integer,
floating and complex dtypes, a float floating and complex ones, a bool only bool."""


class DtypeRule:
    """Which dtypes an annotation accepts, decided once per dtype and remembered."""

    __slots__ = ("_decide", "cache", "shown")

    def __init__(self, shown: str, decide: Callable[[Any], bool]) -> None:
        self.shown = shown
        self._decide = decide
        self.cache: dict[Any, bool] = {}

    def accepts(self, dtype: Any) -> bool:
        try:
            return self.cache[dtype]
        except KeyError:
            pass
        except TypeError:  # an unhashable duck-typed dtype
            return self._accepts(dtype)
        verdict = self.cache[dtype] = self._accepts(dtype)
        return verdict

    def _accepts(self, dtype: Any) -> bool:
        if isinstance(dtype, Weak):
            return any(self._decide(np.dtype(jnp.dtype(name))) for name in dtype.fits)
        return self._decide(dtype)


class ArraySpec(NamedTuple):
    """One array annotation: its dims, which of them is variadic, and its dtypes."""

    dims: tuple[Dim, ...]
    variadic: int | None
    dtype: DtypeRule | None
    """None: any dtype (`Shaped`, or the `Annotated` form without a dtype)."""
    shown: str
    """How messages show it: `Float[Array, "b n"]`."""

    @property
    def rank(self) -> int:
        """Number of axes, not counting the variadic dimension."""
        return len(self.dims) - (self.variadic is not None)


class FieldShape(NamedTuple):
    name: str
    specs: tuple[ArraySpec, ...]
    others: tuple[Any, ...]
    """Union members that are not array annotations (None excluded: it always skips)."""
    shown: str

    def fits_other(self, value: Any) -> bool:
        """Whether a non-array member of the union may hold `value` (plain classes are
        asked with isinstance; anything else, e.g. `tuple[int, ...]`, is given the
        benefit of the doubt)."""
        return any(not isinstance(other, type) or isinstance(value, other) for other in self.others)


def field_shape(name: str, annotation: Any, resolve: Callable[[Any], Any]) -> FieldShape | None:
    """What a field with this (resolved) annotation checks, or None if nothing.

    `resolve` evaluates forward references found inside unions. Raises `MalformedShape`
    or `TypeError` for annotations that can never be checked."""
    specs: list[ArraySpec] = []
    others: list[Any] = []
    for member in _members(annotation, resolve):
        if member is None or member is type(None):
            continue
        spec = _array_spec(member)
        (specs if spec is not None else others).append(spec if spec is not None else member)
    if not specs:
        return None
    shown = " | ".join(
        [s.shown for s in specs]
        + [_type_name(o) for o in others]
        + (["None"] if _has_none(annotation, resolve) else [])
    )
    return FieldShape(name, tuple(specs), tuple(others), shown)


def _members(annotation: Any, resolve: Callable[[Any], Any]) -> list[Any]:
    annotation = resolve(annotation)
    if get_origin(annotation) in _UNIONS:
        return [m for arg in get_args(annotation) for m in _members(arg, resolve)]
    return [annotation]


def _has_none(annotation: Any, resolve: Callable[[Any], Any]) -> bool:
    return any(m is None or m is type(None) for m in _members(annotation, resolve))


def _array_spec(annotation: Any) -> ArraySpec | None:
    if get_origin(annotation) is _ANNOTATED:
        found = _annotated_spec(annotation)
        return found if found is not None else _array_spec(get_args(annotation)[0])
    jaxtyping = sys.modules.get("jaxtyping")
    abstract = getattr(jaxtyping, "AbstractArray", None)
    if (
        abstract is not None
        and isinstance(annotation, type)
        and issubclass(annotation, abstract)
        and annotation is not abstract
    ):
        return _jaxtyping_spec(annotation)
    return None


# --- jaxtyping ---------------------------------------------------------------------------


def _jaxtyping_spec(annotation: Any) -> ArraySpec:
    shape = parse_shape(annotation.dim_str)
    dtypes = annotation.dtypes
    dtype_name = annotation.dtype.__name__
    rule = None
    if isinstance(dtypes, (tuple, list)):
        rule = _JAXTYPING_RULES.get((dtype_name, tuple(dtypes)))
        if rule is None:
            rule = _JAXTYPING_RULES[dtype_name, tuple(dtypes)] = DtypeRule(
                dtype_name, _named_dtypes(tuple(dtypes))
            )
    shown = f'{dtype_name}[{_type_name(annotation.array_type)}, "{annotation.dim_str}"]'
    return ArraySpec(shape.dims, shape.variadic, rule, shown)


_JAXTYPING_RULES: dict[tuple[str, tuple[Any, ...]], DtypeRule] = {}


def _named_dtypes(accepted: tuple[str | re.Pattern[str], ...]) -> Callable[[Any], bool]:
    """jaxtyping's rule: the dtype's name equals one of the strings or matches a regex."""

    def decide(dtype: Any) -> bool:
        name = dtype_name(dtype)
        return any(
            name == want if isinstance(want, str) else bool(want.match(name)) for want in accepted
        )

    return decide


def dtype_name(dtype: Any) -> str:
    """A dtype's name as jaxtyping compares it: the scalar type's name (`float32`,
    `bfloat16`, `prng_key`), the full description for NumPy structured dtypes."""
    scalar = getattr(dtype, "type", None)
    name = getattr(scalar, "__name__", None)
    if name is None:
        return dtype if isinstance(dtype, str) else repr(dtype).rsplit(".", 1)[-1]
    if name == "void" and isinstance(dtype, np.dtype) and dtype.fields:
        return str(dtype)
    return str(name)


# --- jax_dataclasses' Annotated form -----------------------------------------------------


def _annotated_spec(annotation: Any) -> ArraySpec | None:
    """`Annotated[T, (..., 50, 3), jnp.floating]`, or None if no metadata is a shape
    tuple or a dtype (then the annotation is read through: `Annotated[Float[...], doc]`)."""
    shapes = [m for m in annotation.__metadata__ if _is_shape_tuple(m)]
    dtypes = [d for d in map(_as_dtype, annotation.__metadata__) if d is not None]
    if not shapes and not dtypes:
        return None
    if len(shapes) > 1 or len(dtypes) > 1:
        what = "shape tuples" if len(shapes) > 1 else "dtypes"
        raise TypeError(messages.shape_annotated_repeated(what))
    if shapes:
        sizes = shapes[0]
        if sizes.count(...) > 1:
            raise TypeError(messages.shape_annotated_two_ellipses(_show_sizes(sizes)))
        if ... not in sizes:
            sizes = (..., *sizes)  # jax_dataclasses: leading batch axes are implied
        dims = tuple(
            Dim("variadic", BATCH, text=BATCH) if s is ... else Dim("fixed", "", s, text=str(s))
            for s in sizes
        )
    else:
        # A dtype only: any shape, and no part in the shared batch axes (as in
        # jax_dataclasses, whose batch axes come from fields with a shape tuple).
        sizes = (...,)
        dims = (Dim("anonymous_variadic", text=BATCH),)
    rule = None
    parts = [_type_name(get_args(annotation)[0])]
    if shapes:
        parts.append(_show_sizes(shapes[0]))
    if dtypes:
        rule = _category_rule(dtypes[0])
        parts.append(rule.shown)
    return ArraySpec(dims, sizes.index(...), rule, f"Annotated[{', '.join(parts)}]")


def _is_shape_tuple(meta: Any) -> bool:
    return type(meta) is tuple and all(
        m is ... or (isinstance(m, int) and not isinstance(m, bool)) for m in meta
    )


_PYTHON_KINDS: dict[Any, Any] = {
    bool: np.bool_,
    int: np.integer,
    float: np.floating,
    complex: np.complexfloating,
}


def _as_dtype(meta: Any) -> Any:
    """The dtype or dtype category a metadata item names, or None.

    NumPy's abstract categories (`jnp.floating`, `jnp.integer`, ...) and concrete scalar
    types, `np.dtype`s, JAX's scalar types (`jnp.float32`), dtype names (`"float32"`),
    and the Python types `bool`/`int`/`float`/`complex` as their categories (a bare
    `float` means floating, not float64)."""
    if meta is None or type(meta) is tuple or isinstance(meta, bool):
        return None
    if meta in _PYTHON_KINDS:
        return _PYTHON_KINDS[meta]
    if isinstance(meta, type) and issubclass(meta, np.generic):
        return meta
    if not isinstance(meta, (str, type, np.dtype)):
        return None
    try:
        return jnp.dtype(meta)
    except (TypeError, ValueError):
        return None


_CATEGORY_RULES: dict[Any, DtypeRule] = {}


def _category_rule(want: Any) -> DtypeRule:
    rule = _CATEGORY_RULES.get(want)
    if rule is None:
        shown = want.__name__ if isinstance(want, type) else str(want)
        rule = _CATEGORY_RULES[want] = DtypeRule(shown, lambda d: bool(jnp.issubdtype(d, want)))
    return rule


def _show_sizes(sizes: tuple[Any, ...]) -> str:
    inner = ", ".join("..." if s is ... else str(s) for s in sizes)
    return f"({inner},)" if len(sizes) == 1 else f"({inner})"


def _type_name(tp: Any) -> str:
    if tp is Any:
        return "Any"
    name = getattr(tp, "__name__", None)
    if isinstance(name, str) and get_origin(tp) is None:
        return name.rsplit(".", 1)[-1]  # jax.Array's __name__ is 'jaxlib._jax.Array'
    return repr(tp).replace("typing.", "")
