"""`CopyAndMutate`: one `with copy_and_mutate(obj) as new:` block, from entering to exit.

Its three steps, in the order a block runs them:
- enter: copy the root (views for its node fields, stubs until used);
- claim: copy on access, as the user reads node fields (`claim`, called by the views);
- exit: resolve every copy's result, children before parents, then the root's, comparing
  what changed with `obj` if `validate` (see `_validate`); on any failure, discard every
  edit (`_discard_edits`).
The invariants this relies on are listed in the package README (`jaxdc/_edit/README.md`).
"""

from __future__ import annotations

from typing import Any

from _jaxdc_rules import messages

from jaxdc._display import given, wrong_kind
from jaxdc._edit._validate import (
    Problem,
    field_problem,
    is_array,
    mismatch,
    path_of,
    same_aval,
    static_problem,
    validation_error,
)
from jaxdc._edit._views import (
    DICT,
    LEAF,
    LEAF_TYPES,
    LIST,
    OPS,
    TUPLE,
    ContainerRecord,
    NodeOps,
    Ops,
    Record,
    Stub,
    ViewRecord,
    nested_error,
    ops_of,
    record_of_view,
)
from jaxdc._frozen import EDITING
from jaxdc._shapes import check_instance, shape_checks_in_use
from jaxdc._spec import spec_of
from jaxdc._tracebacks import drop_internal_frames

__all__ = ["CopyAndMutate"]

_new = object.__new__
_object_setattr = object.__setattr__
_NOT_ENTERED = object()  # the root before `__enter__`
# Methods of imported objects, bound once: CPython 3.11 compiles `NAME.method(...)` to a
# slower plain attribute load (no method-call fast path) when NAME was bound by an import.
_ops_get = OPS.get
_editing_add, _editing_discard = EDITING.add, EDITING.discard


class CopyAndMutate:
    """One `with copy_and_mutate(...)` block: owns every copy made through it."""

    open: bool  # between enter and exit: views read and record only while it is set

    __slots__ = (
        "_containers",
        "_entered",
        "_obj",
        "_ops",
        "_order",
        "_problems",
        "_pushed",
        "_root",
        "_validate",
        "open",
    )

    def __init__(self, obj: Any, validate: bool) -> None:
        ops = _ops_get(type(obj)) or ops_of(type(obj))
        if type(ops) is NodeOps and type(obj) is ops.view_cls:
            owner = record_of_view(obj)
            if owner.block.open:
                raise nested_error(ops.cls)
            obj = owner.result  # kept from a block that has ended: its result
        if ops is LEAF or ops is TUPLE:
            fix = messages.EDIT_TUPLE_FIX if ops is TUPLE else messages.EDIT_OTHER_FIX
            if isinstance(obj, type):  # a class, not an instance: `wrong_kind` says so
                fix = ""
            raise TypeError(wrong_kind("copy_and_mutate", messages.EDIT_NEEDS, obj, fix))
        if validate is not True and validate is not False:
            raise TypeError(
                messages.wrong_keyword(
                    "copy_and_mutate", "validate", "True or False", given(validate)
                )
            )
        self._obj = obj
        self._ops = ops
        self._validate = validate
        self._order: list[Record] = []  # every copy's record, parents before their children
        self._containers: dict[int, ContainerRecord] | None = None  # id(copy) -> its record
        self._root: Any = _NOT_ENTERED
        self._entered: tuple[Any, ...] = ()  # the root's data fields as the block was entered
        self._pushed: dict[str, Any] | None = None  # new results of copies read from root fields
        self._problems: list[Problem] | None = None
        self.open = False

    def __enter__(self) -> Any:
        if self._root is not _NOT_ENTERED:
            raise RuntimeError(messages.EDIT_ENTERED_TWICE)
        self.open = True
        ops = self._ops
        if type(ops) is NodeOps:
            # The root is a plain instance (it becomes the result, and a user class never gets
            # a __getattribute__), so its node children are views from the start; it has a
            # flatten cache for JAX calls and replace() inside the block.
            root = self._root = ops.copy(self._obj, self._claim_root_field, LEAF_TYPES)
            self._entered = ops.flat(root)[0]
            _editing_add(id(root))  # assignments keep that cache up to date
        else:
            self._root = self.claim(self._obj, None)
        return self._root

    def __exit__(self, exc_type: Any, exc: Any, tb: Any) -> None:
        self.open = False
        _editing_discard(id(self._root))
        validate = self._validate and exc_type is None
        try:
            try:
                if self._order:
                    self._resolve_copies(validate)
                if type(self._ops) is NodeOps:
                    self._resolve_root(validate)
                if self._problems is not None:
                    self._raise_first_problem()
                if validate and shape_checks_in_use():  # the nodes this block made anew
                    for record in self._order:
                        if record.result is not record.src:
                            check_instance(record.result)
                    check_instance(self._root)
            except BaseException as error:
                self._discard_edits()
                drop_internal_frames(error)  # it points at the user's `with` line
                raise
        finally:  # drop the block <-> record cycles: no work left for the GC
            self._order.clear()
            self._containers = None

    # -- claim: copy on access -----------------------------------------------------------

    def claim(self, value: Any, key: Any, parent: Record | None = None) -> Any:
        """`value` itself if it is a leaf or already this block's copy, else a copy of it
        (a view for a jaxdc instance), recorded as found at `parent.key` / `parent[key]`."""
        tp = type(value)
        ops = _ops_get(tp) or ops_of(tp)
        if ops is LEAF:
            return value
        if type(ops) is NodeOps:
            if tp is ops.view_cls:
                owner = record_of_view(value)
                if owner.block is self:
                    return value
                if owner.block.open:
                    raise nested_error(ops.cls)
                return self.claim(owner.result, key, parent)  # kept from an ended block
            # Plain slot writes: an `__init__` call would cost twice as much.
            view_record = _new(ViewRecord)
            view_record.block = self
            view_record.src = view_record.result = value
            view_record.parent = parent
            view_record.key = key
            view_record.changes = view_record.assigned = view_record.pushed = None
            if self.open:  # else a stub's record of an ended block, read for its result
                self._order.append(view_record)
            view: Any = _new(ops.view_cls)
            ops.attach(view, view_record)
            return view
        containers = self._containers
        if containers is not None and id(value) in containers:
            return value
        record = _new(ContainerRecord)
        record.block = self
        record.src = record.result = value
        record.parent = parent
        record.key = key
        record.copy = None
        self._order.append(record)  # containers are claimed only while the block is open
        return self._copy_container(record, ops)

    def _claim_root_field(self, value: Any, key: str) -> Any:
        """`claim` for a field of the root, whose node children become views as the block is
        entered (before anyone reads them). Their records wait for first use: a view holds
        only a `Stub` until then, as most of the root's children are never touched."""
        ops = _ops_get(type(value))
        if type(ops) is NodeOps and type(value) is ops.cls:
            stub = _new(Stub)  # plain slot writes: cheaper than an `__init__` call
            stub.block = self
            stub.src = value
            stub.key = key
            view: Any = _new(ops.view_cls)
            ops.attach(view, stub)
            return view
        return self.claim(value, key)

    def _copy_container(self, record: ContainerRecord, ops: Ops) -> Any:
        """A list or dict is copied, its items claimed; a tuple only if it holds nodes."""
        value = record.src
        if self._containers is None:
            self._containers = {}
        copy: Any
        if ops is LIST or ops is DICT:
            copy = record.copy = list(value) if ops is LIST else dict(value)
            self._containers[id(copy)] = record
            for k, v in enumerate(value) if ops is LIST else value.items():
                copy[k] = self.claim(v, k, record)
            return copy
        slot = len(self._order) - 1  # this record; its items' records follow it
        items = [self.claim(v, i, record) for i, v in enumerate(value)]
        if _same(items, value):
            del self._order[slot:]
            return value  # nothing inside can be edited: share it
        tp = type(value)
        copy = record.copy = tuple(items) if tp is tuple else tp(*items)
        self._containers[id(copy)] = record
        return copy

    # -- exit: resolve every copy's result, children before parents ----------------------

    def _resolve_copies(self, validate: bool) -> None:
        """Work out each copy's result, children before parents, comparing what changed
        with `obj` if `validate`. A view nothing was assigned to (directly or below it)
        keeps its original as its result; a new result read from a view's field is pushed
        to that view, so resolving it needs no lookups for the fields merely read."""
        for record in reversed(self._order):
            if type(record) is ContainerRecord:
                result = self._resolve_container(record, validate)
            elif record.assigned is not None:
                result = self._resolve_view(record, validate)
            elif record.pushed is not None:  # only results pushed: nothing to compare
                ops: NodeOps = OPS[type(record.src)]  # type: ignore[assignment]  # a view's
                result = ops.apply(record.src, record.pushed)
            else:
                continue
            record.result = result
            if result is record.src:
                continue
            parent = record.parent
            if parent is None:  # a root field's copy
                if self._pushed is None:
                    self._pushed = {record.key: result}
                else:
                    self._pushed[record.key] = result
            elif type(parent) is ViewRecord:
                if parent.pushed is None:
                    parent.pushed = {record.key: result}
                else:
                    parent.pushed[record.key] = result

    def _resolve_view(self, record: ViewRecord, validate: bool) -> Any:
        """A view's result: its original with the fields whose results differ from it
        replaced, built by the generated `apply`; the original itself if none differ."""
        src = record.src
        ops: NodeOps = OPS[type(src)]  # type: ignore[assignment]  # a view's original
        changed = record.pushed or {}  # copies read here compared themselves
        assigned: dict[str, Any] = record.assigned  # type: ignore[assignment]  # not None here
        for name, value in assigned.items():  # assignments win
            old = getattr(src, name)
            if name in ops.static_names:
                if validate:
                    self._compare_static(record, ops.cls, name, value, old)
                changed[name] = value
                continue
            new = value if type(value) in LEAF_TYPES else self._result_of(value)
            if new is old:  # a value put back
                changed.pop(name, None)
                continue
            if validate and not same_aval(new, old):
                self._compare(record, name, value, new, old)
            changed[name] = new
        return ops.apply(src, changed) if changed else src

    def _resolve_container(self, record: ContainerRecord, validate: bool) -> Any:
        """A copied list's, dict's or tuple's result: the copy holding its items' results,
        or the original if the items are the same ones."""
        src, copy = record.src, record.copy
        if type(copy) is not list and type(copy) is not dict:  # a tuple (nothing to compare)
            items = [self._result_of(v) for v in copy]
            if _same(items, src):
                return src
            return tuple(items) if type(src) is tuple else type(src)(*items)
        is_dict = type(copy) is dict
        if validate and (list(copy) != list(src) if is_dict else len(copy) != len(src)):
            what = (
                messages.edit_dict_keys(list(src), list(copy))
                if is_dict
                else messages.edit_list_length(len(src), len(copy))
            )
            self._report(Problem(record, "", what))
            validate = False
        for k, value in list(copy.items()) if type(copy) is dict else list(enumerate(copy)):
            new = copy[k] = self._result_of(value)
            if validate:
                self._compare(record, (k,), value, new, src[k])
        if type(copy) is dict:
            same = list(copy) == list(src) and _same(copy.values(), src.values())
        else:
            same = len(copy) == len(src) and _same(copy, src)
        return src if same else copy

    def _resolve_root(self, validate: bool) -> None:
        """Point the root's fields at their results, compare the assigned ones with `obj`'s,
        and reseal it. A field still holding what entering put there needs no lookups:
        its result is `obj`'s value unless a copy read there pushed a new one."""
        root, obj, pushed = self._root, self._obj, self._pushed
        ops: NodeOps = self._ops  # type: ignore[assignment]  # called for a node root only
        (data, statics), (old_data, old_statics) = ops.flat(root), ops.flat(obj)
        if data is self._entered:  # the cache entering made: no root field was assigned
            if pushed:
                results = list(old_data)
                for name, result in pushed.items():
                    results[ops.data_index[name]] = result
                old_data = tuple(results)
            ops.reseat(root, old_data)  # type: ignore[misc]  # cached: `data` is its cache
            return
        # zip() without strict=: a keyword argument makes the call about twice as slow, and
        # the lengths are equal by construction (one class's fields) here and in `_same`.
        for name, value, entered, old in zip(ops.data, data, self._entered, old_data):  # noqa: B905
            if value is entered:  # not assigned: `old` or the copy of it made on entering
                result = old if pushed is None else pushed.get(name, old)
                if result is not value:
                    _object_setattr(root, name, result)
                continue
            result = self._result_of(value)
            if result is not value:
                _object_setattr(root, name, result)
            if validate and result is not old:
                self._compare(None, name, value, result, old)
        if validate and statics is not old_statics:  # the same tuple unless one was assigned
            for name, new, old in zip(ops.static, statics, old_statics):  # noqa: B905
                self._compare_static(None, ops.cls, name, new, old)
        ops.reseal(root)  # flatten cache; static values hash-checked

    def _result_of(self, value: Any) -> Any:
        """The result standing for a value read from a copy at exit."""
        tp = type(value)
        if tp in LEAF_TYPES:
            return value
        ops = _ops_get(tp)
        if ops is None:
            return value
        if type(ops) is NodeOps:
            if tp is ops.view_cls:  # a view of this block, or kept from one that has ended
                record = ops.record_of(value)
                if type(record) is Stub:  # a root field's view that was never used
                    block, result = record.block, record.src
                else:
                    block, result = record.block, record.result
                if block is not self and block.open:
                    raise nested_error(ops.cls)
                return result
            # A plain instance assigned by the user, maybe built from views (e.g. by
            # `replace(new.a, ...)`): rebuild it around their results.
            data = ops.read_data(value)
            mapped = [self._result_of(v) for v in data]
            if _same(mapped, data):
                return value
            return ops.unflatten(ops.read_static(value), tuple(mapped))
        containers = self._containers
        if containers is not None:
            copied = containers.get(id(value))
            if copied is not None:
                return copied.result
        if tp is dict:  # built by the user, maybe from views
            mapped_dict = {k: self._result_of(v) for k, v in value.items()}
            return value if _same(mapped_dict.values(), value.values()) else mapped_dict
        items = [self._result_of(v) for v in value]
        if _same(items, value):
            return value
        return tp(items) if tp is list or tp is tuple else tp(*items)

    # -- validation ------------------------------------------------------------------------

    def _compare(self, where: Record | None, key: Any, value: Any, new: Any, old: Any) -> None:
        """Report a problem if `new` (the result of `value`, found at `where.key`, or at
        `where[key]` for a 1-tuple key) cannot stand in for `old`. A copy of `old` made by
        this block compares itself."""
        if new is old or same_aval(new, old):
            return
        if type(new) is type(old) and is_array(new):
            if new.shape == old.shape and new.dtype == old.dtype:
                return
        else:
            ops = _ops_get(type(value))
            if type(ops) is NodeOps and type(value) is ops.view_cls:
                view = record_of_view(value)
                if view.block is self and view.src is old:
                    return
            elif self._containers is not None:
                record = self._containers.get(id(value))
                if record is not None and record.src is old:
                    return
        found = mismatch(new, old)
        if found is not None:
            owner = type(where.src if where is not None else self._obj)
            self._report(field_problem(where, owner, key, found))

    def _compare_static(
        self, where: Record | None, owner: type, name: str, new: Any, old: Any
    ) -> None:
        problem = static_problem(where, owner, name, new, old)
        if problem is None:
            return
        spec = spec_of(owner)
        path = path_of(where, self._root)
        if spec is not None and spec.lenient and path is not None:
            # the migration path lets a static change through, as jax_dataclasses does
            error = validation_error(path, problem)
            spec.report(str(error), f"edit {name}", error=ValueError)
            return
        self._report(problem)

    def _report(self, problem: Problem) -> None:
        if self._problems is None:
            self._problems = []
        self._problems.append(problem)

    def _raise_first_problem(self) -> None:
        """Raise for the first problem still part of the result (a later assignment may
        have detached an edit from it)."""
        for problem in self._problems or ():
            path = path_of(problem.where, self._root)
            if path is not None:
                raise validation_error(path, problem)

    def _discard_edits(self) -> None:
        """Make a failed block's edits unreachable: the root points at `obj`'s values again
        (fields and flatten cache), every copy's result is its original (views kept after
        the block read those), and copied lists and dicts hold their original items."""
        for record in self._order:
            record.result = record.src
            if type(record) is ContainerRecord:
                copy = record.copy
                if type(copy) is list:
                    copy[:] = record.src
                elif type(copy) is dict:
                    copy.clear()
                    copy.update(record.src)
        self._pushed = None
        ops = self._ops
        if type(ops) is NodeOps and self._root is not _NOT_ENTERED:
            ops.restore(self._root, self._obj)


def _same(a: Any, b: Any) -> bool:
    """The same objects, item for item (callers ensure equal lengths)."""
    return all(x is y for x, y in zip(a, b))  # noqa: B905
