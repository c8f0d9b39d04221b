"""`copy_and_mutate(obj)`: edit a copy of a frozen tree in place, at the cost of the edited paths.

    with jaxdc.copy_and_mutate(state) as new:
        new.model.encoder.w = w2        # `state` itself is left untouched

Design: copy on access. Entering copies the root (a shallow copy: a new object whose fields
point at the same children) and makes it assignable; it is the result. Every jaxdc node
read through it is an *editing view*: an object that refers to the original, with a record
(`_Entry`) of the fields read or assigned. Reading a node field of a view makes a view of
that child, on first access. The root is a plain instance (nothing intercepts reads of its
fields), so its node children become views as the block is entered; each holds only a stub
`(block, original, field name)` until it is used, since most of them never are. So
`new.a.b.c.x = v` makes records for `new.a`, `new.a.b` and `new.a.b.c` only; every
untouched subtree is shared with `obj`.

On exit, children before parents: a view with assignments, or with a new result below it,
becomes a fresh frozen instance built by the class's generated `apply` (unflatten's
writes: no `__init__`/`__post_init__`, flatten cache built); every other copy's result is
its original, at no cost. A new result is pushed to the view it was read from, so
finishing a view never looks up the fields that were only read. If none of the root's own
fields was assigned, the generated `reseat` points them at `obj`'s values and the pushed
results at once. `validate=True` compares only assigned values and copied lists/dicts with
the same place in `obj` (a copy of an original stands for it), jax arrays by their interned
`aval` first. The cost is O(edited paths), like chained `replace` calls (a depth-4 edit in
`benchmarks/nested_update.py` takes ~2x a chain of `dataclasses.replace` on CPython 3.11,
~1.6x on 3.13), instead of O(tree) as in `jax_dataclasses.copy_and_mutate` and
`eqx.tree_at`.

Why views are real instances, not proxies: a view is an instance of a hidden subclass of
its class (made once per class, same name) whose `__getattribute__`/`__setattr__` serve
fields from the record, kept in a slot of the view. So `isinstance`, methods, properties and
`dataclasses.fields` keep working on `new.a` inside the block, and the user's own class
never gets a `__getattribute__` (that would slow every attribute read, as equinox's does).
The hidden subclasses are registered with JAX, so `jax.tree.map(f, new.a)` works inside the
block. The results are plain instances made by generated code; a view is never turned into
the result by assigning `__class__`, because on Python 3.11/3.12 that materialises the
instance dict and makes every later attribute read ~3x slower.

Inside the block `replace(...)` and JAX functions work on `new` and on views; objects they
build from views and that are assigned into `new` are rebuilt around the views' results on
exit (objects kept elsewhere keep the views, which then read the results).

Limits (each explained by an error where it can be detected):
- A view read inside the block and kept after it reads the result's values, and is frozen.
- `copy_and_mutate` of an object taken from another block that is still open is an error:
  it is editable through that block already.
- Lists and dicts in data fields are copied when read (their jaxdc nodes become views), so
  `new.layers[0].w = w` and `new.layers.append(l)` leave `obj` alone. Tuples are re-built
  only if they hold nodes. Other pytree types (equinox modules, custom nodes) are shared,
  not copied: edit them with their own tools.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from operator import attrgetter
from types import MappingProxyType
from typing import Any, TypeVar

import jax
import numpy as np
from jax.tree_util import GetAttrKey

from jaxdc._codegen import make_apply, make_copy_mapped, make_reseal, make_reseat, make_unflatten
from jaxdc._frozen import EDITING
from jaxdc._hashability import class_name
from jaxdc._printing import array_summary
from jaxdc._shapes import check_instance, shape_checks_in_use
from jaxdc._spec import CACHE_ATTR, SPEC_ATTR, ClassSpec

__all__ = ["copy_and_mutate"]

_T = TypeVar("_T")

_new = object.__new__
_object_getattribute = object.__getattribute__
_object_setattr = object.__setattr__
_NONE = object()
# Shared by the dicts of a block and of records until they are written to: most stay empty.
_EMPTY: Any = MappingProxyType({})
_ENTRY_SLOT = "_jaxdc_edit_"


def copy_and_mutate(obj: _T, validate: bool = True) -> CopyAndMutate:
    """A context manager yielding an editable copy of `obj` (a jaxdc instance, or a list or
    dict of them).

    Assign fields at any depth inside the block (`new.a.b = x`); `obj` is never changed. On
    exit the copy is frozen again. With `validate=True` (default), an edit that changes the
    tree structure (including static field values), a leaf's shape or its dtype raises a
    `ValueError` naming the path, e.g. `new.a.b`; pass `validate=False` to allow it.
    """
    return CopyAndMutate(obj, validate)


class _Entry:
    """A copy's record: its original, where it was found (for error paths), for views the
    fields read or assigned so far, and its result (the original until a change makes a
    new one at exit, so untouched copies need no work at exit). Made by `CopyAndMutate.claim`."""

    __slots__ = ("assigned", "block", "changes", "copy", "final", "key", "parent", "pushed", "src")
    assigned: dict[str, Any] | None  # views: the fields assigned
    block: CopyAndMutate
    changes: Mapping[str, Any]  # views: what reads return: fields assigned, copies of nodes read
    copy: Any  # containers: the copy (a view refers to its record instead)
    final: Any
    key: Any
    parent: _Entry | None
    pushed: dict[str, Any] | None  # views: new results of the copies read from their fields
    src: Any


class CopyAndMutate:
    """One `with copy_and_mutate(...)` block: owns every copy made through it."""

    open: bool

    __slots__ = (
        "_containers",
        "_entered",
        "_kind",
        "_obj",
        "_order",
        "_problems",
        "_pushed",
        "_root",
        "_validate",
        "open",
    )

    def __init__(self, obj: Any, validate: bool) -> None:
        kind = _KINDS.get(type(obj)) or _kind_of(type(obj))
        if kind.__class__ is _EditKind and type(obj) is kind.edit:
            owner = _record(obj)
            if owner.block.open:
                raise _nested_error(kind.cls)
            obj = owner.final  # kept from a block that has ended: its result
        if kind is _SHARED or kind is tuple:
            raise TypeError(
                f"copy_and_mutate() needs an instance of a jaxdc pytree dataclass (or a list "
                f"or dict of them), got '{class_name(type(obj))}'. Fix: "
                + (
                    "pass a list (a tuple cannot be edited in place)."
                    if kind is tuple
                    else "for other pytrees use jax.tree_util or equinox.tree_at."
                )
            )
        self._obj = obj
        self._kind = kind
        self._validate = validate
        self._order: list[_Entry] = []  # records of all copies, parents before their children
        self._containers: dict[int, _Entry] = _EMPTY  # id(container copy) -> its record
        self._root: Any = _NONE
        self._entered: tuple[Any, ...] = ()  # the root's data fields as the block was entered
        self._pushed: dict[str, Any] = _EMPTY  # new results of copies read from root fields
        self._problems: tuple[tuple[_Entry | None, str, str], ...] = ()  # (where, key, what)
        self.open = False

    def __enter__(self) -> Any:
        if self._root is not _NONE:
            raise RuntimeError("a copy_and_mutate(...) context can be entered only once")
        self.open = True
        kind = self._kind
        if kind.__class__ is _EditKind:
            # The root is a plain instance (it becomes the result, and a user class never gets
            # a __getattribute__), so its node children are views from the start; it has a
            # flatten cache for JAX calls and replace() inside the block.
            root = self._root = kind.copy(self._obj, self._claim_root_child, _SHARED_TYPES)
            self._entered = kind.flat(root)[0]
            EDITING.add(id(root))  # assignments keep that cache up to date
        else:
            self._root = self.claim(self._obj, None)
        return self._root

    def __exit__(self, exc_type: Any, exc: Any, tb: Any) -> None:
        self.open = False
        root = self._root
        EDITING.discard(id(root))
        validate = self._validate and exc_type is None
        try:
            if self._order:
                self._finish_copies(validate)
            if self._kind.__class__ is _EditKind:
                self._finish_root(validate)
            for where, key, what in self._problems:
                path = self._path(where)
                if path is not None:  # else detached from the result by a later assignment
                    raise ValueError(
                        f"copy_and_mutate(validate=True): {path}{key}: {what}. Fix: assign a "
                        f"value of the same structure, shape and dtype, or pass validate=False "
                        f"if the change is intended."
                    )
            if validate and shape_checks_in_use():  # the nodes this block made anew
                for result in (root, *(e.final for e in self._order if e.final is not e.src)):
                    check_instance(result)
        finally:  # drop the block <-> record cycles: no work left for the GC
            self._order.clear()
            self._containers = _EMPTY

    def _finish_root(self, validate: bool) -> None:
        """Point the root's fields at their results, compare the assigned ones with `obj`'s,
        and reseal it. A field still holding what entering put there needs no lookups:
        its result is `obj`'s value unless a copy read there pushed a new one."""
        root, obj, kind, pushed = self._root, self._obj, self._kind, self._pushed
        (data, statics), (old_data, old_statics) = kind.flat(root), kind.flat(obj)
        if data is self._entered:  # the cache entering made: no root field was assigned
            if pushed:
                finals = list(old_data)
                for name, final in pushed.items():
                    finals[kind.data_index[name]] = final
                old_data = tuple(finals)
            kind.reseat(root, old_data)
            return
        for name, value, entered, old in zip(kind.data, data, self._entered, old_data):
            if value is entered:  # not assigned: `old` or the copy of it made on entering
                final = pushed.get(name, old)
                if final is not value:
                    _object_setattr(root, name, final)
                continue
            final = self._final(value)
            if final is not value:
                _object_setattr(root, name, final)
            if validate and final is not old:
                self._compare(None, name, value, final, old)
        if validate and statics is not old_statics:  # the same tuple unless one was assigned
            for name, new, old in zip(kind.static, statics, old_statics):
                self._compare_static(None, kind, name, new, old)
        kind.reseal(root)  # flatten cache; static values hash-checked

    def claim(self, value: Any, key: Any, parent: _Entry | None = None) -> Any:
        """`value` itself if it is a leaf or already this block's copy, else a copy of it
        (a view for a jaxdc instance), recorded as found at `parent.key` / `parent[key]`."""
        tp = type(value)
        kind = _KINDS.get(tp) or _kind_of(tp)
        if kind is _SHARED:
            return value
        if kind.__class__ is _EditKind:
            if tp is kind.edit:
                owner = _record(value)
                if owner.block is self:
                    return value
                if owner.block.open:
                    raise _nested_error(kind.cls)
                return self.claim(owner.final, key, parent)  # kept from an ended block
        elif id(value) in self._containers:
            return value
        entry = _new(_Entry)  # plain slot writes: an `__init__` call would cost twice as much
        entry.block = self
        entry.src = entry.final = value
        entry.parent = parent
        entry.key = key
        entry.changes = _EMPTY
        entry.assigned = entry.copy = entry.pushed = None
        if self.open:  # else a root child's view kept after the block, read for its result
            self._order.append(entry)  # a parent is listed before its children
        if kind.__class__ is _EditKind:
            view: Any = _new(kind.edit)
            kind.attach(view, entry)
            return view
        return self._copy_container(entry, kind)

    def _claim_root_child(self, value: Any, key: str) -> Any:
        """`claim` for a field of the root, whose node children become views as the block is
        entered (before anyone reads them). Their records wait for first use: a view holds
        only the stub `(block, original, field name)` until then (see `_promote`), as most of
        the root's children are never touched."""
        kind = _KINDS.get(type(value))
        if kind.__class__ is _EditKind and type(value) is kind.cls:
            view: Any = _new(kind.edit)
            kind.attach(view, (self, value, key))
            return view
        return self.claim(value, key)

    def _copy_container(self, entry: _Entry, kind: Any) -> Any:
        """A list or dict is copied, its items claimed; a tuple only if it holds nodes."""
        value = entry.src
        if self._containers is _EMPTY:
            self._containers = {}
        copy: Any
        if kind is list or kind is dict:
            copy = entry.copy = kind(value)
            self._containers[id(copy)] = entry
            for k, v in enumerate(value) if kind is list else value.items():
                copy[k] = self.claim(v, k, entry)
            return copy
        slot = len(self._order) - 1
        items = [self.claim(v, i, entry) for i, v in enumerate(value)]
        if _same(items, value):
            del self._order[slot:]
            return value  # nothing inside can be edited: share it
        tp = type(value)
        copy = entry.copy = tuple(items) if tp is tuple else tp(*items)
        self._containers[id(copy)] = entry
        return copy

    def _final(self, value: Any) -> Any:
        """The result standing for a value read from a copy at exit."""
        tp = type(value)
        if tp in _SHARED_TYPES:
            return value
        kind = _KINDS.get(tp)
        if kind is None:
            return value
        if kind.__class__ is _EditKind:
            if tp is kind.edit:  # a view of this block, or kept from one that has ended
                entry = kind.record_of(value)
                if entry.__class__ is tuple:  # a root child's view that was never used
                    block, final, _ = entry
                else:
                    block, final = entry.block, entry.final
                if block is not self and block.open:
                    raise _nested_error(kind.cls)
                return final
            # A plain instance assigned by the user, maybe built from views (e.g. by
            # `replace(new.a, ...)`): rebuild it around their results.
            data = kind.read_data(value)
            mapped = [self._final(v) for v in data]
            if _same(mapped, data):
                return value
            return kind.unflatten(kind.read_static(value), tuple(mapped))
        entry = self._containers.get(id(value))
        if entry is not None:
            return entry.final
        if tp is dict:  # built by the user, maybe from views
            mapped = {k: self._final(v) for k, v in value.items()}
            return value if _same(mapped.values(), value.values()) else mapped
        items = [self._final(v) for v in value]
        if _same(items, value):
            return value
        return tp(items) if tp is list or tp is tuple else tp(*items)

    def _finish_copies(self, validate: bool) -> None:
        """Work out each copy's result, children before parents, comparing what changed
        with `obj` if `validate`. A view nothing was assigned to (directly or below it)
        keeps its original as its result; a new result read from a view's field is pushed
        to that view, so finishing it needs no lookups for the fields merely read."""
        for entry in reversed(self._order):
            if entry.copy is not None:
                final = self._finish_container(entry, validate)
            elif entry.assigned is not None:
                final = self._finish_view(entry, validate)
            elif entry.pushed is not None:  # only results pushed: nothing to compare
                final = _KINDS[type(entry.src)].apply(entry.src, entry.pushed)
            else:
                continue
            entry.final = final
            parent = entry.parent
            if final is entry.src:
                continue
            if parent is None:
                if self._pushed is _EMPTY:
                    self._pushed = {}
                self._pushed[entry.key] = final
            elif parent.copy is None:
                if parent.pushed is None:
                    parent.pushed = {}
                parent.pushed[entry.key] = final

    def _finish_view(self, entry: _Entry, validate: bool) -> Any:
        """A view's result: its original with the fields whose results differ from it
        replaced, built by the generated `apply`; the original itself if none differ."""
        src = entry.src
        kind = _KINDS[type(src)]
        changed = entry.pushed or {}  # copies read here compared themselves
        for name, value in (entry.assigned or _EMPTY).items():  # assignments win
            old = getattr(src, name)
            if name in kind.static_names:
                if validate:
                    self._compare_static(entry, kind, name, value, old)
                changed[name] = value
                continue
            new = value if type(value) in _SHARED_TYPES else self._final(value)
            if new is old:  # a value put back
                changed.pop(name, None)
                continue
            if validate and not _same_aval(new, old):
                self._compare(entry, name, value, new, old)
            changed[name] = new
        return kind.apply(src, changed) if changed else src

    def _finish_container(self, entry: _Entry, validate: bool) -> Any:
        """A copied list's, dict's or tuple's result: the copy holding its items' results,
        or the original if the items are the same ones."""
        src, copy = entry.src, entry.copy
        if type(copy) is not list and type(copy) is not dict:  # a tuple (nothing to compare)
            items = [self._final(v) for v in copy]
            if _same(items, src):
                return src
            return tuple(items) if type(src) is tuple else type(src)(*items)
        is_dict = type(copy) is dict
        if validate and (list(copy) != list(src) if is_dict else len(copy) != len(src)):
            what = (
                f"dict keys changed from {list(src)} to {list(copy)}"
                if is_dict
                else f"list length changed from {len(src)} to {len(copy)}"
            )
            self._problems += ((entry, "", what),)
            validate = False
        for k, value in list(copy.items() if is_dict else enumerate(copy)):
            new = copy[k] = self._final(value)
            if validate:
                self._compare(entry, (k,), value, new, src[k])
        if is_dict:
            same = list(copy) == list(src) and _same(copy.values(), src.values())
        else:
            same = len(copy) == len(src) and _same(copy, src)
        return src if same else copy

    def _compare(self, where: _Entry | None, key: Any, value: Any, new: Any, old: Any) -> None:
        """Record a problem if `new` (the result of `value`, found at `where.key`, or at
        `where[key]` for a 1-tuple key) cannot stand in for `old`. A copy of `old` made by
        this block compares itself."""
        if new is old:
            return
        tp = type(new)
        if tp is type(old) and tp in _ARRAY_TYPES:
            if _same_aval(new, old) or (new.shape == old.shape and new.dtype == old.dtype):
                return
        else:
            kind = _KINDS.get(type(value))
            if kind.__class__ is _EditKind and type(value) is kind.edit:
                view = _record(value)
                if view.block is self and view.src is old:
                    return
            elif (entry := self._containers.get(id(value))) is not None and entry.src is old:
                return
        problem = _mismatch(new, old)
        if problem is not None:
            if type(key) is tuple:  # an item of a copied list/dict
                self._problems += ((where, f"[{key[0]!r}]{problem[0]}", problem[1]),)
                return
            owner = class_name(type(where.src if where is not None else self._obj))
            self._problems += (
                (where, f".{key}{problem[0]}", f"field '{key}' of class '{owner}': {problem[1]}"),
            )

    def _compare_static(
        self, where: _Entry | None, kind: _EditKind, name: str, new: Any, old: Any
    ) -> None:
        if new is not old and new != old:
            self._problems += (
                (
                    where,
                    f".{name}",
                    f"static field '{name}' of class "
                    f"'{class_name(kind.cls)}' changed from {old!r} to {new!r}, "
                    f"which changes the tree structure",
                ),
            )

    def _path(self, entry: _Entry | None) -> str | None:
        """`new.a[0].b` for a copy that is part of the result, else None."""
        parts = []
        while entry is not None and entry.key is not None:
            holder = entry.parent.final if entry.parent is not None else self._root
            if isinstance(holder, (list, tuple, dict)):
                try:
                    found = holder[entry.key]
                except LookupError:
                    return None
                parts.append(f"[{entry.key!r}]")
            else:
                found = getattr(holder, entry.key)
                parts.append(f".{entry.key}")
            if found is not entry.final:
                return None
            entry = entry.parent
        return "new" + "".join(reversed(parts))


def _record(view: Any) -> _Entry:
    """A view's record, made on first use for a root child's view (see `_promote`)."""
    entry = _KINDS[type(view)].record_of(view)
    return _promote(view, entry) if entry.__class__ is tuple else entry


def _promote(view: Any, stub: tuple[CopyAndMutate, Any, str]) -> _Entry:
    """The record replacing the stub `(block, original, field name)` of a root child's view:
    that of a view claimed for the same place, which is then dropped."""
    block, src, key = stub
    kind = _KINDS[type(view)]
    entry = kind.record_of(block.claim(src, key))
    kind.attach(view, entry)
    return entry


def _nested_error(cls: type) -> TypeError:
    return TypeError(
        f"copy_and_mutate() met a '{class_name(cls)}' taken from another copy_and_mutate block "
        f"that is still open. Fix: edit it through that block's copy directly; it is already "
        f"editable there."
    )


def _same(a: Any, b: Any) -> bool:
    return all(x is y for x, y in zip(a, b))


class _EditKind:
    """How to copy, view and rebuild the instances of one jaxdc class."""

    __slots__ = (
        "apply",
        "attach",
        "cls",
        "copy",
        "data",
        "data_index",
        "edit",
        "flat",
        "read_data",
        "read_static",
        "record_of",
        "reseal",
        "reseat",
        "static",
        "static_names",
        "unflatten",
    )

    def __init__(self, spec: ClassSpec) -> None:
        self.cls = spec.cls
        self.data, self.static = spec.data, spec.static  # names, in flatten order
        self.data_index = {n: i for i, n in enumerate(spec.data)}
        self.static_names = frozenset(spec.static)
        self.read_data, self.read_static = _reader(spec.data), _reader(spec.static)
        self.flat = attrgetter(CACHE_ATTR) if spec.cached else self._read_flat
        self.edit = _make_edit_class(spec)
        # A view's record lives in a slot of the view; its descriptor's own get/set skip the
        # view's __getattribute__/__setattr__ and cost less than object.__getattribute__.
        slot = self.edit.__dict__[_ENTRY_SLOT]
        self.record_of, self.attach = slot.__get__, slot.__set__
        self.copy = make_copy_mapped(spec)
        self.reseal = make_reseal(spec)
        self.reseat = make_reseat(spec) if spec.cached else None
        self.unflatten = make_unflatten(spec)
        self.apply = make_apply(spec)

    def _read_flat(self, obj: Any) -> tuple[tuple[Any, ...], tuple[Any, ...]]:
        """(data, statics) of an instance of a class without the flatten cache (slots)."""
        return self.read_data(obj), self.read_static(obj)


def _reader(names: tuple[str, ...]) -> Any:
    """Read several attributes (C code) as one tuple."""
    if not names:
        return lambda obj: ()
    get = attrgetter(*names)
    return get if len(names) > 1 else lambda obj: (get(obj),)


# type -> how its values are copied: an _EditKind for jaxdc classes (and their view
# classes), list/dict/tuple for containers, _SHARED for everything else (never copied,
# e.g. arrays). One entry per type ever met in an edited field: a handful.
_SHARED = object()
_KINDS: dict[type, Any] = {list: list, dict: dict, tuple: tuple}
_SHARED_TYPES: set[type] = set()  # the types whose kind is _SHARED: the common leaf test


def _kind_of(tp: type) -> Any:
    kind = _KINDS.get(tp)
    if kind is not None:
        return kind
    spec = tp.__dict__.get(SPEC_ATTR)
    if isinstance(spec, ClassSpec):
        kind = _KINDS.get(spec.cls) or _EditKind(spec)
        _KINDS[spec.cls] = _KINDS[kind.edit] = kind
    elif issubclass(tp, tuple) and hasattr(tp, "_fields"):  # namedtuple
        kind = _KINDS[tp] = tuple
    else:
        kind = _KINDS[tp] = _SHARED
        _SHARED_TYPES.add(tp)
    return kind


def _make_edit_class(spec: ClassSpec) -> type:
    """The hidden subclass of `spec.cls` that editing views are instances of."""
    cls = spec.cls
    lazy = frozenset(spec.data)
    fields = lazy | frozenset(spec.static)

    def __getattribute__(self: Any, name: str) -> Any:
        if name not in fields:
            return _object_getattribute(self, name)
        entry = record_of(self)
        if entry.__class__ is tuple:
            entry = _promote(self, entry)
        block = entry.block
        if not block.open:
            return getattr(entry.final, name)
        changes = entry.changes
        value = _NONE if changes is _EMPTY else changes.get(name, _NONE)
        if value is _NONE:
            value = getattr(entry.src, name)
            if name in lazy and type(value) not in _SHARED_TYPES:
                claimed = block.claim(value, name, entry)
                if claimed is not value:
                    if entry.changes is _EMPTY:
                        entry.changes = {}
                    entry.changes[name] = value = claimed
        return value

    def __setattr__(self: Any, name: str, value: Any) -> None:
        entry = record_of(self)
        if entry.__class__ is tuple:
            entry = _promote(self, entry)
        if not entry.block.open:
            raise dataclasses.FrozenInstanceError(
                f"cannot assign to field '{name}' of '{class_name(cls)}': this object was "
                f"read inside a copy_and_mutate block that has ended, so it is frozen. Fix: "
                f"assign inside the block."
            )
        if name not in fields:
            raise AttributeError(
                f"cannot assign '{name}' in copy_and_mutate: class '{class_name(cls)}' has no "
                f"pytree field '{name}' (fields: {', '.join(f.name for f in spec.fields)}; "
                f"fields left out of the pytree keep their defaults)."
            )
        if entry.assigned is None:
            entry.assigned = {}
            if entry.changes is _EMPTY:
                entry.changes = {}
        entry.changes[name] = entry.assigned[name] = value

    def _jaxdc_flat_(self: Any) -> tuple[tuple[Any, ...], tuple[Any, ...]]:
        """The flatten cache, computed: what `replace(view, ...)` reads."""
        return tuple(getattr(self, n) for n in spec.data), tuple(
            getattr(self, n) for n in spec.static
        )

    def __new__(edit: type, *args: Any, **kwargs: Any) -> Any:
        """`type(view)(...)` (as `dataclasses.replace(view)` calls it) builds a plain instance."""
        return cls(*args, **kwargs)

    def __reduce__(self: Any) -> Any:  # copy/pickle a view as the plain instance it stands for
        return cls.__jaxdc_replace__(self, {}).__reduce__()  # type: ignore[attr-defined]

    namespace = {
        "__slots__": (_ENTRY_SLOT,),
        "__new__": __new__,
        "__reduce__": __reduce__,
        CACHE_ATTR: property(_jaxdc_flat_),
        "__module__": cls.__module__,
        "__qualname__": cls.__qualname__,
        "__getattribute__": __getattribute__,
        "__setattr__": __setattr__,
        # Creating a subclass runs the `__init_subclass__` hooks of jaxdc classes: an own
        # spec makes `process()` (for PyTreeNode subclasses) treat the class as done. The
        # undecorated-subclass guard `__init__` it also gets is never called: views are
        # made with `object.__new__`, and `__new__` above returns plain instances.
        SPEC_ATTR: spec,
    }
    edit = type(cls)(cls.__name__, (cls,), namespace)
    record_of = edit.__dict__[_ENTRY_SLOT].__get__
    data, static = spec.data, spec.static
    keys = tuple(GetAttrKey(n) for n in data)

    def flatten_with_keys(obj: Any) -> tuple[Any, Any]:
        children = tuple((k, getattr(obj, n)) for k, n in zip(keys, data))
        return children, tuple(getattr(obj, n) for n in static)

    def flatten(obj: Any) -> tuple[Any, Any]:
        return tuple(getattr(obj, n) for n in data), tuple(getattr(obj, n) for n in static)

    # So jax.tree.map & co. work on views; unflattening gives the user's class.
    jax.tree_util.register_pytree_with_keys(edit, flatten_with_keys, make_unflatten(spec), flatten)
    return edit


_ARRAYS = (jax.Array, np.ndarray, np.generic)
# Concrete array types met so far: an exact-type test is cheaper than `isinstance`. For
# jax arrays `.shape`/`.dtype` are Python properties reading `.aval`: compare that first.
_ARRAY_TYPES: set[type] = set()
_JAX_ARRAY_TYPES: set[type] = set()


def _same_aval(new: Any, old: Any) -> bool:
    """Two jax arrays of one type with the same aval: jax interns avals, so this is the
    common no-change case of validation, cheaper than comparing `.shape` and `.dtype`
    (Python properties reading `.aval`)."""
    return type(new) is type(old) and type(new) in _JAX_ARRAY_TYPES and new.aval is old.aval


def _mismatch(new: Any, old: Any) -> tuple[str, str] | None:
    """(key path inside the value, what changed) if `new` cannot stand in for `old`."""
    if isinstance(new, _ARRAYS) and isinstance(old, _ARRAYS):
        for x in (new, old):
            _ARRAY_TYPES.add(type(x))
            if isinstance(x, jax.Array) and hasattr(x, "aval"):
                _JAX_ARRAY_TYPES.add(type(x))
        if new.shape == old.shape and new.dtype == old.dtype:
            return None
        return "", _leaf_change(new, old)
    new_leaves, new_def = jax.tree_util.tree_flatten_with_path(new)
    old_leaves, old_def = jax.tree_util.tree_flatten_with_path(old)
    if new_def != old_def:
        return "", f"tree structure changed from {old_def} to {new_def}"
    for (key, a), (_, b) in zip(new_leaves, old_leaves):
        if np.shape(a) != np.shape(b) or jax.dtypes.result_type(a) != jax.dtypes.result_type(b):
            return jax.tree_util.keystr(key), _leaf_change(a, b)
    return None


def _leaf_change(new: Any, old: Any) -> str:
    what = "shape" if np.shape(new) != np.shape(old) else "dtype"
    return f"{what} changed from {_summary(old)} to {_summary(new)}"


def _summary(x: Any) -> str:
    return array_summary(x) if hasattr(x, "dtype") else f"{type(x).__name__} {x!r}"
