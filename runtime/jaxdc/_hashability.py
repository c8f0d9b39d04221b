"""Which static *types* are certainly unhashable, decided at class definition.

The rule is the shared one (``_jaxdc_rules.hashability``), which the mypy plugin applies
too; this module only describes runtime annotations in its neutral form
(``_jaxdc_rules.typedesc``): what each class of an MRO says about hashing, read from its
``__dict__``, dataclass options and fields, NamedTuple fields, NewTypes, TypedDicts.
Annotations are resolved where they were written, strings and forward references inside
them included (``Static["list[int]"]``); a name that cannot be resolved describes a type
the rules do not judge, whose values are still checked (``hash()``) at construction.
"""

from __future__ import annotations

import collections.abc
import dataclasses
import inspect
import sys
import types
import typing
from collections.abc import Callable, Mapping
from typing import Any, get_args, get_origin

import jax
import typing_extensions
from _jaxdc_rules import names, typedesc as td
from _jaxdc_rules.hashability import HashabilityRules
from _jaxdc_rules.messages import Problem, class_display

from jaxdc._annotations import Namespaces, UnresolvedName

__all__ = ["describe", "find_unhashable"]

_RULES = HashabilityRules()
_MISSING = object()
_WRAPPERS = {typing.ClassVar, typing.Final, typing_extensions.Final}
for _name in ("Required", "NotRequired", "ReadOnly"):
    _WRAPPERS.update(getattr(m, _name) for m in (typing, typing_extensions) if hasattr(m, _name))
_UNIONS = (typing.Union, types.UnionType)
_LITERALS = {typing.Literal, typing_extensions.Literal}
_TypeVars = Mapping[Any, td.TypeDesc] | None  # a generic class's parameters, described
_BARE_TUPLE: Any = typing.Tuple  # noqa: UP006  (tuple[Any, ...]; `tuple[()]` has no args either)


def find_unhashable(annotation: Any, ns: Namespaces) -> Problem | None:
    """The first certainly-unhashable part of ``annotation``, or None."""
    return _RULES.unhashable_part(describe(annotation, ns))


def describe(annotation: Any, ns: Namespaces) -> td.TypeDesc:
    """``annotation`` (evaluated or not) as the shared rules see it."""
    return _Describer().describe(annotation, ns, None)


class _Describer:
    """Builds one description; meeting an object again returns its node (cycles)."""

    def __init__(self) -> None:
        self._memo: dict[tuple[int, int], td.TypeDesc] = {}
        self._alive: list[Any] = []  # keeps described objects alive, so ids stay unique

    def describe(self, tp: Any, ns: Namespaces, tvars: _TypeVars) -> td.TypeDesc:
        alias = ""
        while True:
            if isinstance(tp, (str, typing.ForwardRef)):
                alias = tp if isinstance(tp, str) else tp.__forward_arg__
                try:
                    tp = ns.eval(alias)
                except (UnresolvedName, Exception):  # not resolvable here: not judged
                    return td.TypeDesc(td.ANY, text=alias)
                continue
            origin = get_origin(tp)
            if origin is typing.Annotated or origin in _WRAPPERS:  # Static[T], ClassVar[T]
                tp = get_args(tp)[0]
            elif isinstance(tp, typing.TypeVar) and tvars and tp in tvars:
                return tvars[tp]  # a parameter of the generic class being described
            elif (
                isinstance(tp, type) and tp.__module__ == "jaxtyping" and hasattr(tp, "array_type")
            ):
                tp = tp.array_type  # Float[Array, "n"] is an Array to every layer
            else:
                break
        key = (id(tp), id(tvars))
        desc = self._memo.get(key)
        if desc is None:
            desc = self._memo[key] = td.TypeDesc()
            self._alive += (tp, tvars)
            self._fill(desc, tp, ns, tvars)
        if alias and not desc.alias:
            desc.alias = alias  # shown by name where a recursive type refers to itself
        return desc

    def _fill(self, desc: td.TypeDesc, tp: Any, ns: Namespaces, tvars: _TypeVars) -> None:
        origin, args = get_origin(tp), get_args(tp)
        if tp is None or tp is type(None):
            desc.form = td.NONE
        elif tp is typing.Any or tp is typing_extensions.Any:  # a class on Python >= 3.11
            desc.form = td.ANY
        elif isinstance(tp, typing.TypeVar):
            desc.form, desc.name = td.TYPEVAR, tp.__name__
            limits = (tp.__bound__,) if tp.__bound__ is not None else tp.__constraints__
            desc.items = tuple(self.describe(limit, ns, tvars) for limit in limits)
        elif origin in _UNIONS:
            desc.form = td.UNION
            desc.items = tuple(self.describe(arg, ns, tvars) for arg in args)
        elif origin in _LITERALS:
            desc.form, desc.text = td.LITERAL, _text(tp)
            desc.items = tuple(self.describe(type(arg), ns, None) for arg in args[:1])
        elif tp is collections.abc.Callable or origin is collections.abc.Callable:
            desc.form, desc.text = td.CALLABLE, _text(tp)
        elif origin is type:
            desc.form, desc.text = td.CLASS_OBJECT, _text(tp)
        elif origin is tuple or tp is tuple:  # typing.Tuple's origin is tuple too
            self._tuple(desc, tp, args, ns, tvars)
        elif typing_extensions.is_typeddict(tp):
            desc.form, desc.name = td.TYPEDDICT, class_display(tp.__qualname__)
            own = Namespaces.for_class(tp, None)
            values = inspect.get_annotations(tp).values()
            desc.items = tuple(self.describe(value, own, None) for value in values)
        elif hasattr(tp, "__supertype__"):  # NewType
            qualname = getattr(tp, "__qualname__", tp.__name__)
            desc.form, desc.name, desc.module = td.INSTANCE, class_display(qualname), tp.__module__
            desc.bases = (td.Base(f"{tp.__module__}.{qualname}", qualname),)
            desc.supertype = self.describe(tp.__supertype__, ns, tvars)
        elif isinstance(origin if origin is not None else tp, type):
            self._instance(desc, origin if origin is not None else tp, args, ns, tvars)
        else:  # Any, ParamSpec, objects that are not types: not judged
            desc.form, desc.text = td.ANY, _text(tp)

    def _tuple(
        self, desc: td.TypeDesc, tp: Any, args: tuple[Any, ...], ns: Namespaces, tvars: _TypeVars
    ) -> None:
        desc.form = td.TUPLE
        if tp is tuple or tp is _BARE_TUPLE or (len(args) == 2 and args[1] is Ellipsis):
            desc.variadic = True
            desc.items = (self.describe(args[0] if args else Any, ns, tvars),)
        elif args != ((),):  # tuple[()] is () on newer Pythons
            desc.items = tuple(self.describe(arg, ns, tvars) for arg in args)

    def _instance(
        self,
        desc: td.TypeDesc,
        klass: type,
        args: tuple[Any, ...],
        ns: Namespaces,
        tvars: _TypeVars,
    ) -> None:
        module, qualname = names.canonical_class(klass.__module__, klass.__qualname__)
        desc.form, desc.name, desc.module = td.INSTANCE, class_display(qualname), module
        desc.items = tuple(self.describe(arg, ns, tvars) for arg in args if arg is not Ellipsis)
        params = getattr(klass, "__parameters__", ())
        own_vars = None
        if args and len(params) == len(desc.items):
            own_vars = dict(zip(params, desc.items, strict=True))
        desc.bases = tuple(self._base(k, own_vars) for k in klass.__mro__ if k is not object)
        desc.protocol = bool(klass.__dict__.get("_is_protocol", False))

    def _base(self, klass: type, tvars: _TypeVars) -> td.Base:
        own = klass.__dict__
        params = own.get("__dataclass_params__")
        options = (
            td.DataclassOptions(params.eq, params.frozen, params.unsafe_hash) if params else None
        )
        namedtuple = issubclass(klass, tuple) and "_fields" in own
        fields: Callable[[], list[td.Field]] | None = None
        if options is not None:
            fields = lambda: self._dataclass_fields(klass, tvars)  # noqa: E731
        elif namedtuple:
            fields = lambda: self._namedtuple_fields(klass)  # noqa: E731
        return td.Base(
            names.JAX_ARRAY if klass is jax.Array else f"{klass.__module__}.{klass.__qualname__}",
            klass.__qualname__,
            hash=_hash_fact(klass, own.get("__hash__", _MISSING)),
            eq="__eq__" in own and not _is_stdlib(klass),
            dataclass=options,
            namedtuple=namedtuple,
            fields=fields,
        )

    def _dataclass_fields(self, klass: type, tvars: _TypeVars) -> list[td.Field]:
        described = []
        for f in dataclasses.fields(klass):
            owner = next(
                (k for k in klass.__mro__ if f.name in inspect.get_annotations(k)),
                klass,
            )
            field_type = self.describe(f.type, Namespaces.for_class(owner, None), tvars)
            hashed = f.compare if f.hash is None else f.hash
            described.append(td.Field(f.name, field_type, hashed))
        return described

    def _namedtuple_fields(self, klass: type) -> list[td.Field]:
        ns = Namespaces.for_class(klass, None)
        annotations = inspect.get_annotations(klass)
        return [
            td.Field(name, self.describe(annotations.get(name, Any), ns, None))
            for name in klass._fields  # type: ignore[attr-defined]
        ]


def _hash_fact(klass: type, own_hash: Any) -> str:
    if own_hash is _MISSING:
        return td.HASH_ABSENT
    if own_hash is None:
        return td.HASH_NONE
    if getattr(own_hash, "__jaxdc_generated__", False):
        return td.HASH_GENERATED  # jaxdc's tree_hash, installed where dataclasses made one
    code = getattr(own_hash, "__code__", None)
    if "__dataclass_params__" in klass.__dict__ and code and code.co_filename == "<string>":
        return td.HASH_GENERATED  # dataclasses compiles the methods it generates from text
    return td.HASH_DEFINED


def _is_stdlib(klass: type) -> bool:
    """Standard-library classes are judged by their ``__hash__`` alone: their stubs, all
    the plugin sees, do not say which of them define ``__eq__``."""
    return klass.__module__.partition(".")[0] in sys.stdlib_module_names


def _text(tp: Any) -> str:
    return repr(tp).replace("typing_extensions.", "").replace("typing.", "")
