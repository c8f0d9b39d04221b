"""State dicts keyed by field names, and flax.serialization support without importing flax.

    state = jaxdc.to_state_dict(model)            # {"encoder": {"w": Array, ...}, ...}
    model = jaxdc.from_state_dict(model, state)   # same structure, restored leaves

The format is flax's: a jaxdc instance becomes a dict of its data fields, a NamedTuple (an
optax state) a dict keyed by its field names, lists and tuples dicts keyed "0", "1", ...,
dicts keep their keys (as strings), leaves are kept as they are. So these state dicts go
through msgpack (`flax.serialization.to_bytes`), orbax and anything that stores nested
dicts, and a checkpoint written by flax restores here and the other way round.

Static fields are not in the state dict: they are part of the tree structure (the treedef,
hashed into jit cache keys) and belong to the code that builds the model, like its class.
Restoring takes them from `target`. This is what flax does for `pytree_node=False` fields,
and what jax_dataclasses issue #1 asks for. Fields left out of the pytree are not saved
either (they only ever hold their default).

`from_state_dict` checks the state against `target` and names the path of the first
problem: a missing or unknown key (listing the expected ones), a leaf of another kind than
the target's (a string, None, a dict or a list where the target has an array; an array
where it has None: restoring it would change the tree structure), a shape or dtype that
differs from the target's leaf. Restored instances are built like jit outputs: `__init__`
and `__post_init__` are not run.

`flax.serialization` support (registering every jaxdc class with it) is in `_flax`; the key
check and the rebuild both use are in `_state`.
"""

from __future__ import annotations

from collections.abc import Mapping
from numbers import Number
from typing import Any, TypeVar

import numpy as np
from _jaxdc_rules import messages

from jaxdc._display import class_name, wrong_kind
from jaxdc._spec import ClassSpec, spec_of
from jaxdc._state import fields_of, rebuild

__all__ = ["from_state_dict", "to_state_dict"]

_T = TypeVar("_T")


def to_state_dict(obj: Any) -> dict[str, Any]:
    """The state of a jaxdc instance as nested dicts keyed by field names (static fields
    left out; see the module docs)."""
    if _spec(obj) is None:
        raise TypeError(wrong_kind("to_state_dict", messages.JAXDC_INSTANCE, obj))
    return _to_state(obj)  # type: ignore[no-any-return]


def _to_state(value: Any) -> Any:
    spec = _spec(value)
    if spec is not None:
        return {name: _to_state(getattr(value, name)) for name in spec.data}
    if _is_namedtuple(value):  # flax keys these by field name (optax states)
        return {name: _to_state(getattr(value, name)) for name in value._fields}
    if isinstance(value, (list, tuple)):
        return {str(i): _to_state(v) for i, v in enumerate(value)}
    if isinstance(value, dict):
        return {str(k): _to_state(v) for k, v in value.items()}
    return value


def from_state_dict(target: _T, state: Mapping[str, Any]) -> _T:
    """A copy of `target` with its leaves taken from `state` (static fields from `target`).

    Raises `ValueError` naming the path (`target.encoder.w`) for a missing or unknown key
    and for a leaf whose shape or dtype differs from the target's.
    """
    if _spec(target) is None:
        raise TypeError(wrong_kind("from_state_dict", messages.JAXDC_INSTANCE, target))
    if not isinstance(state, Mapping):
        raise TypeError(wrong_kind("from_state_dict", messages.STATE_DICT, state))
    return _from_state(target, state, "target")  # type: ignore[no-any-return]


def _from_state(target: Any, state: Any, path: str, owner: str = "") -> Any:
    """`owner` names the field of a jaxdc class `target` is or is inside (a list item of a
    field is still that field's), for error messages."""
    where = f"{path} ({owner})" if owner else path
    spec = _spec(target)
    if spec is not None:
        cls = class_name(type(target))
        values = fields_of(state, spec.data, where, target)
        children = [
            _from_state(getattr(target, n), v, f"{path}.{n}", f"field '{n}' of '{cls}'")
            for n, v in zip(spec.data, values, strict=True)
        ]
        return rebuild(target, children)
    if isinstance(target, (list, tuple)):
        named = _is_namedtuple(target)
        keys = (
            list(getattr(target, "_fields", ())) if named else [str(i) for i in range(len(target))]
        )
        items = state if isinstance(state, (list, tuple)) else fields_of(state, keys, where, target)
        if len(items) != len(target):
            raise ValueError(messages.state_length(where, len(target), len(items)))
        paths = [f"{path}.{k}" if named else f"{path}[{k}]" for k in keys]
        restored = [
            _from_state(t, s, p, owner) for t, s, p in zip(target, items, paths, strict=True)
        ]
        return type(target)(*restored) if named else type(target)(restored)
    if isinstance(target, dict):
        values = fields_of(state, [str(k) for k in target], where, target)
        return {
            k: _from_state(t, s, f"{path}[{k!r}]", owner)
            for (k, t), s in zip(target.items(), values, strict=True)
        }
    _check_leaf(target, state, where)
    return state


def _check_leaf(target: Any, value: Any, path: str) -> None:
    """`value` may replace the leaf `target`: the same kind of leaf (an array where the
    target has an array or a number, None where it has None), of the same shape and dtype."""
    if ((target is None or value is None) and target is not value) or _is_subtree(value):
        raise ValueError(
            messages.state_leaf_kind(path, _kind(value), _kind(target), structure=True)
        )
    if target is None or not _is_array_like(target):
        return  # None for None; another leaf (a string, an object): as the state has it
    if not _is_array_like(value):
        raise ValueError(messages.state_leaf_kind(path, _kind(value), _kind(target)))
    if not hasattr(target, "shape") or not hasattr(target, "dtype"):
        return  # a Python number: any number or scalar array restores it
    shape = getattr(value, "shape", None)
    if shape is None:
        shape = np.shape(value)
    if tuple(shape) != tuple(target.shape):
        raise ValueError(messages.state_shape(path, tuple(shape), tuple(target.shape)))
    dtype = getattr(value, "dtype", None)
    if dtype is not None and dtype != target.dtype:
        raise ValueError(messages.state_dtype(path, str(dtype), str(target.dtype)))


def _is_subtree(value: Any) -> bool:
    return isinstance(value, (Mapping, list, tuple))


def _is_array_like(value: Any) -> bool:
    """Arrays (jax, numpy, anything with a shape and a dtype) and numbers (bool included)."""
    return (hasattr(value, "shape") and hasattr(value, "dtype")) or isinstance(
        value, (Number, np.generic)
    )


def _kind(value: Any) -> str:
    """A leaf as messages describe it: None, an array of shape (3,), a dict, a value of
    type 'str'."""
    if value is None:
        return "None"
    if hasattr(value, "shape") and hasattr(value, "dtype"):
        return f"an array of shape {tuple(value.shape)}"
    if isinstance(value, Mapping):
        return "a dict"
    return f"a value of type '{_type(value)}'"


def _type(value: Any) -> str:
    return class_name(type(value))


def _is_namedtuple(value: Any) -> bool:
    """flax's test: a tuple with `_fields` (typing.NamedTuple and collections.namedtuple)."""
    return isinstance(value, tuple) and hasattr(value, "_fields")


def _spec(value: Any) -> ClassSpec | None:
    return spec_of(type(value))
