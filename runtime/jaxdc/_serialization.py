"""State dicts keyed by field names, and flax.serialization support without importing flax.

    state = jaxdc.to_state_dict(model)            # {"encoder": {"w": Array, ...}, ...}
    model = jaxdc.from_state_dict(model, state)   # same structure, restored leaves

The format is flax's: a jaxdc instance becomes a dict of its data fields, lists and tuples
become dicts keyed "0", "1", ..., dicts keep their keys (as strings), leaves are kept as
they are. So these state dicts go through msgpack (`flax.serialization.to_bytes`), orbax
and anything that stores nested dicts.

Static fields are not in the state dict: they are part of the tree structure (the treedef,
hashed into jit cache keys) and belong to the code that builds the model, like its class.
Restoring takes them from `target`. This is what flax does for `pytree_node=False` fields,
and what jax_dataclasses issue #1 asks for. Fields left out of the pytree are not saved
either (they only ever hold their default).

`from_state_dict` checks the state against `target` and names the path of the first
problem: a missing or unknown key (listing the expected ones), a shape or dtype that differs
from the target's leaf. Restored instances are built like jit outputs: `__init__` and
`__post_init__` are not run.

flax: when `flax.serialization` is imported (before or after jaxdc), every jaxdc class,
existing and future, is registered with it, so `flax.serialization.to_state_dict`,
`from_state_dict`, `to_bytes` and `from_bytes` work on jaxdc instances. `import jaxdc`
itself never imports flax (jax_dataclasses pays ~650 ms for that): an import hook waits
for flax.serialization to be imported by someone else, then registers the classes.
"""

from __future__ import annotations

import importlib.abc
import sys
import weakref
from collections.abc import Mapping
from types import ModuleType
from typing import Any, TypeVar

import jax
import numpy as np

from jaxdc._display import class_name
from jaxdc._shapes import check_instance
from jaxdc._spec import ClassSpec, spec_of

__all__ = ["from_state_dict", "to_state_dict"]

_T = TypeVar("_T")
_FLAX = "flax.serialization"


def to_state_dict(obj: Any) -> dict[str, Any]:
    """The state of a jaxdc instance as nested dicts keyed by field names (static fields
    left out; see the module docs)."""
    if _spec(obj) is None:
        raise TypeError(
            f"to_state_dict() needs an instance of a jaxdc pytree dataclass, got "
            f"'{class_name(type(obj))}'"
        )
    return _to_state(obj)  # type: ignore[no-any-return]


def _to_state(value: Any) -> Any:
    spec = _spec(value)
    if spec is not None:
        return {name: _to_state(getattr(value, name)) for name in spec.data}
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
    spec = _spec(target)
    if spec is None:
        raise TypeError(
            f"from_state_dict() needs an instance of a jaxdc pytree dataclass as target, got "
            f"'{class_name(type(target))}'"
        )
    return _from_state(target, state, "target")  # type: ignore[no-any-return]


def _from_state(target: Any, state: Any, path: str, owner: str = "") -> Any:
    """`owner` names the field a leaf belongs to, for error messages."""
    spec = _spec(target)
    if spec is not None:
        cls = class_name(type(target))
        children = [
            _from_state(
                getattr(target, name), value, f"{path}.{name}", f"field '{name}' of '{cls}'"
            )
            for name, value in zip(spec.data, _fields_of(state, spec.data, path, target))
        ]
        return _rebuild(target, children)
    if isinstance(target, (list, tuple)):
        keys = [str(i) for i in range(len(target))]
        items = state if isinstance(state, (list, tuple)) else _fields_of(state, keys, path, target)
        if len(items) != len(target):
            raise ValueError(f"{path}: expected {len(target)} items, the state has {len(items)}")
        restored = [
            _from_state(t, s, f"{path}[{i}]") for i, (t, s) in enumerate(zip(target, items))
        ]
        if type(target) is list or type(target) is tuple:
            return type(target)(restored)
        return type(target)(*restored)  # namedtuple
    if isinstance(target, dict):
        values = _fields_of(state, [str(k) for k in target], path, target)
        return {k: _from_state(t, s, f"{path}[{k!r}]") for (k, t), s in zip(target.items(), values)}
    _check_leaf(target, state, f"{path} ({owner})" if owner else path)
    return state


def _fields_of(state: Any, keys: list[str] | tuple[str, ...], path: str, target: Any) -> list[Any]:
    """The values of `keys` in `state`, which must have exactly those keys."""
    if not isinstance(state, Mapping):
        raise ValueError(
            f"{path}: expected a dict with keys {list(keys)} for "
            f"'{class_name(type(target))}', got '{class_name(type(state))}'"
        )
    missing = [k for k in keys if k not in state]
    unknown = [k for k in state if k not in keys]
    if missing or unknown:
        what = "; ".join(
            part
            for part in (
                f"missing key(s) {missing}" if missing else "",
                f"unknown key(s) {unknown}" if unknown else "",
            )
            if part
        )
        owner = class_name(type(target))
        spec = _spec(target)
        static = [n for n in spec.static if n in unknown] if spec is not None else []
        hint = (
            f" (static fields such as {static} are not saved: they come from the target)"
            if static
            else ""
        )
        raise ValueError(f"{path}: {what} for '{owner}'; expected keys: {list(keys)}{hint}")
    return [state[k] for k in keys]


def _check_leaf(target: Any, value: Any, path: str) -> None:
    if not hasattr(target, "shape") or not hasattr(target, "dtype"):
        return  # a Python scalar or another leaf: nothing to compare
    shape = getattr(value, "shape", None)
    if shape is None:
        shape = np.shape(value)
    if tuple(shape) != tuple(target.shape):
        raise ValueError(
            f"{path}: shape {tuple(shape)} in the state, the target has {tuple(target.shape)}"
        )
    dtype = getattr(value, "dtype", None)
    if dtype is not None and dtype != target.dtype:
        raise ValueError(f"{path}: dtype {dtype} in the state, the target has {target.dtype}")


def _rebuild(target: Any, children: list[Any]) -> Any:
    """A new instance of target's class with these data fields, built by its unflatten."""
    _, treedef = jax.tree_util.tree_flatten(target, is_leaf=lambda x: x is not target)
    rebuilt = jax.tree_util.tree_unflatten(treedef, children)
    check_instance(rebuilt)  # check_shapes=True: restored values are checked like new ones
    return rebuilt


def _spec(value: Any) -> ClassSpec | None:
    return spec_of(type(value))


# ---- flax.serialization ---------------------------------------------------------------

_CLASSES: weakref.WeakSet[type] = weakref.WeakSet()  # created before flax was imported
_flax: ModuleType | None = None


def on_new_class(cls: type) -> None:
    """Called for every finished jaxdc class: register it with flax now or later."""
    if _flax is not None:
        _register_with_flax(_flax, cls)
    else:
        _CLASSES.add(cls)


def _register_with_flax(flax_serialization: ModuleType, cls: type) -> None:
    spec = spec_of(cls)
    assert spec is not None
    names = spec.data
    flax_to, flax_from = flax_serialization.to_state_dict, flax_serialization.from_state_dict

    def ty_to_state_dict(obj: Any) -> dict[str, Any]:
        return {name: flax_to(getattr(obj, name)) for name in names}

    def ty_from_state_dict(target: Any, state: Any) -> Any:
        values = _fields_of(state, names, class_name(cls), target)
        children = [
            flax_from(getattr(target, name), value, name=name) for name, value in zip(names, values)
        ]
        return _rebuild(target, children)

    flax_serialization.register_serialization_state(
        cls, ty_to_state_dict, ty_from_state_dict, override=True
    )


def _flax_imported(module: ModuleType) -> None:
    global _flax
    _flax = module
    for cls in list(_CLASSES):
        _register_with_flax(module, cls)
    _CLASSES.clear()


class _FlaxWatcher(importlib.abc.MetaPathFinder):
    """Finds nothing itself; when `flax.serialization` is being imported, wraps its loader
    so jaxdc's classes are registered right after the module has run."""

    def find_spec(self, fullname: str, path: Any, target: Any = None) -> Any:
        if fullname != _FLAX:
            return None
        sys.meta_path.remove(self)  # once: let the other finders locate the module
        for finder in sys.meta_path:
            find = getattr(finder, "find_spec", None)
            spec = find(fullname, path, target) if find is not None else None
            if spec is not None:
                if spec.loader is not None:
                    spec.loader = _RegisteringLoader(spec.loader)
                return spec
        return None


class _RegisteringLoader(importlib.abc.Loader):
    def __init__(self, loader: Any) -> None:
        self._loader = loader

    def create_module(self, spec: Any) -> Any:
        return self._loader.create_module(spec)

    def exec_module(self, module: ModuleType) -> None:
        self._loader.exec_module(module)
        _flax_imported(module)

    def __getattr__(self, name: str) -> Any:  # get_source, is_package, ...
        return getattr(self._loader, name)


if _FLAX in sys.modules:
    _flax_imported(sys.modules[_FLAX])
else:
    sys.meta_path.insert(0, _FlaxWatcher())
