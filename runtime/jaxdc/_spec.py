"""The per-class record of field kinds: data (pytree children), static (treedef), excluded.

Built once per class from `dataclasses.fields`; static-ness of inherited fields comes
from the parent's record, so it is inherited even when the parent's annotations live
in another module.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

from jaxdc._annotations import CallerScope, Namespaces, UnresolvedName, is_static, resolve
from jaxdc._field import PYTREE_KEY, STATIC_KEY
from jaxdc._hashability import class_name, find_unhashable, static_type_message
from jaxdc._static import strip_static

__all__ = ["ClassSpec", "FieldSpec", "UnresolvedField", "build_spec", "spec_of"]

Kind = Literal["data", "static", "excluded"]
SPEC_ATTR = "__jaxdc_spec__"
CACHE_ATTR = "_jaxdc_flat_"


class UnresolvedField(TypeError):
    """A field's kind cannot be decided because its annotation names an unknown name."""

    def __init__(self, cls_name: str, field_name: str, annotation: Any, missing: str) -> None:
        super().__init__(
            f"cannot tell whether field '{field_name}' of class '{cls_name}' is static: its "
            f"annotation {annotation!r} names '{missing}', which is not defined at runtime "
            f"(imported only under TYPE_CHECKING, or not defined yet?). Fix: make '{missing}' "
            f"importable at runtime, or state the kind explicitly with "
            f"jaxdc.field(static=False) for a data field or jaxdc.field(static=True)."
        )
        self.field_name = field_name


@dataclass(frozen=True)
class FieldSpec:
    name: str
    kind: Kind
    field: dataclasses.Field[Any]

    @property
    def factory(self) -> Callable[[], Any] | None:
        f = self.field.default_factory
        return None if f is dataclasses.MISSING else f

    @property
    def has_default(self) -> bool:
        return self.field.default is not dataclasses.MISSING or self.factory is not None


@dataclass
class ClassSpec:
    """Everything generated code and the public helpers need to know about a class."""

    cls: type
    fields: tuple[FieldSpec, ...]
    custom_init: bool
    cached: bool  # instances carry CACHE_ATTR (False for slots classes without that slot)
    initvars: tuple[str, ...]
    replace: Callable[..., Any] = dataclasses.field(init=False)
    shape_check: Callable[[Any], None] | None = None
    """Set for classes declared with `check_shapes=True` (see `_shapes`)."""

    def names(self, kind: Kind) -> tuple[str, ...]:
        return tuple(f.name for f in self.fields if f.kind == kind)

    # Cached: read on every custom-__init__ construction (seal) and copy_and_mutate edit.
    @functools.cached_property
    def data(self) -> tuple[str, ...]:
        return self.names("data")

    @functools.cached_property
    def static(self) -> tuple[str, ...]:
        return self.names("static")

    @functools.cached_property
    def excluded(self) -> tuple[FieldSpec, ...]:
        return tuple(f for f in self.fields if f.kind == "excluded")

    @property
    def post_init(self) -> bool:
        return hasattr(self.cls, "__post_init__")


def spec_of(cls: type) -> ClassSpec | None:
    """The finished spec of a jaxdc class itself (not inherited from a parent), or None."""
    spec = cls.__dict__.get(SPEC_ATTR)
    return spec if isinstance(spec, ClassSpec) else None


def build_spec(cls: type, custom_init: bool, caller: CallerScope | None) -> ClassSpec:
    """Decide every field's kind and check static types. Raises `UnresolvedField`."""
    ns = Namespaces.for_class(cls, caller)
    own = cls.__dict__.get("__annotations__", {})
    fields = tuple(
        FieldSpec(f.name, _kind(cls, f, f.name in own, ns), f) for f in dataclasses.fields(cls)
    )
    for f in fields:
        if f.kind == "static" and f.name in own:
            _check_static_type(cls, f.field, ns)
        if f.kind == "excluded" and not f.has_default:
            raise TypeError(
                f"field '{f.name}' of class '{class_name(cls)}' is not part of the pytree "
                f"(init=False or pytree=False) but has no default: after jit/vmap/tree_map it "
                f"would be unset, because jaxdc never re-runs __init__/__post_init__ on "
                f"unflatten. Fix: give it a default, or carry it in the pytree with "
                f"jaxdc.field(init=False, pytree=True)."
            )
    initvars = tuple(
        name
        for name, f in cls.__dataclass_fields__.items()  # type: ignore[attr-defined]
        if f._field_type is dataclasses._FIELD_INITVAR  # type: ignore[attr-defined]
    )
    slots = cls.__dict__.get("__slots__")
    cached = slots is None or any(CACHE_ATTR in getattr(k, "__slots__", ()) for k in cls.__mro__)
    return ClassSpec(cls, fields, custom_init, cached, initvars)


def _kind(cls: type, f: dataclasses.Field[Any], own: bool, ns: Namespaces) -> Kind:
    pytree = f.metadata.get(PYTREE_KEY)
    if pytree is False or (not f.init and pytree is not True):
        return "excluded"
    explicit = f.metadata.get(STATIC_KEY)
    if explicit is not None:
        annotated = _annotated_static(cls, f, own, ns, required=False)
        if annotated and not explicit:
            raise TypeError(
                f"field '{f.name}' of class '{class_name(cls)}' is annotated Static[...] "
                f"but declared jaxdc.field(static=False). Fix: drop one of them."
            )
        return "static" if explicit else "data"
    return "static" if _annotated_static(cls, f, own, ns, required=True) else "data"


def _annotated_static(
    cls: type, f: dataclasses.Field[Any], own: bool, ns: Namespaces, *, required: bool
) -> bool:
    """Static-ness from the annotation, inherited from the nearest jaxdc parent.

    A parent's static field stays static when a subclass redeclares it (`sizes: list[int]`
    over `sizes: Static[Sequence[int]]`): a field cannot silently move between the
    treedef and the leaves, and the redeclared type is then checked for hashability.
    """
    inherited = _parent_kind(cls, f.name)
    if not own:
        if inherited is not None:
            return inherited == "static"
        owner = next(b for b in cls.__mro__ if f.name in b.__dict__.get("__annotations__", {}))
        ns = Namespaces.for_class(owner, None)
    try:
        return is_static(f.type, ns) or inherited == "static"
    except UnresolvedName as exc:
        if not required:
            return False
        raise UnresolvedField(class_name(cls), f.name, f.type, exc.name) from None


def _parent_kind(cls: type, name: str) -> Kind | None:
    for base in cls.__mro__[1:]:
        parent = spec_of(base)
        if parent is not None:
            return next((pf.kind for pf in parent.fields if pf.name == name), None)
    return None


def _check_static_type(cls: type, f: dataclasses.Field[Any], ns: Namespaces) -> None:
    try:
        tp = strip_static(resolve(f.type, ns))
    except UnresolvedName:
        return  # only checkable when the value arrives (hash() at construction)
    problem = find_unhashable(tp, f.name)
    if problem is not None:
        raise TypeError(static_type_message(class_name(cls), f.name, problem))
