"""`validate=True`: does an edited value still stand in for the one it replaces?

Structure (the treedef, static values included) must be the same, and so must the shape and
dtype of every leaf that is an array (or a Python/NumPy scalar, which JAX turns into one).
Leaves that are neither (an equinox MLP's activation function, a `custom_jvp`, a string)
have no shape or dtype to keep: JAX treats them as opaque, so any value may replace
another, as long as an array is not replaced by a non-array or the other way round.

Problems are collected while the block resolves and reported once it has (with the path of
the place in the result, which is known only then): see `Problem` and `path_of`.
"""

from __future__ import annotations

import enum
from typing import Any

import jax
import numpy as np
from _jaxdc_rules import messages

from jaxdc._construct import static_value_message
from jaxdc._display import array_summary, class_name
from jaxdc._edit._views import Record
from jaxdc._spec import spec_of

__all__ = [
    "ArrayType",
    "Problem",
    "field_problem",
    "is_array",
    "mismatch",
    "path_of",
    "same_aval",
    "static_problem",
    "validation_error",
]


class ArrayType(enum.Enum):
    """What a value is, as far as comparing shapes and dtypes goes."""

    NONE = "not an array"
    ARRAY = "array"  # NumPy arrays and scalars
    JAX = "jax array"  # with an `aval`: jax interns avals, so the same aval, same shape/dtype


_NOT_ARRAY, _JAX_ARRAY = ArrayType.NONE, ArrayType.JAX  # a global read: cheaper than Enum.X
_ARRAYS = (jax.Array, np.ndarray, np.generic)
# Types whose answer holds for every instance -> that answer: an exact-type lookup is
# cheaper than `isinstance` against three classes (one with a custom instance check), and
# types are few. Tracers are left out: jax decides per value whether a tracer is an array.
_KNOWN: dict[type, ArrayType] = {}


def is_array(x: Any) -> bool:
    """A NumPy or jax array (or tracer), or a NumPy scalar."""
    return (_KNOWN.get(type(x)) or _classify(x)) is not _NOT_ARRAY


def _classify(x: Any) -> ArrayType:
    """What `x` is, remembered for its type where the type decides (callers look in
    `_KNOWN` first: one dict lookup for every type seen before)."""
    tp = type(x)
    if issubclass(tp, _ARRAYS):  # a concrete array type
        jax_array = issubclass(tp, jax.Array) and hasattr(tp, "aval")
        found = ArrayType.JAX if jax_array else ArrayType.ARRAY
        _KNOWN[tp] = found
        return found
    if isinstance(x, jax.Array):  # a tracer standing for an array
        return ArrayType.JAX
    if not hasattr(tp, "aval"):  # not a tracer type either: never an array
        _KNOWN[tp] = ArrayType.NONE
    return ArrayType.NONE


def same_aval(new: Any, old: Any) -> bool:
    """Two jax arrays of one type with the same aval: the common no-change case of
    validation, cheaper than comparing `.shape` and `.dtype` (Python properties reading
    `.aval`). False says nothing: compare them the long way."""
    return (
        type(new) is type(old)
        and (_KNOWN.get(type(new)) or _classify(new)) is _JAX_ARRAY
        and new.aval is old.aval
    )


def mismatch(new: Any, old: Any) -> tuple[str, str] | None:
    """(key path inside the value, what changed) if `new` cannot stand in for `old`."""
    if is_array(new) and is_array(old):
        if new.shape == old.shape and new.dtype == old.dtype:
            return None
        return "", _leaf_change(new, old)
    new_leaves, new_def = jax.tree_util.tree_flatten_with_path(new)
    old_leaves, old_def = jax.tree_util.tree_flatten_with_path(old)
    if new_def != old_def:  # type: ignore[operator]  # jaxlib's stub lacks PyTreeDef.__ne__
        return "", messages.edit_tree_changed(str(old_def), str(new_def))
    for (key, a), (_, b) in zip(new_leaves, old_leaves, strict=True):
        if a is b:
            continue
        a_array, b_array = _array_like(a), _array_like(b)
        if a_array and b_array:
            if np.shape(a) != np.shape(b) or _dtype(a) != _dtype(b):
                return jax.tree_util.keystr(key), _leaf_change(a, b)
        elif a_array or b_array:
            return jax.tree_util.keystr(key), messages.edit_array_leaf_replaced(
                _summary(b), _summary(a)
            )
    return None


_SCALARS = (bool, int, float, complex)


def _array_like(x: Any) -> bool:
    """An array, or a scalar JAX would turn into one (so it has a shape and a dtype)."""
    return is_array(x) or isinstance(x, _SCALARS)


def _dtype(x: Any) -> Any:
    return jax.dtypes.result_type(x)


def _leaf_change(new: Any, old: Any) -> str:
    what = "shape" if np.shape(new) != np.shape(old) else "dtype"
    return messages.edit_leaf_changed(what, _summary(old), _summary(new))


def _summary(x: Any) -> str:
    return array_summary(x) if hasattr(x, "dtype") else f"{type(x).__name__} {x!r}"


class Problem:
    """A change `validate=True` rejects: found in the copy `where` records (None: the
    root), at `suffix` below it (`.w`, `['k'].w`), described by `what`."""

    __slots__ = ("suffix", "what", "where")

    def __init__(self, where: Record | None, suffix: str, what: str) -> None:
        self.where, self.suffix, self.what = where, suffix, what


def field_problem(where: Record | None, owner: type, key: Any, found: tuple[str, str]) -> Problem:
    """The problem `mismatch` `found` for a field `key` of an `owner` instance, or for an
    item of a copied list/dict (`key` a 1-tuple holding the index or key)."""
    inner, what = found
    if type(key) is tuple:
        return Problem(where, f"[{key[0]!r}]{inner}", what)
    return Problem(
        where, f".{key}{inner}", messages.edit_field_changed(key, class_name(owner), what)
    )


def static_problem(
    where: Record | None, owner: type, name: str, new: Any, old: Any
) -> Problem | None:
    """A changed static value changes the treedef; an unhashable one (an array, a list)
    cannot be static at all, which is reported as at construction (an error; a warning on
    the migration path), before comparing it with `==` (which could raise "truth value of
    an array is ambiguous")."""
    if new is old:
        return None
    try:
        hash(new)
    except TypeError as exc:
        spec = spec_of(owner)
        assert spec is not None  # an edited node's class
        spec.report(static_value_message(class_name(owner), name, new, exc), name)
    try:
        if bool(new == old):
            return None
    except Exception:  # an __eq__ that cannot answer: treat the value as changed
        pass
    return Problem(
        where, f".{name}", messages.edit_static_changed(name, class_name(owner), old, new)
    )


def path_of(record: Record | None, root: Any) -> str | None:
    """`new.a[0].b` for a copy whose result is part of the block's result, else None
    (an edit detached from the result by a later assignment is not a problem)."""
    parts = []
    while record is not None and record.key is not None:
        holder = record.parent.result if record.parent is not None else root
        if isinstance(holder, (list, tuple, dict)):
            try:
                found = holder[record.key]
            except LookupError:
                return None
            parts.append(f"[{record.key!r}]")
        else:
            found = getattr(holder, record.key)
            parts.append(f".{record.key}")
        if found is not record.result:
            return None
        record = record.parent
    return "new" + "".join(reversed(parts))


def validation_error(path: str, problem: Problem) -> ValueError:
    return ValueError(messages.edit_rejected(path + problem.suffix, problem.what))
