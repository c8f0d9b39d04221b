"""`copy_and_mutate(obj)`: edit a copy of a frozen tree in place, at the cost of the edited paths.

    with jaxdc.copy_and_mutate(state) as new:
        new.model.encoder.w = w2        # state itself is left untouched

Design: copy on access. Entering copies only the root (a shallow copy: a new object whose
fields point at the same children). Reading a data field of a copy copies that child the
same way, on first access, and stores the copy in the field, so `new.a.b.c.x = v` copies
exactly `new`, `new.a`, `new.a.b` and `new.a.b.c`; every untouched subtree is shared with
`obj`. On exit the copies are frozen again and re-sealed (flatten cache, static values
checked), and with `validate=True` only the edited paths are compared with `obj`. The cost
is O(edited paths), like chained `replace` calls, instead of O(tree) as in
`jax_dataclasses.copy_and_mutate` and `eqx.tree_at`, which copy everything.

Why the copies are real instances, not proxies: each copy is an instance of a hidden
subclass of its class (made once per class, same name), which adds the copy-on-access
`__getattribute__` and an assignable `__setattr__`. So `isinstance`, methods, properties and
`dataclasses.fields` keep working inside the block, and the user's own class never gets a
`__getattribute__` (that would slow every attribute read, as equinox's does). On exit each
copy's `__class__` is set back to the user's class (the hidden subclass adds no storage, so
this is allowed, also for `slots=True` classes). The hidden subclasses are registered with
JAX, so `jax.tree.map` and friends work on `new` inside the block too.

Containers: a list or dict in a data field is copied when read (a fresh list/dict whose jaxdc
nodes are themselves shallow copies), so `new.layers[0].w = w` and `new.layers.append(l)`
leave `obj` alone. A tuple is re-built only if it holds nodes or containers. Other pytree
types (equinox modules, custom nodes) are shared, not copied: edit them with their own tools.
"""

from __future__ import annotations

from typing import Any, TypeVar

import jax
import numpy as np
from jax.tree_util import GetAttrKey

from jaxdc._codegen import make_unflatten
from jaxdc._construct import seal
from jaxdc._hashability import class_name
from jaxdc._spec import SPEC_ATTR, ClassSpec, spec_of

__all__ = ["copy_and_mutate"]

_T = TypeVar("_T")

_object_getattribute = object.__getattribute__
_object_setattr = object.__setattr__
_MISSING = object()

EDIT_OF_ATTR = "__jaxdc_edit_of__"

# id(copy) -> (session, original, path) for every copy alive in an open block. The session
# keeps the copies alive, so an id cannot be reused while its entry exists.
_ENTRIES: dict[int, tuple[_Session, Any, str]] = {}
_EDIT_CLASSES: dict[type, type] = {}


def copy_and_mutate(obj: _T, validate: bool = True) -> _Session:
    """A context manager yielding an editable copy of `obj` (a jaxdc instance, or a
    list/tuple/dict of them).

    Assign fields at any depth inside the block (`new.a.b = x`); `obj` is never changed. On
    exit the copy is frozen again. With `validate=True` (default), an edit that changes the
    tree structure (including static field values), a leaf's shape or its dtype raises a
    `ValueError` naming the path, e.g. `new.a.b`; pass `validate=False` to allow it.
    """
    return _Session(obj, validate)


class _Session:
    """One `with copy_and_mutate(...)` block: owns every copy made through it."""

    __slots__ = ("_copies", "_nodes", "_obj", "_root", "_validate")

    def __init__(self, obj: Any, validate: bool) -> None:
        if _spec_or_none(obj) is None and not isinstance(obj, (list, tuple, dict)):
            raise TypeError(
                f"copy_and_mutate() needs an instance of a jaxdc pytree dataclass (or a "
                f"list/tuple/dict of them), got '{class_name(type(obj))}'. Fix: for other "
                f"pytrees use jax.tree_util or equinox.tree_at."
            )
        self._obj = obj
        self._validate = validate
        self._copies: list[Any] = []  # every copy, in creation order (keeps their ids alive)
        self._nodes: list[tuple[Any, ClassSpec]] = []  # the jaxdc copies among them
        self._root: Any = _MISSING

    def __enter__(self) -> Any:
        if self._root is not _MISSING:
            raise RuntimeError("a copy_and_mutate(...) context can be entered only once")
        self._root = self.claim(self._obj, "new")
        return self._root

    def __exit__(self, exc_type: Any, exc: Any, tb: Any) -> None:
        try:
            for node, spec in self._nodes:  # every copy ends frozen, even after an error
                _object_setattr(node, "__class__", spec.cls)
            for node, spec in self._nodes:
                try:
                    seal(node, spec)
                except TypeError:
                    if exc_type is None:
                        raise
            if exc_type is None and self._validate:
                _check(self._root, self._obj, "new")
        finally:
            for c in self._copies:
                del _ENTRIES[id(c)]

    def claim(self, value: Any, path: str) -> Any:
        """`value` itself if it is a leaf or already this block's copy, else a copy of it."""
        entry = _ENTRIES.get(id(value))
        if entry is not None and entry[0] is self:
            return value
        spec = _spec_or_none(value)
        if spec is not None:
            copy = object.__new__(_edit_class(spec))
            for f in spec.fields:
                _object_setattr(copy, f.name, _object_getattribute(value, f.name))
            self._nodes.append((copy, spec))
        elif type(value) is list:
            copy = [self.claim(v, f"{path}[{i}]") for i, v in enumerate(value)]
        elif type(value) is dict:
            copy = {k: self.claim(v, f"{path}[{k!r}]") for k, v in value.items()}
        elif type(value) is tuple or _is_namedtuple(value):
            items = [self.claim(v, f"{path}[{i}]") for i, v in enumerate(value)]
            if all(a is b for a, b in zip(items, value)):
                return value
            copy = tuple(items) if type(value) is tuple else type(value)(*items)
        else:
            return value
        self._copies.append(copy)
        _ENTRIES[id(copy)] = (self, value, path)
        return copy



def _is_namedtuple(value: Any) -> bool:
    return isinstance(value, tuple) and hasattr(type(value), "_fields")


def _spec_or_none(value: Any) -> ClassSpec | None:
    """The spec of a jaxdc instance's class (an edit copy's spec is its user class's)."""
    spec = type(value).__dict__.get(SPEC_ATTR)
    return spec if isinstance(spec, ClassSpec) else None


def _edit_class(spec: ClassSpec) -> type:
    """The hidden subclass of `spec.cls` that copies are made of while a block is open."""
    edit = _EDIT_CLASSES.get(spec.cls)
    if edit is None:
        edit = _EDIT_CLASSES[spec.cls] = _make_edit_class(spec)
    return edit


def _make_edit_class(spec: ClassSpec) -> type:
    cls = spec.cls
    lazy = frozenset(spec.data)
    assignable = frozenset(f.name for f in spec.fields)

    def __getattribute__(self: Any, name: str) -> Any:
        value = _object_getattribute(self, name)
        if name in lazy:
            entry = _ENTRIES.get(id(self))
            if entry is None:  # a stray copy made by other means (copy.copy, pickle)
                return value
            session, _, path = entry
            claimed = session.claim(value, f"{path}.{name}")
            if claimed is not value:
                _object_setattr(self, name, claimed)
            return claimed
        return value

    def __setattr__(self: Any, name: str, value: Any) -> None:
        if name not in assignable:
            raise AttributeError(
                f"cannot assign '{name}' in copy_and_mutate: class '{class_name(cls)}' has no "
                f"field '{name}'; its fields are: {', '.join(sorted(assignable))}."
            )
        _object_setattr(self, name, value)

    namespace = {
        "__slots__": (),  # same layout as `cls`, so `__class__` can be switched back
        "__module__": cls.__module__,
        "__qualname__": cls.__qualname__,
        "__getattribute__": __getattribute__,
        "__setattr__": __setattr__,
        # Class creation runs the `__init_subclass__` hooks of jaxdc classes: an own
        # `__new__` skips the undecorated-subclass guard, an own spec makes `process()`
        # (PyTreeNode subclasses) treat the class as done.
        "__new__": staticmethod(object.__new__),
        SPEC_ATTR: spec,
        EDIT_OF_ATTR: cls,
    }
    edit = type(cls)(cls.__name__, (cls,), namespace)
    data, static = spec.data, spec.static
    keys = tuple(GetAttrKey(n) for n in data)

    def flatten_with_keys(obj: Any) -> tuple[Any, Any]:
        children = tuple((k, getattr(obj, n)) for k, n in zip(keys, data))
        return children, tuple(getattr(obj, n) for n in static)

    def flatten(obj: Any) -> tuple[Any, Any]:
        return tuple(getattr(obj, n) for n in data), tuple(getattr(obj, n) for n in static)

    # Unflattening gives a plain instance of the user's class.
    jax.tree_util.register_pytree_with_keys(edit, flatten_with_keys, make_unflatten(spec), flatten)
    return edit


def _check(new: Any, old: Any, path: str) -> None:
    """Compare the edited paths of `new` with `old` (validate=True)."""
    if new is old:
        return
    entry = _ENTRIES.get(id(new))
    if entry is None or entry[1] is not old:  # a value the user assigned
        _check_replaced(new, old, path)
        return
    spec = _spec_or_none(new)
    if spec is not None:
        for f in spec.fields:
            if f.kind == "data":
                _check(getattr(new, f.name), getattr(old, f.name), f"{path}.{f.name}")
            elif f.kind == "static":
                a, b = getattr(old, f.name), getattr(new, f.name)
                if a is not b and a != b:
                    _fail(f"{path}.{f.name}", f"static field '{f.name}' of class "
                          f"'{class_name(spec.cls)}' changed from {a!r} to {b!r}, which "
                          f"changes the tree structure")
    elif isinstance(new, dict):
        if list(new) != list(old):
            _fail(path, f"dict keys changed from {list(old)} to {list(new)}")
        for k in new:
            _check(new[k], old[k], f"{path}[{k!r}]")
    else:
        if len(new) != len(old):
            _fail(path, f"{type(new).__name__} length changed from {len(old)} to {len(new)}")
        for i, (a, b) in enumerate(zip(new, old)):
            _check(a, b, f"{path}[{i}]")


def _check_replaced(new: Any, old: Any, path: str) -> None:
    if _is_array(new) and _is_array(old):
        _check_leaf(new, old, path)
        return
    new_leaves, new_def = jax.tree_util.tree_flatten_with_path(new)
    old_leaves, old_def = jax.tree_util.tree_flatten_with_path(old)
    if new_def != old_def:
        _fail(path, f"tree structure changed from {old_def} to {new_def}")
    for (key, a), (_, b) in zip(new_leaves, old_leaves):
        _check_leaf(a, b, path + jax.tree_util.keystr(key))


def _is_array(x: Any) -> bool:
    return isinstance(x, (jax.Array, np.ndarray, np.generic))


def _check_leaf(new: Any, old: Any, path: str) -> None:
    new_shape, old_shape = np.shape(new), np.shape(old)
    new_dtype, old_dtype = jax.dtypes.result_type(new), jax.dtypes.result_type(old)
    if new_shape != old_shape or new_dtype != old_dtype:
        what = "shape" if new_shape != old_shape else "dtype"
        _fail(path, f"{what} changed from {_describe(old_dtype, old_shape)} to "
                    f"{_describe(new_dtype, new_shape)}")


def _describe(dtype: Any, shape: tuple[int, ...]) -> str:
    return f"{np.dtype(dtype).name}[{','.join(map(str, shape))}]"


def _fail(path: str, what: str) -> None:
    raise ValueError(
        f"copy_and_mutate(validate=True): {path}: {what}. Fix: assign a value of the same "
        f"structure, shape and dtype, or pass validate=False if the change is intended."
    )

