"""Checking one instance: bind dimension names across its fields, or say what is wrong.

This is the reference implementation. `bind` walks the fields in order, reads each
value's shape and dtype, and binds the names its annotation mentions; a name seen again
must have the same size. Symbolic dimensions (`n+1`) are evaluated once the names they
use are bound, so field order does not matter for them. Generated fast paths
(`_shapes_codegen`) only accept what this accepts, and call it to explain a failure.

Values: arrays (JAX, NumPy, tracers, `jax.ShapeDtypeStruct`, anything with `shape` and
`dtype`) are checked; Python `bool`/`int`/`float`/`complex` count as shape `()`;
everything else (None, sharding objects, containers) is skipped.
"""

from __future__ import annotations

import ast
import functools
from collections.abc import Callable, Iterator
from typing import Any, NamedTuple

import jax
import numpy as np
from _jaxdc_rules import messages
from _jaxdc_rules.shapes import Dim

from jaxdc._display import array_summary
from jaxdc._shapes_annotations import BATCH, WEAK_TYPES, ArraySpec, FieldShape, Weak, dtype_name

__all__ = ["Bindings", "ClassShapes", "ShapeError", "bind", "read_leaf"]


class ShapeError(ValueError, AssertionError):
    """An array's shape or dtype does not match its field's annotation (or the sizes
    other fields of the same instance bound).

    A ValueError (a wrong value was given), and also an AssertionError because that is what
    jax_dataclasses' `EnforcedAnnotationsMixin` raises: its users' `except AssertionError`
    and `pytest.raises(AssertionError)` keep working after the import change."""


def _array_impl() -> type[jax.Array]:
    """The concrete class of jax arrays, named without making one: creating an array at
    import would start JAX's backends (and break code that configures them afterwards)."""
    try:
        from jax._src.array import ArrayImpl
    except ImportError:  # a jax that moved it: `jax.Array` is never a value's exact class,
        return jax.Array  # so the exact-type fast path below is skipped, nothing else changes
    return ArrayImpl


ARRAY_IMPL = _array_impl()


def read_leaf(value: Any) -> tuple[Any, Any] | None:
    """`(shape, dtype)` of a value the checks apply to, or None to skip it."""
    if value.__class__ is ARRAY_IMPL:
        aval = value.aval
        return aval.shape, aval.dtype
    weak = WEAK_TYPES.get(value.__class__)
    if weak is not None:
        return (), weak
    shape = getattr(value, "shape", None)
    if shape is None or isinstance(value, type):
        return None
    dtype = getattr(value, "dtype", None)
    if dtype is None:
        return None
    try:
        return tuple(shape), dtype
    except TypeError:
        return None


class ClassShapes(NamedTuple):
    """A class's compiled shape annotations (fields without any are left out)."""

    cls_name: str
    fields: tuple[FieldShape, ...]
    child_batch_axes: Callable[[Any], tuple[int, ...] | None] | None
    """`EnforcedAnnotationsMixin`: a field value's own batch axes (None if it has none)."""
    children: tuple[str, ...]
    """`EnforcedAnnotationsMixin`: the data fields, whose values may have batch axes that
    must start with this instance's."""


class _Bound(NamedTuple):
    size: Any  # int, or a tuple for variadic dims
    field: int
    spec: ArraySpec
    axis: int
    broadcastable: bool


Bindings = dict[str, Any]


class _Problem(Exception):
    """One alternative's mismatch, as the part of the message after the field."""

    def __init__(self, text: str, own: bool = True) -> None:
        super().__init__(text)
        self.text = text
        self.own = own
        """Whether the field's own annotation and value complete the text."""


class _Run:
    """The state of one check: what is bound so far, and by which field."""

    def __init__(self, shapes: ClassShapes, obj: Any) -> None:
        self.shapes = shapes
        self.obj = obj
        self.single: dict[str, _Bound] = {}
        self.multi: dict[str, _Bound] = {}
        self.deferred: list[tuple[int, ArraySpec, int, Dim, Any]] = []
        """Symbolic dims whose names were not all bound yet when their field was read."""
        self.values: dict[str, Any] | None = None

    # --- one field -----------------------------------------------------------------------

    def field(self, index: int, fs: FieldShape, value: Any) -> None:
        leaf = read_leaf(value)
        if leaf is None:
            return
        shape, dtype = leaf
        if len(fs.specs) == 1 and not fs.others:
            try:
                self.match(index, fs.specs[0], shape, dtype)
            except _Problem as problem:
                self.fail(fs, fs.specs[0], value, problem)
            return
        problems = []
        for spec in fs.specs:
            saved = dict(self.single), dict(self.multi), list(self.deferred)
            try:
                self.match(index, spec, shape, dtype)
            except _Problem as problem:
                self.single, self.multi, self.deferred = saved
                problems.append((spec, problem))
            else:
                return
        if fs.fits_other(value):
            return
        if len(problems) == 1:
            self.fail(fs, problems[0][0], value, problems[0][1])
        reasons = [(spec.shown, p.text) for spec, p in problems]
        self.raise_(fs.name, messages.shape_no_alternative(summary(value), reasons))

    def match(self, index: int, spec: ArraySpec, shape: Any, dtype: Any) -> None:
        if spec.dtype is not None and not spec.dtype.accepts(dtype):
            raise _Problem(messages.shape_dtype(_dtype_shown(dtype), spec.dtype.shown))
        dims, rank, cut = spec.dims, spec.rank, spec.variadic
        if cut is None:
            if len(shape) != rank:
                raise _Problem(messages.shape_rank(rank, len(shape), at_least=False))
            for axis, (dim, size) in enumerate(zip(dims, shape, strict=True)):
                self.dim(index, spec, axis, dim, size)
            return
        if len(shape) < rank:
            raise _Problem(messages.shape_rank(rank, len(shape), at_least=True))
        tail = len(dims) - cut - 1
        for axis in range(cut):
            self.dim(index, spec, axis, dims[axis], shape[axis])
        for k in range(tail):
            axis = len(shape) - tail + k
            self.dim(index, spec, axis, dims[cut + 1 + k], shape[axis])
        self.variadic(index, spec, cut, dims[cut], tuple(shape[cut : len(shape) - tail]))

    def dim(self, index: int, spec: ArraySpec, axis: int, dim: Dim, size: Any) -> None:
        kind = dim.kind
        if kind == "anonymous" or (dim.broadcastable and size == 1):
            return
        if kind == "fixed":
            if size != dim.size:
                raise _Problem(
                    messages.shape_fixed(axis, size, dim.size, broadcastable=dim.broadcastable)
                )
            return
        if kind == "symbolic":
            self.symbolic(index, spec, axis, dim, size, defer=True)
            return
        bound = self.single.get(dim.name)
        if bound is None:
            self.single[dim.name] = _Bound(size, index, spec, axis, dim.broadcastable)
        elif bound.size != size:
            raise self.conflict(messages.shape_dim(dim.name, size), bound, index, axis)

    def variadic(self, index: int, spec: ArraySpec, axis: int, dim: Dim, sizes: Any) -> None:
        if dim.kind == "anonymous_variadic":
            return
        here = messages.shape_variadic(dim.name, sizes, batch=dim.name == BATCH)
        bound = self.multi.get(dim.name)
        if bound is None:
            self.multi[dim.name] = _Bound(sizes, index, spec, axis, dim.broadcastable)
            return
        if not (bound.broadcastable or dim.broadcastable):
            if bound.size != sizes:
                raise self.conflict(here, bound, index, axis)
            return
        merged = _broadcast(bound.size, sizes)
        if merged is None:
            raise self.conflict(here, bound, index, None, "which do not broadcast with")
        if not dim.broadcastable and merged != sizes:
            raise self.conflict(here, bound, index, None, "which cannot hold")
        if not bound.broadcastable and merged != bound.size:
            raise self.conflict(here, bound, index, None, "which do not broadcast to")
        self.multi[dim.name] = bound._replace(size=merged, broadcastable=dim.broadcastable)

    def symbolic(
        self, index: int, spec: ArraySpec, axis: int, dim: Dim, size: Any, defer: bool
    ) -> None:
        sizes = {name: b.size for name, b in self.single.items()}
        expr = dim.name
        try:
            if "{" in expr:
                expr = eval(_compiled("f" + repr(expr)), {}, self.field_values())
            expected = eval(_compiled(expr), sizes)
        except NameError as exc:
            if defer:
                self.deferred.append((index, spec, axis, dim, size))
                return
            raise _Problem(messages.shape_unbound(dim.name, str(exc.name))) from None
        except Exception as exc:  # what jaxtyping would raise too, e.g. a TypeError
            raise _Problem(messages.shape_cannot_evaluate(dim.name, exc)) from None
        if size != expected and not (dim.broadcastable and size == 1):
            known = ", ".join(f"{n}={v}" for n, v in sizes.items() if n in _names(expr))
            raise _Problem(messages.shape_symbolic(dim.name, size, expected, known))

    def field_values(self) -> dict[str, Any]:
        if self.values is None:
            self.values = {name: getattr(self.obj, name) for name in _all_fields(self.obj)}
            self.values.setdefault("self", self.obj)
        return self.values

    # --- messages ------------------------------------------------------------------------

    def conflict(
        self,
        here: str,
        bound: _Bound,
        index: int,
        axis: int | None = None,
        relation: str = "",
    ) -> _Problem:
        """`<here> here but <size> from field 'x' (<x's annotation>, got <x's value>)`;
        `relation` replaces "but" with a clause (`which does not broadcast with`)."""
        there = bound.size
        if bound.field == index and axis is not None:
            return _Problem(messages.shape_conflict_in_field(here, axis, there, bound.axis))
        other = self.shapes.fields[bound.field].name
        got = summary(getattr(self.obj, other))
        text = messages.shape_conflict(here, there, other, bound.spec.shown, got, relation)
        return _Problem(text, own=False)

    def fail(self, fs: FieldShape, spec: ArraySpec, value: Any, problem: _Problem) -> None:
        text = problem.text
        if problem.own:
            text = messages.shape_seen(text, spec.shown, summary(value))
        self.raise_(fs.name, text)

    def raise_(self, field: str, text: str) -> None:
        raise ShapeError(messages.shape_error(field, self.shapes.cls_name, text))

    # --- after all fields ----------------------------------------------------------------

    def finish(self) -> None:
        for index, spec, axis, dim, size in self.deferred:
            try:
                self.symbolic(index, spec, axis, dim, size, defer=False)
            except _Problem as problem:
                fs = self.shapes.fields[index]
                self.fail(fs, spec, getattr(self.obj, fs.name), problem)
        batch = self.multi.get(BATCH)
        if batch is None or self.shapes.child_batch_axes is None:
            return
        for name in self.shapes.children:
            child = self.shapes.child_batch_axes(getattr(self.obj, name))
            if child is not None and child[: len(batch.size)] != batch.size:
                other = self.shapes.fields[batch.field].name
                got = summary(getattr(self.obj, other))
                self.raise_(
                    name,
                    messages.shape_child_batch(child, batch.size, other, batch.spec.shown, got),
                )

    def bindings(self) -> Bindings:
        found: Bindings = {name: b.size for name, b in self.single.items()}
        for name, b in self.multi.items():
            found["*" + name if name in found else name] = b.size
        return found


def bind(shapes: ClassShapes, obj: Any) -> Bindings:
    """Check `obj` against its class's annotations; the bindings it makes. Raises
    `ShapeError`."""
    run = _Run(shapes, obj)
    for index, fs in enumerate(shapes.fields):
        try:
            run.field(index, fs, getattr(obj, fs.name))
        except ShapeError:
            raise
        except Exception:  # sizes that cannot be compared: jax.export's symbolic dims
            continue
    run.finish()
    return run.bindings()


def summary(value: Any) -> str:
    """`f32[4,3]` for arrays, `float 1.5` for Python scalars."""
    if type(value) in WEAK_TYPES:
        return f"{type(value).__name__} {value!r}"
    try:
        return array_summary(value)
    except Exception:  # a duck-typed array: show what it has
        return f"{type(value).__name__}{list(value.shape)}"


def _dtype_shown(dtype: Any) -> str:
    if isinstance(dtype, Weak):
        return messages.shape_python_scalar(dtype.name)
    try:
        return str(np.dtype(dtype).name)
    except TypeError:
        return dtype_name(dtype)


def _broadcast(a: tuple[int, ...], b: tuple[int, ...]) -> tuple[int, ...] | None:
    """NumPy's broadcast of two shapes, or None if they do not broadcast."""
    out = []
    for x, y in zip(_padded(a, len(b)), _padded(b, len(a)), strict=True):
        if x != y and 1 not in (x, y):
            return None
        out.append(y if x == 1 else x)
    return tuple(out)


def _padded(shape: tuple[int, ...], other: int) -> Iterator[int]:
    yield from [1] * (other - len(shape))
    yield from shape


@functools.lru_cache(maxsize=1024)  # f-string dims compile once per value filled in
def _compiled(source: str) -> Any:
    return compile(source, "<shape>", "eval")


@functools.cache
def _names(expr: str) -> frozenset[str]:
    """The names an expression reads (`n+m` -> {n, m})."""
    return frozenset(
        n.id for n in ast.walk(ast.parse(expr, mode="eval")) if isinstance(n, ast.Name)
    )


def _all_fields(obj: Any) -> list[str]:
    return [name for name in type(obj).__dataclass_fields__]
