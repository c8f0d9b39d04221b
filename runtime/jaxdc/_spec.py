"""The per-class record of field kinds: data (pytree children), static (treedef), excluded.

Built once per class from `dataclasses.fields`; static-ness of inherited fields comes
from the parent's record, so it is inherited even when the parent's annotations live
in another module.
"""

from __future__ import annotations

import dataclasses
import functools
import inspect
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

from _jaxdc_rules import messages
from _jaxdc_rules.kinds import decide_kind, explicit_static, inherited_kind

from jaxdc._annotations import CallerScope, Namespaces, UnresolvedName, class_origin, is_static
from jaxdc._display import class_name
from jaxdc._field import PYTREE_KEY, PYTREE_NODE_KEY, STATIC_KEY
from jaxdc._hashability import find_unhashable
from jaxdc._metadata import CACHE_ATTR, StaticMetadata, metadata_type
from jaxdc._policy import Origin, report

__all__ = ["CACHE_ATTR", "ClassSpec", "FieldSpec", "UnresolvedField", "build_spec", "spec_of"]

Kind = Literal["data", "static", "excluded"]
SPEC_ATTR = "__jaxdc_spec__"


class UnresolvedField(TypeError):
    """A field's kind cannot be decided because its annotation names an unknown name."""

    def __init__(self, cls_name: str, field_name: str, annotation: Any, missing: str) -> None:
        super().__init__(messages.unresolved_field(field_name, cls_name, repr(annotation), missing))
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
    origin: Origin
    """Where the class was defined: where its migration warnings point."""
    lenient: bool = False
    """Declared on the migration path (`jaxdc.compat`): misuse warns instead of raising."""
    replace: Callable[..., Any] = dataclasses.field(init=False)
    shape_check: Callable[[Any], None] | None = None
    """Set for classes declared with `check_shapes=True` (see `_shapes`)."""

    def report(self, message: str, topic: str, error: type[Exception] = TypeError) -> None:
        """A misuse of this class: raised, or on the migration path warned once per topic."""
        report(
            message,
            lenient=self.lenient,
            cls=self.cls,
            topic=topic,
            origin=self.origin,
            error=error,
        )

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
    def metadata(self) -> type[StaticMetadata]:
        """The type of the statics tuple in the flatten cache (it prints the field names)."""
        return metadata_type(self.cls, self.static, self.data if self.cached else None)

    @functools.cached_property
    def no_statics(self) -> StaticMetadata:
        """The statics tuple of every instance of a class without static fields: one
        object, so their treedefs compare by identity first."""
        return self.metadata(())

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


def build_spec(
    cls: type, custom_init: bool, caller: CallerScope | None, lenient: bool = False
) -> ClassSpec:
    """Decide every field's kind and check static types (`lenient`: the migration path,
    where an unhashable static type warns). Raises `UnresolvedField`."""
    ns = Namespaces.for_class(cls, caller)
    own = inspect.get_annotations(cls)
    fields = tuple(
        FieldSpec(f.name, _kind(cls, f, f.name in own, ns), f) for f in dataclasses.fields(cls)
    )
    origin = class_origin(cls, caller)
    for f in fields:
        if f.kind == "static" and f.name in own:
            problem = find_unhashable(f.field.type, ns)
            if problem is not None:
                message = messages.static_unhashable(f.name, class_name(cls), problem)
                report(message, lenient=lenient, cls=cls, topic=f.name, origin=origin)
        if f.kind == "excluded" and not f.has_default:
            raise TypeError(messages.excluded_without_default(f.name, class_name(cls)))
    initvars = tuple(
        name
        for name, f in cls.__dataclass_fields__.items()  # type: ignore[attr-defined]
        if f._field_type is dataclasses._FIELD_INITVAR  # type: ignore[attr-defined]
    )
    slots = cls.__dict__.get("__slots__")
    cached = slots is None or any(CACHE_ATTR in getattr(k, "__slots__", ()) for k in cls.__mro__)
    return ClassSpec(cls, fields, custom_init, cached, initvars, origin, lenient)


def _kind(cls: type, f: dataclasses.Field[Any], own: bool, ns: Namespaces) -> Kind:
    """The shared rule (`_jaxdc_rules.kinds`) on the field's metadata and annotation."""
    parent = _parent_kind(cls, f.name)
    if not own and parent is not None:
        return parent  # inherited, not redeclared
    pytree = f.metadata.get(PYTREE_KEY)
    try:
        static = explicit_static(
            static=f.metadata.get(STATIC_KEY), pytree_node=f.metadata.get(PYTREE_NODE_KEY)
        )
    except ValueError:
        raise TypeError(
            messages.field_static_and_pytree_node(
                f.metadata[STATIC_KEY], f.metadata[PYTREE_NODE_KEY]
            )
        ) from None
    annotated = pytree is not False and _annotated_static(cls, f, own, ns, static is None)
    if annotated and static is False:
        raise TypeError(messages.static_annotation_conflict(f.name, class_name(cls)))
    kind = decide_kind(static=static, pytree=pytree, annotated_static=annotated)
    return inherited_kind(parent, kind)  # type: ignore[return-value]


def _annotated_static(
    cls: type, f: dataclasses.Field[Any], own: bool, ns: Namespaces, required: bool
) -> bool:
    """Whether the annotation says `Static[...]` (evaluated where it was written).

    `required`: the annotation alone decides the kind, so a name it cannot resolve is an
    error; otherwise an explicit flag decides and the annotation only guards against a
    contradiction.
    """
    if not own:  # declared by a base that is not a jaxdc class (a plain dataclass)
        owner = next(b for b in cls.__mro__ if f.name in inspect.get_annotations(b))
        ns = Namespaces.for_class(owner, None)
    try:
        return is_static(f.type, ns)
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
