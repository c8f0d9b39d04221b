"""`@pytree_dataclass`: turn a class into a frozen dataclass registered as a pytree.

Steps, in order: check the options; turn immutable array defaults into factories
(stdlib dataclasses reject them on Python >= 3.11); let `dataclasses` build the class
(fields, repr, eq, order, match_args, slots, kw_only, InitVar); decide each field's
kind (possibly later, if a forward reference is not defined yet); install the
generated `__init__`, the frozen `__setattr__`/`__delattr__` and pickling; register
with JAX. Subclasses that are not decorated get an `__init__` guard that explains the
fix instead of silently becoming pytree leaves.
"""

from __future__ import annotations

import dataclasses
import enum
import inspect
from collections.abc import Mapping
from typing import Any, TypeVar

import jax
import numpy as np
import typing_extensions
from _jaxdc_rules import messages

from jaxdc._annotations import CallerScope, caller_scope, class_origin
from jaxdc._codegen import make_init, make_replace
from jaxdc._construct import mutable_setattr, seal, wrap_custom_init
from jaxdc._display import class_name, given, wrong_kind
from jaxdc._equality import tree_eq, tree_hash
from jaxdc._frozen import data_descriptor_type, frozen_delattr, frozen_setattr, undecorated
from jaxdc._policy import report
from jaxdc._printing import tree_repr
from jaxdc._registration import register
from jaxdc._replace import replace
from jaxdc._shapes import OPTION_ATTR, check_shapes_option, shape_checker
from jaxdc._spec import SPEC_ATTR, ClassSpec, UnresolvedField, build_spec, spec_of

__all__ = [
    "OPTIONS",
    "PytreeDataclassDecorator",
    "ensure_spec",
    "process",
    "pytree_dataclass",
    "reconstruct",
]

_T = TypeVar("_T")

OPTIONS = (
    "init",
    "repr",
    "eq",
    "order",
    "unsafe_hash",
    "frozen",
    "match_args",
    "kw_only",
    "slots",
    "weakref_slot",  # Python 3.11+ (dataclasses rejects it before)
    "check_shapes",  # jaxdc's own: shapes and dtypes checked on construction (`_shapes`)
)
_DEFAULTS: dict[str, Any] = {
    "init": True,
    "repr": True,
    "eq": True,
    "order": False,
    "unsafe_hash": False,
    "frozen": True,
    "match_args": True,
    "kw_only": False,
    "slots": False,
}


class PytreeDataclassDecorator:
    """What `pytree_dataclass(kw_only=True, ...)` returns: applies those options."""

    __slots__ = ("_options",)

    def __init__(self, options: Mapping[str, Any]) -> None:
        if not isinstance(options, Mapping):
            expected = "a mapping of pytree_dataclass options"
            raise TypeError(wrong_kind("jaxdc.PytreeDataclassDecorator", expected, options))
        check_options(options, "pytree_dataclass")
        self._options = dict(options)

    def __call__(self, cls: type[_T]) -> type[_T]:
        return process(cls, self._options, caller_scope())

    def __repr__(self) -> str:
        args = ", ".join(f"{k}={v!r}" for k, v in self._options.items())
        return f"jaxdc.pytree_dataclass({args})"


def pytree_dataclass(cls: type[_T] | None = None, /, **options: Any) -> Any:
    """Decorate a class to make it a frozen dataclass registered as a JAX pytree.

    Use bare (`@pytree_dataclass`) or with dataclass options
    (`@pytree_dataclass(kw_only=True, slots=True, order=True, ...)`).
    """
    check_options(options, "pytree_dataclass")
    if cls is None:
        return PytreeDataclassDecorator(options)
    return process(cls, options, caller_scope())


def check_options(options: Mapping[str, Any], where: str, lenient: bool = False) -> None:
    """The decorator's options (`lenient`: the migration path, where `frozen=False` is
    accepted; `process` warns about it)."""
    unknown = sorted(set(options) - set(OPTIONS))
    if unknown:
        raise TypeError(messages.unknown_options(where, unknown, OPTIONS))
    if options.get("frozen", True) is not True and not lenient:
        raise TypeError(messages.not_frozen_option(where))
    check_shapes_option(options, where)


def process(
    cls: type[_T],
    options: Mapping[str, Any],
    caller: CallerScope | None,
    where: str = "jaxdc.pytree_dataclass",
    *,
    lenient: bool = False,
    mutable: bool = False,
) -> type[_T]:
    """Build the dataclass, decide field kinds (now or lazily), install and register
    (`where`: the decorator the user applied, for errors).

    `lenient`: the migration path (`jaxdc.compat`), where what jaxdc rejects warns
    (`_policy`). `mutable`: instances may be assigned (chex's default, or `frozen=False`
    on the migration path), as in the original library."""
    _check_decoratable(cls, where)
    if SPEC_ATTR in cls.__dict__:
        if options:
            raise TypeError(messages.already_decorated(class_name(cls), cls.__name__))
        return cls
    if "__dataclass_fields__" in cls.__dict__:  # @dataclass under @pytree_dataclass
        raise TypeError(messages.stacked_dataclass(class_name(cls)))
    _remove_guard(cls)
    merged = {**_DEFAULTS, **options}
    if merged["frozen"] is not True:  # on the migration path only (`check_options`)
        message = messages.not_frozen_option(where)
        report(message, lenient=lenient, cls=cls, topic="frozen", origin=class_origin(cls, caller))
        mutable = True
    merged["frozen"] = not mutable
    if not mutable:  # (dataclasses itself refuses a mutable class over a frozen base)
        _check_bases(cls)
    _wrap_array_defaults(cls, lenient, caller)
    custom_init = "__init__" in cls.__dict__
    own = frozenset(cls.__dict__)  # what the class body defines itself
    own_hash = cls.__dict__.get("__hash__")
    check_shapes = merged.pop("check_shapes", None)
    cls = dataclasses.dataclass(cls, **merged)
    _check_descriptor_fields(cls, lenient, caller)
    if check_shapes is not None:  # else inherited (or off)
        setattr(cls, OPTION_ATTR, check_shapes)
    # Where dataclasses generated them: a repr showing arrays as f32[3], an == that never
    # raises "truth value of an array is ambiguous", and a hash consistent with it.
    if merged["repr"] and "__repr__" not in own:
        cls.__repr__ = tree_repr  # type: ignore[method-assign]
    if merged["eq"] and "__eq__" not in own:
        cls.__eq__ = tree_eq  # type: ignore[method-assign]
    if cls.__dict__.get("__hash__") is not own_hash and cls.__hash__ is not None:
        cls.__hash__ = tree_hash  # type: ignore[method-assign]
    _remove_guard(cls)  # slots=True recreated the class, whose creation installed it again
    cls.__setattr__ = mutable_setattr if mutable else frozen_setattr  # type: ignore[method-assign]
    cls.__delattr__ = frozen_delattr  # type: ignore[method-assign]
    cls.__reduce__ = _reduce  # type: ignore[method-assign]
    _install_subclass_guard(cls)
    if custom_init:
        cls.__init__ = wrap_custom_init(cls.__dict__["__init__"])  # type: ignore[method-assign]
    try:
        _finish_class(cls, custom_init, caller, lenient)
    except UnresolvedField:
        setattr(cls, SPEC_ATTR, _Pending(custom_init, caller, merged["init"], lenient))
        if merged["init"] and not custom_init:
            cls.__init__ = _lazy_init  # type: ignore[method-assign]
    return cls


class _Pending:
    """A class whose field kinds wait for a forward reference (resolved at first use)."""

    __slots__ = ("caller", "custom_init", "init", "lenient")

    def __init__(
        self, custom_init: bool, caller: CallerScope | None, init: bool, lenient: bool
    ) -> None:
        self.custom_init, self.caller, self.init = custom_init, caller, init
        self.lenient = lenient


def _lazy_init(self: Any, *args: Any, **kwargs: Any) -> None:
    cls = type(self)
    owner = next(k for k in cls.__mro__ if k.__dict__.get("__init__") is _lazy_init)
    ensure_spec(owner)
    owner.__init__(self, *args, **kwargs)  # type: ignore[misc]


def ensure_spec(cls: type) -> ClassSpec:
    """The class's spec, finishing a pending class now (clear error if still unresolved)."""
    state = cls.__dict__.get(SPEC_ATTR)
    if isinstance(state, ClassSpec):
        return state
    if isinstance(state, _Pending):
        for base in cls.__mro__[1:]:
            if isinstance(base.__dict__.get(SPEC_ATTR), _Pending):
                ensure_spec(base)
        return _finish_class(
            cls, state.custom_init, state.caller, state.lenient, generate_init=state.init
        )
    raise TypeError(messages.not_a_jaxdc_class(class_name(cls)))


def _finish_class(
    cls: type,
    custom_init: bool,
    caller: CallerScope | None,
    lenient: bool,
    generate_init: bool = True,
) -> ClassSpec:
    spec = build_spec(cls, custom_init, caller, lenient)
    spec.shape_check = shape_checker(spec, caller)
    if generate_init and not custom_init and "__init__" in cls.__dict__:
        cls.__init__ = make_init(spec)  # type: ignore[misc]
    spec.replace = make_replace(spec)
    # a method, so `jaxdc.replace` calls it as `obj.__jaxdc_replace__(changes)` (see `_replace`)
    cls.__jaxdc_replace__ = spec.replace  # type: ignore[attr-defined]
    cls.__replace__ = replace  # type: ignore[attr-defined]  # what copy.replace calls (3.13+)
    setattr(cls, SPEC_ATTR, spec)
    register(spec)
    return spec


def _reduce(self: Any) -> tuple[Any, ...]:
    """Pickle by field name, so data written for another version of the class is refused
    by name (`reconstruct`) rather than assigned to the wrong fields."""
    spec = spec_of(type(self))
    assert spec is not None
    return reconstruct, (type(self), {f.name: getattr(self, f.name) for f in spec.fields})


_HEAP_TYPE = 1 << 9  # Py_TPFLAGS_HEAPTYPE: a class made by a class statement (or type())


def _check_decoratable(cls: Any, where: str) -> None:
    """Only a plain class can become a pytree dataclass. Anything else would fail later
    with an internal error, or (an Enum, a NamedTuple) half-work as a dataclass."""
    if not isinstance(cls, type):
        raise TypeError(messages.decorate_not_a_class(where, given(cls)))
    unsupported = [
        (
            issubclass(cls, enum.Enum),
            "the Enum",
            "give a pytree dataclass a Static[...] field of this Enum type instead",
        ),
        (
            issubclass(cls, tuple) and hasattr(cls, "_fields"),
            "the NamedTuple",
            "JAX already treats NamedTuples as pytrees; drop the decorator, or declare the class "
            "without the NamedTuple base",
        ),
        (
            typing_extensions.is_typeddict(cls),
            "the TypedDict",
            "JAX already treats dicts as pytrees; drop the decorator, or declare a plain class",
        ),
        (
            not cls.__flags__ & _HEAP_TYPE,  # int, str, ...: not made by a class statement
            "the built-in class",
            "decorate a class of your own (class Model: ...)",
        ),
    ]
    for applies, kind, fix in unsupported:
        if applies:
            raise TypeError(messages.decorate_unsupported_class(where, class_name(cls), kind, fix))


def reconstruct(cls: type, values: dict[str, Any] | tuple[Any, ...]) -> Any:
    """Unpickle / deepcopy: set the fields without running __init__, then seal.

    `values` maps field names to values (a tuple in data pickled by jaxdc before 0.1.0).
    Data written for another version of the class, with a field since added or removed, is
    refused naming the fields: restoring it would drop a value or leave a field unset.
    """
    spec = ensure_spec(cls)
    names = [f.name for f in spec.fields]
    if isinstance(values, dict):
        missing = [n for n in names if n not in values]
        unknown = [n for n in values if n not in names]
        if missing or unknown:
            raise TypeError(messages.unpickle_fields_changed(class_name(cls), missing, unknown))
        values = tuple(values[n] for n in names)
    elif len(values) != len(names):
        raise TypeError(messages.unpickle_field_count(class_name(cls), names, len(values)))
    obj: Any = object.__new__(cls)
    for name, value in zip(names, values, strict=True):
        object.__setattr__(obj, name, value)
    seal(obj, spec)
    return obj


def _check_bases(cls: type) -> None:
    for base in cls.__mro__[1:]:
        if dataclasses.is_dataclass(base) and not base.__dataclass_params__.frozen:  # type: ignore[attr-defined]
            raise TypeError(messages.non_frozen_base(class_name(cls), class_name(base)))


def _wrap_array_defaults(cls: type, lenient: bool, caller: CallerScope | None) -> None:
    """`x: jax.Array = jnp.zeros(3)`: JAX arrays are immutable, so sharing one default
    is safe; stdlib dataclasses (Python >= 3.11) reject it as a "mutable default". A numpy
    default is mutable and shared: an error (on the migration path a warning, and the
    default is left to dataclasses, which refuses it from Python 3.11 on, as before)."""
    for name in inspect.get_annotations(cls):
        value = cls.__dict__.get(name, dataclasses.MISSING)
        fld = value if isinstance(value, dataclasses.Field) else None
        default = fld.default if fld is not None else value
        if isinstance(default, np.ndarray):
            message = messages.numpy_default(name, class_name(cls))
            report(message, lenient=lenient, cls=cls, topic=name, origin=class_origin(cls, caller))
            continue
        if not isinstance(default, jax.Array):
            continue
        if fld is None:
            setattr(cls, name, dataclasses.field(default_factory=_Constant(default)))
        else:
            fld.default = dataclasses.MISSING
            fld.default_factory = _Constant(default)


def _check_descriptor_fields(cls: type, lenient: bool, caller: CallerScope | None) -> None:
    """A field whose class attribute is a data descriptor (`x: float = D()`, the stdlib's
    descriptor-typed field, or a base's descriptor under the field's name): refused, since
    every unflatten would run its `__set__` (on the migration path a warning, and it runs
    as before). Checked once, as dataclasses leaves the class: inherited and `init=False`
    fields included."""
    for f in dataclasses.fields(cls):
        descriptor = data_descriptor_type(cls, f.name)
        if descriptor is not None:
            message = messages.descriptor_field(f.name, class_name(cls), class_name(descriptor))
            origin = class_origin(cls, caller)
            report(message, lenient=lenient, cls=cls, topic=f"descriptor {f.name}", origin=origin)


class _Constant:
    """A default factory returning the same immutable array every time."""

    __slots__ = ("value",)

    def __init__(self, value: Any) -> None:
        self.value = value

    def __call__(self) -> Any:
        return self.value

    def __repr__(self) -> str:
        return f"<constant {type(self.value).__name__}>"


def _guarded_init(self: Any, *args: Any, **kwargs: Any) -> None:
    """An undecorated subclass's `__init__`: an error; on the migration path a warning, then
    the inherited `__init__` (the instance is a pytree leaf, as in flax and chex)."""
    cls = type(self)
    undecorated(cls)  # raises on jaxdc's path
    owner = cls
    for klass in cls.__mro__:  # the last of the guarded classes in a row
        init = klass.__dict__.get("__init__")
        if init is _guarded_init:
            owner = klass
        elif init is not None:
            break
    super(owner, self).__init__(*args, **kwargs)


def _remove_guard(cls: type) -> None:
    if cls.__dict__.get("__init__") is _guarded_init:
        delattr(cls, "__init__")


def _install_subclass_guard(cls: type) -> None:
    """Give every future subclass an `__init__` that fails until it is decorated itself.

    (An `__init__`, not a `__new__`: once a class has had `__new__` assigned, deleting it
    leaves CPython on a slot path where `object.__new__` rejects constructor arguments.)"""
    user_hook = cls.__dict__.get("__init_subclass__")

    def __init_subclass__(sub: type, **kwargs: Any) -> None:
        if "__init__" not in sub.__dict__:  # stdlib @dataclass keeps it too
            sub.__init__ = _guarded_init  # type: ignore[misc]  # processing removes it
        if user_hook is not None:
            user_hook.__func__(sub, **kwargs)
        else:
            super(cls, sub).__init_subclass__(**kwargs)  # type: ignore[arg-type]

    cls.__init_subclass__ = classmethod(__init_subclass__)  # type: ignore[assignment,arg-type]
