"""flax.serialization support, without importing flax.

When `flax.serialization` is imported (before or after jaxdc), every jaxdc class, existing
and future, is registered with it, so `flax.serialization.to_state_dict`,
`from_state_dict`, `to_bytes` and `from_bytes` work on jaxdc instances, in the state-dict
format of `_serialization` (the key check and the rebuild are `_state`'s). `import jaxdc`
itself never imports flax (jax_dataclasses pays ~650 ms for that): an import hook waits for
flax.serialization to be imported by someone else, then registers the classes.
Registration calls `on_new_class` for every class.
"""

from __future__ import annotations

import importlib.abc
import sys
import weakref
from types import ModuleType
from typing import Any

from jaxdc._display import class_name
from jaxdc._spec import spec_of
from jaxdc._state import fields_of, rebuild

__all__ = ["on_new_class"]

_FLAX = "flax.serialization"
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
        values = fields_of(state, names, class_name(cls), target)
        children = [
            flax_from(getattr(target, name), value, name=name)
            for name, value in zip(names, values, strict=True)
        ]
        return rebuild(target, children)

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
