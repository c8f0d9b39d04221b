"""Shapes and dtypes checked when a user builds an instance (`check_shapes=True`).

    @jdc.pytree_dataclass(check_shapes=True)
    class Batch:
        x: Float[Array, "b n"]
        y: Int[Array, "b"]

    Batch(jnp.zeros((4, 3)), jnp.zeros(5, int))
    # ShapeError: field 'y' of class 'Batch': dimension 'b' is 5 here but 4 from field 'x'
    #   (Float[Array, "b n"], got f32[4,3])

All fields of one instance share one set of dimension names. Checks run on construction
(also inside `jit`/`vmap`, against the shapes seen there), `replace`, the results of
`copy_and_mutate(validate=True)` and `from_state_dict`, and never on unflatten: `jit`,
`vmap`, `scan`, `grad` and `tree_map` rebuild instances without running them. Classes
without the option pay nothing.

The option is stored on the class (`__jaxdc_check_shapes__`), so subclasses inherit it;
each class compiles its annotations once, when it is finished, or at its first check if
an annotation names something not defined yet.

Hooks for the rest of jaxdc: `shape_checker(spec, caller)` when a class is finished (the
generated `__init__` and `replace` call what it returns), `check_instance(obj)` for code
that builds instances another way.
"""

from __future__ import annotations

import ast
import dataclasses
import functools
import inspect
import sys
from collections.abc import Callable, Iterator, Mapping
from typing import Any

from _jaxdc_rules import messages
from _jaxdc_rules.shapes import shape_problem

from jaxdc._annotations import CallerScope, Namespaces, UnresolvedName, resolve
from jaxdc._display import class_name, wrong_kind
from jaxdc._shapes_annotations import BATCH, FieldShape, MalformedShape, field_shape
from jaxdc._shapes_check import Bindings, ClassShapes, ShapeError, bind
from jaxdc._shapes_codegen import make_check
from jaxdc._spec import ClassSpec, spec_of

__all__ = [
    "OPTION_ATTR",
    "EnforcedAnnotationsMixin",
    "ShapeError",
    "check_instance",
    "check_shapes_option",
    "dims",
    "shape_checker",
    "shape_checks_in_use",
]

OPTION_ATTR = "__jaxdc_check_shapes__"
_SHAPES_ATTR = "__jaxdc_shapes__"


def dims(obj: Any) -> Bindings:
    """The dimension sizes an instance binds, e.g. `{"b": 4, "n": 3, "batch": (8,)}`.

    Computed from the arrays it holds (so it works on `jit`/`tree_map` outputs too): named
    dims map to ints, variadic ones (`*batch`) to tuples, the `Annotated` form's batch axes
    are under `"..."`. Raises `ShapeError` if the instance is inconsistent and `TypeError`
    for an instance of a class without shape checks.
    """
    if spec_of(type(obj)) is None:
        raise TypeError(wrong_kind("jaxdc.dims", messages.SHAPE_CHECKED_INSTANCE, obj))
    return bind(_compiled(type(obj), "dims"), obj)


class EnforcedAnnotationsMixin:
    """jax_dataclasses' mixin: subclasses check their shape annotations when built.

    `image: Annotated[jax.Array, (..., 28, 28), jnp.floating]` checks the trailing axes and
    the dtype; the leading axes (`...`, implied when left out) are batch axes that every
    annotated field shares, and fields holding instances of such classes must start with
    them. jaxtyping annotations are checked too (see `check_shapes=True`).
    """

    __slots__ = ()
    __jaxdc_check_shapes__ = True

    def get_batch_axes(self) -> tuple[int, ...]:
        """The leading batch axes shared by the annotated arrays this instance holds."""
        bound = dims(self).get(BATCH)
        if bound is None:
            raise ShapeError(messages.shape_no_batch_axes(class_name(type(self))))
        return bound  # type: ignore[no-any-return]


def check_shapes_option(options: Mapping[str, Any], where: str) -> None:
    """Validate the `check_shapes=` option of the decorator or class keywords."""
    if not isinstance(options.get("check_shapes", False), bool):
        raise TypeError(messages.shape_option_not_bool(where))


_in_use = False


def shape_checks_in_use() -> bool:
    """Whether any class has asked for shape checks (so others' hot paths can skip even
    looking for them)."""
    return _in_use


def shape_checker(spec: ClassSpec, caller: CallerScope | None) -> Callable[[Any], None] | None:
    """The check a class being finished runs on construction, or None if it has none.

    Compiled now if every annotation resolves, else at the first check."""
    global _in_use
    if not getattr(spec.cls, OPTION_ATTR, False):
        return None
    _in_use = True
    lazy = _LazyCheck(spec, caller)
    try:
        return lazy.compile(final=False)
    except UnresolvedName:
        return lazy


def check_instance(obj: Any) -> None:
    """Check `obj` if its class asks for shape checks (for instances built other than
    through `__init__`/`replace`: copy_and_mutate results, from_state_dict)."""
    spec = spec_of(type(obj))
    check = spec.shape_check if spec is not None else None
    if check is not None:
        check(obj)


class _LazyCheck:
    """A class whose annotations name something not defined yet: compiled when first
    used, like jaxdc resolves forward references everywhere else."""

    __slots__ = ("_caller", "_check", "_spec")

    def __init__(self, spec: ClassSpec, caller: CallerScope | None) -> None:
        self._spec, self._caller = spec, caller
        self._check: Callable[[Any], None] | None = None

    def __call__(self, obj: Any) -> None:
        (self._check or self.compile())(obj)

    def compile(self, final: bool = True) -> Callable[[Any], None]:
        """The compiled check (also stores the class's `ClassShapes`). Raises
        `UnresolvedName` unless `final`."""
        if self._check is None:
            shapes = _compile(self._spec, self._caller, final=final)
            setattr(self._spec.cls, _SHAPES_ATTR, shapes)
            self._check = make_check(shapes, _slow(shapes))
        return self._check


def _slow(shapes: ClassShapes) -> Callable[[Any], None]:
    def check(obj: Any) -> None:
        bind(shapes, obj)

    return check


def _compiled(cls: type, where: str) -> ClassShapes:
    spec = spec_of(cls)
    check = spec.shape_check if spec is not None else None
    if check is None:
        raise TypeError(messages.shape_needs_checks(where, class_name(cls)))
    if isinstance(check, _LazyCheck):
        check.compile()
    return cls.__dict__[_SHAPES_ATTR]  # type: ignore[no-any-return]


# --- compiling a class's annotations ---------------------------------------------------


def _compile(spec: ClassSpec, caller: CallerScope | None, *, final: bool) -> ClassShapes:
    """Read every data and excluded field's annotation. Raises `UnresolvedName` (unless
    `final`, when a shape annotation naming an undefined name is a TypeError and any
    other unresolvable annotation is not checked)."""
    cls = spec.cls
    fields: list[FieldShape] = []
    for f in spec.fields:
        if f.kind == "static":
            continue
        found = _field(cls, f.field, caller, final)
        if found is not None:
            fields.append(found)
    mixin = issubclass(cls, EnforcedAnnotationsMixin)
    return ClassShapes(
        class_name(cls),
        tuple(fields),
        _child_batch_axes if mixin else None,
        tuple(f.name for f in spec.fields if f.kind == "data") if mixin else (),
    )


def _child_batch_axes(value: Any) -> tuple[int, ...] | None:
    """A field value's own batch axes if it is an `EnforcedAnnotationsMixin` instance."""
    if isinstance(value, EnforcedAnnotationsMixin):
        axes: tuple[int, ...] | None = dims(value).get(BATCH)
        return axes
    return None


def _field(
    cls: type,
    f: dataclasses.Field[Any],
    caller: CallerScope | None,
    final: bool,
) -> FieldShape | None:
    owner = next((k for k in cls.__mro__ if f.name in inspect.get_annotations(k)), cls)
    inherited = owner is not cls and owner.__dict__.get(_SHAPES_ATTR)
    if inherited:
        return next((fs for fs in inherited.fields if fs.name == f.name), None)
    scopes = [Namespaces.for_class(owner, caller if owner is cls else None)]
    if owner is not cls:  # a parent declared in the same function as this class
        scopes.append(Namespaces.for_class(owner, caller))
    for ns in scopes:
        try:
            annotation = resolve(f.type, ns)
            return _read(cls, f.name, annotation, functools.partial(_resolve_member, ns))
        except UnresolvedName as exc:
            if isinstance(exc.error, ValueError):  # e.g. jaxtyping rejecting "*a *b" (PEP 563)
                raise _evaluation_error(cls, f, exc.error, ns) from None
            missing = exc
    if not final:
        raise missing
    if any(_shape_subscripts(f.type, scopes[-1])):
        raise TypeError(
            messages.shape_unresolved(f.name, class_name(cls), repr(f.type), missing.name)
        )
    return None


def _resolve_member(ns: Namespaces, annotation: Any) -> Any:
    return resolve(annotation, ns)


def _read(cls: type, name: str, annotation: Any, resolve_member: Any) -> FieldShape | None:
    try:
        return field_shape(name, annotation, resolve_member)
    except MalformedShape as exc:
        raise TypeError(
            messages.shape_malformed(name, class_name(cls), exc.dim_str, exc.reason)
        ) from None
    except TypeError as exc:
        raise TypeError(
            messages.shape_bad_annotation(name, class_name(cls), "its shape annotation", str(exc))
        ) from None


def _shape_subscripts(annotation: Any, ns: Namespaces) -> Iterator[ast.Subscript]:
    """The subscripts of an annotation's source whose head is a jaxtyping dtype
    (`Float[...]`) or `Annotated`: found when the annotation as a whole cannot be
    evaluated, to tell a shape annotation (an error to leave unchecked) from another."""
    if not isinstance(annotation, str):
        annotation = getattr(annotation, "__forward_arg__", None)
        if annotation is None:
            return
    try:
        tree = ast.parse(annotation, mode="eval")
    except SyntaxError:
        return
    for node in ast.walk(tree):
        if not isinstance(node, ast.Subscript):
            continue
        try:
            head = ns.eval(ast.unparse(node.value))
        except Exception:  # the head itself is unknown: cannot tell
            continue
        if getattr(head, "__name__", None) == "Annotated" or _is_jaxtyping_dtype(head):
            yield node


def _evaluation_error(
    cls: type, f: dataclasses.Field[Any], exc: Exception, ns: Namespaces
) -> TypeError:
    """An annotation whose evaluation fails: name the malformed shape string if it has one
    (jaxtyping's own error does not say which field)."""
    for node in _shape_subscripts(f.type, ns):
        items = node.slice.elts if isinstance(node.slice, ast.Tuple) else []
        for item in items[1:]:
            if isinstance(item, ast.Constant) and isinstance(item.value, str):
                reason = shape_problem(item.value)
                if reason is not None:
                    return TypeError(
                        messages.shape_malformed(f.name, class_name(cls), item.value, reason)
                    )
    return TypeError(
        messages.shape_bad_annotation(
            f.name, class_name(cls), f"its annotation {f.type!r}", f"{type(exc).__name__}: {exc}"
        )
    )


def _is_jaxtyping_dtype(head: Any) -> bool:
    jaxtyping = sys.modules.get("jaxtyping")
    base = getattr(jaxtyping, "AbstractDtype", None)
    return base is not None and isinstance(head, type) and issubclass(head, base)
