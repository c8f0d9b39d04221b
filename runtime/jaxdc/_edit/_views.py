"""What a block knows about each type, the editing views, and the records of its copies.

- `Ops` and the registry `OPS`: for every type met in an edited field, how its values are
  treated: copied as a view (`NodeOps`, one per jaxdc class), copied as a container
  (`LIST`, `DICT`, `TUPLE`), or shared (`LEAF`). Looked up by exact type, so the hot paths
  pay one dict lookup and an identity test.
- `ViewRecord` / `ContainerRecord`: what a block keeps per copy (see `_block`).
- `Stub`: what a view of a root child holds until first used (most never are).
- `make_view_class`: the hidden subclass of a jaxdc class whose instances are the views.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from operator import attrgetter
from typing import TYPE_CHECKING, Any, final

import jax
from _jaxdc_rules import messages
from jax.tree_util import GetAttrKey

from jaxdc._codegen import make_apply, make_copy_mapped, make_reseal, make_reseat, make_unflatten
from jaxdc._display import class_name
from jaxdc._frozen import descriptor_setter
from jaxdc._spec import CACHE_ATTR, SPEC_ATTR, ClassSpec
from jaxdc._subclass import hidden_subclass

if TYPE_CHECKING:
    from jaxdc._edit._block import CopyAndMutate

__all__ = [
    "DICT",
    "LEAF",
    "LEAF_TYPES",
    "LIST",
    "OPS",
    "TUPLE",
    "ContainerRecord",
    "NodeOps",
    "Ops",
    "Stub",
    "ViewRecord",
    "nested_error",
    "ops_of",
    "record_of_view",
]

_new = object.__new__
_object_getattribute = object.__getattribute__
_object_setattr = object.__setattr__
# "no value here" in the dict lookups of a view's field read (None is a valid value)
_ABSENT = object()
_RECORD_SLOT = "_jaxdc_edit_"


class _Record:
    """What a block keeps of one copy it made: the original, where it was found (for
    error paths and for pushing results up), and its result: the original until resolving
    the block makes a new one, so untouched copies need no work at exit."""

    __slots__ = ("block", "key", "parent", "result", "src")
    block: CopyAndMutate
    src: Any  # the original
    result: Any  # what the copy stands for once the block has ended
    parent: Record | None  # the copy it was read from (None: the root, or a root field)
    key: Any  # its field name in `parent` (or in the root), or its index/key in a container


@final
class ViewRecord(_Record):
    """The record of a view (a copy of a jaxdc instance). Its dicts are None until first
    written, since most views are only read through: `changes` is what reads of the view
    return (the fields assigned, and the copies made of node fields read), `assigned` the
    fields assigned (a subset of `changes`), `pushed` the new results of the copies read
    from its fields."""

    __slots__ = ("assigned", "changes", "pushed")
    changes: dict[str, Any] | None
    assigned: dict[str, Any] | None
    pushed: dict[str, Any] | None


@final
class ContainerRecord(_Record):
    """The record of a copied list, dict or tuple: `copy` is the copy the block handed out."""

    __slots__ = ("copy",)
    copy: Any


Record = ViewRecord | ContainerRecord


@final
class Stub:
    """Held by the view of a root field until the view is first used: enough to make its
    record then (`record_of_view`), and to know its result if it never is."""

    __slots__ = ("block", "key", "src")
    block: CopyAndMutate
    src: Any  # the root's original's field value
    key: str  # the field's name


class Ops:
    """How a block treats the values of one type (the registry `OPS` maps types to these)."""

    __slots__ = ()


class _ContainerOps(Ops):
    """A list or dict (copied, items claimed) or a tuple (re-built only if it holds nodes)."""

    __slots__ = ("name",)

    def __init__(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return f"<copy_and_mutate ops: {self.name}>"


class _LeafOps(Ops):
    """Never copied: arrays, scalars, and pytrees that are not jaxdc classes."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "<copy_and_mutate ops: leaf>"


LIST, DICT, TUPLE = _ContainerOps("list"), _ContainerOps("dict"), _ContainerOps("tuple")
LEAF = _LeafOps()


class NodeOps(Ops):
    """How to copy, view and rebuild the instances of one jaxdc class (generated code,
    made once per class on first use in a block)."""

    __slots__ = (
        "apply",
        "attach",
        "cached",
        "cls",
        "copy",
        "data",
        "data_index",
        "flat",
        "read_data",
        "read_static",
        "record_of",
        "reseal",
        "reseat",
        "static",
        "static_names",
        "unflatten",
        "view_cls",
    )
    cls: type
    view_cls: type
    # A view's slot: its record, or a `Stub` (read it through `record_of_view`).
    record_of: Callable[[Any], ViewRecord | Stub]
    attach: Callable[[Any, ViewRecord | Stub], None]

    def __init__(self, spec: ClassSpec) -> None:
        self.cls = spec.cls
        self.cached = spec.cached
        self.data, self.static = spec.data, spec.static  # names, in flatten order
        self.data_index = {n: i for i, n in enumerate(spec.data)}
        self.static_names = frozenset(spec.static)
        self.read_data, self.read_static = _reader(spec.data), _reader(spec.static)
        self.flat = attrgetter(CACHE_ATTR) if spec.cached else self._read_flat
        self.view_cls = make_view_class(spec, self)
        # The slot's descriptor: its own get/set skip the view's __getattribute__ and
        # __setattr__, and cost less than object.__getattribute__.
        slot = self.view_cls.__dict__[_RECORD_SLOT]
        self.record_of, self.attach = slot.__get__, slot.__set__
        self.copy = make_copy_mapped(spec)
        self.reseal = make_reseal(spec)
        self.reseat = make_reseat(spec) if spec.cached else None
        self.unflatten = make_unflatten(spec)
        self.apply = make_apply(spec)

    def _read_flat(self, obj: Any) -> tuple[tuple[Any, ...], tuple[Any, ...]]:
        """(data, statics) of an instance of a class without the flatten cache (slots)."""
        return self.read_data(obj), self.read_static(obj)

    def restore(self, copy: Any, original: Any) -> None:
        """Point every pytree field of `copy` (and its flatten cache) back at `original`'s
        values: how a failed block leaves the object it yielded."""
        for name in (*self.data, *self.static):
            _object_setattr(copy, name, getattr(original, name))
        if self.cached:
            _object_setattr(copy, CACHE_ATTR, getattr(original, CACHE_ATTR))

    def __repr__(self) -> str:
        return f"<copy_and_mutate ops: {class_name(self.cls)}>"


def _reader(names: tuple[str, ...]) -> Callable[[Any], tuple[Any, ...]]:
    """Read several attributes (C code) as one tuple."""
    if not names:
        return lambda obj: ()
    get = attrgetter(*names)
    return get if len(names) > 1 else lambda obj: (get(obj),)


# type -> its Ops. A jaxdc class and its view class share one NodeOps; a namedtuple is a
# TUPLE; every other type is a LEAF, and is also put in LEAF_TYPES (the common leaf test,
# a set lookup). Entries are added on first sight and never change: a handful per program.
OPS: dict[type, Ops] = {list: LIST, dict: DICT, tuple: TUPLE}
LEAF_TYPES: set[type] = set()


def ops_of(tp: type) -> Ops:
    """The Ops of `tp`, registered on first sight (callers try `OPS.get(tp)` first)."""
    ops = OPS.get(tp)
    if ops is not None:
        return ops
    spec = tp.__dict__.get(SPEC_ATTR)
    if isinstance(spec, ClassSpec):
        ops = OPS.get(spec.cls) or NodeOps(spec)
        assert type(ops) is NodeOps
        OPS[spec.cls] = OPS[ops.view_cls] = ops
    elif issubclass(tp, tuple) and hasattr(tp, "_fields"):  # namedtuple
        ops = OPS[tp] = TUPLE
    else:
        ops = OPS[tp] = LEAF
        LEAF_TYPES.add(tp)
    return ops


def record_of_view(view: Any) -> ViewRecord:
    """A view's record; a root field's view still holding its stub gets it now: the record
    of a view claimed for the same place (that view itself is dropped)."""
    ops: NodeOps = OPS[type(view)]  # type: ignore[assignment]  # a view class's ops
    record = ops.record_of(view)
    return _promote(view, ops, record) if type(record) is Stub else record


def _promote(view: Any, ops: NodeOps, stub: Stub) -> ViewRecord:
    record = ops.record_of(stub.block.claim(stub.src, stub.key))  # a fresh view's record
    ops.attach(view, record)
    return record  # type: ignore[return-value]


def nested_error(cls: type) -> TypeError:
    return TypeError(messages.edit_other_open_block(class_name(cls)))


def _field_property(
    name: str, getter: Callable[[Any, str], Any], setter: Callable[[Any, str, Any], None]
) -> property:
    return property(lambda view: getter(view, name), lambda view, value: setter(view, name, value))


def make_view_class(spec: ClassSpec, ops: NodeOps) -> type:
    """The hidden subclass of `spec.cls` that editing views are instances of: same name,
    module and spec; field reads and writes go through the view's record."""
    cls = spec.cls
    lazy = frozenset(spec.data)
    fields = lazy | frozenset(spec.static)

    def __getattribute__(self: Any, name: str) -> Any:
        if name not in fields:
            return _object_getattribute(self, name)
        record = record_of(self)
        if type(record) is Stub:
            record = _promote(self, ops, record)
        block = record.block
        if not block.open:
            return getattr(record.result, name)
        changes = record.changes
        value = _ABSENT if changes is None else changes.get(name, _ABSENT)
        if value is _ABSENT:
            value = getattr(record.src, name)
            if name in lazy and type(value) not in LEAF_TYPES:
                claimed = block.claim(value, name, record)
                if claimed is not value:
                    if record.changes is None:
                        record.changes = {name: claimed}
                    else:
                        record.changes[name] = claimed
                    value = claimed
        return value

    def __setattr__(self: Any, name: str, value: Any) -> None:
        record = record_of(self)
        if type(record) is Stub:
            record = _promote(self, ops, record)
        if not record.block.open:
            raise dataclasses.FrozenInstanceError(messages.edit_after_block(name, class_name(cls)))
        if name not in fields:  # a property of the class (its setter assigns fields), or an error
            descriptor_setter(cls, name, spec)(self, value)
            return
        if record.assigned is not None:
            record.changes[name] = record.assigned[name] = value  # type: ignore[index]
        else:  # `assigned` allocated implies `changes` allocated
            record.assigned = {name: value}
            if record.changes is None:
                record.changes = {name: value}
            else:
                record.changes[name] = value

    def _jaxdc_flat_(self: Any) -> tuple[tuple[Any, ...], tuple[Any, ...]]:
        """The flatten cache, computed: what `replace(view, ...)` reads."""
        return tuple(getattr(self, n) for n in spec.data), spec.metadata(
            getattr(self, n) for n in spec.static
        )

    def __reduce__(self: Any) -> Any:  # copy/pickle a view as the plain instance it stands for
        return cls.__jaxdc_replace__(self, {}).__reduce__()  # type: ignore[attr-defined]

    namespace = {
        "__slots__": (_RECORD_SLOT,),
        "__reduce__": __reduce__,
        # What a user sees of a view: its class (`dataclasses.replace(view)` and
        # `self.__class__(...)` in methods build the user's class); `type()` alone shows the
        # hidden subclass, which has the same name, module and docstring.
        "__class__": property(lambda self: cls),
        "__doc__": cls.__doc__,
        CACHE_ATTR: property(_jaxdc_flat_),
        "__module__": cls.__module__,
        "__qualname__": cls.__qualname__,
        "__getattribute__": __getattribute__,
        "__setattr__": __setattr__,
        SPEC_ATTR: spec,
        # Each field is also a data descriptor of the view class, so a write that skips
        # `__setattr__` (`object.__setattr__(self, "w", v)` in a property's setter or a
        # method of the user's class) is an edit too, never a value lost in the view.
        **{name: _field_property(name, __getattribute__, __setattr__) for name in fields},
    }
    view_cls = hidden_subclass(cls, namespace)  # calling it constructs `cls`
    record_of: Callable[[Any], ViewRecord | Stub] = view_cls.__dict__[_RECORD_SLOT].__get__
    data, static, metadata = spec.data, spec.static, spec.metadata
    keys = tuple(GetAttrKey(n) for n in data)

    def flatten_with_keys(obj: Any) -> tuple[Any, Any]:
        children = tuple((k, getattr(obj, n)) for k, n in zip(keys, data, strict=True))
        return children, metadata(getattr(obj, n) for n in static)

    def flatten(obj: Any) -> tuple[Any, Any]:
        return tuple(getattr(obj, n) for n in data), metadata(getattr(obj, n) for n in static)

    # So jax.tree.map & co. work on views; unflattening gives the user's class.
    jax.tree_util.register_pytree_with_keys(
        view_cls, flatten_with_keys, make_unflatten(spec), flatten
    )
    return view_cls
