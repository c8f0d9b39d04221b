"""Every message jaxdc shows a user, whichever layer catches the mistake.

Literal messages and templates live here, once, so the runtime (``jaxdc``) and the mypy
plugin (``jaxdc_mypy``) cannot drift apart: each layer passes names it already knows (a
class as ``class_display`` shows it, a field, a type as ``typedesc.show`` prints it) and
gets the sentence back. The plugin pairs each sentence with its error code
(``jaxdc_mypy.messages``). ``tests/test_plugin_wording.py`` runs every family through both
layers and requires the same text.

Shape of a message: ``<what> '<field>' of class '<Class>' <problem>: <why>. Fix: <action>.``
It names the class, the field and the fix.

The file is split in sections, one per area; a helper adding messages for its area appends
to its own section (sections near the end are reserved for them).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import NamedTuple

# =========================================================================================
# How classes are shown
# =========================================================================================

_MYPY_LOCAL_MARKER = re.compile(r"@\d+")


def class_display(qualname: str) -> str:
    """A class as every message shows it: its qualified name without the function it was
    defined in (``Outer.Inner``; ``make.<locals>.Cfg`` -> ``Cfg``). mypy's markers for
    classes defined in functions (``Cfg@12``) are dropped too."""
    name = qualname.rsplit("<locals>.", 1)[-1]
    return _MYPY_LOCAL_MARKER.sub("", name) if "@" in name else name


def qualname_in(fullname: str, module: str) -> str:
    """``pkg.mod.Outer.Inner`` in module ``pkg.mod`` -> ``Outer.Inner`` (mypy's fullnames)."""
    prefix = module + "."
    return fullname[len(prefix) :] if module and fullname.startswith(prefix) else fullname


# =========================================================================================
# Static fields and jit parameters of unhashable type (class definition; mypy + plugin)
# =========================================================================================


class Problem(NamedTuple):
    """Why a type fails a rule: a row of the tables below, and what fills it in."""

    kind: str
    subject: str = ""
    """The offending class, as shown (``'{T}'`` in the tables)."""
    part: str = ""
    """The offending part of the field's type, as shown."""
    via: str = ""
    """For a dataclass or NamedTuple: its field that holds the unhashable value."""
    inner: Problem | None = None
    """For a dataclass or NamedTuple: that field's own problem."""
    base: str = ""
    """For ``hash-none``: the class whose ``__hash__`` is None (``'{B}'``)."""


STATIC_TEMPLATE = (
    "static field '{field}' of class '{cls}' has unhashable type '{type}': {reason}. "
    "Static values are part of the treedef and used as jit cache keys, so they must be "
    "hashable. Fix: {fix}."
)
JIT_STATIC_TEMPLATE = (
    "static parameter '{field}' of jitted function '{cls}' has unhashable type '{type}': "
    "{reason}. Static arguments are used as jit cache keys, so they must be hashable. "
    "Fix: {fix}."
)
_IMMUTABLE_FIX = (
    "use an immutable type such as tuple[...] or frozenset[...], or make '{field}' a data field"
)
# kind -> (reason, fix); {T}: offending class, {B}: base, {via}: its field, {field}: ours.
_STATIC_ROWS = {
    "mutable": ("'{T}' is mutable and not hashable", _IMMUTABLE_FIX),
    "typeddict": (
        "TypedDict '{T}' is a dict, which is mutable and not hashable",
        "use a NamedTuple or a frozen dataclass instead of '{T}', or make '{field}' a data field",
    ),
    "hash-none": ("'{T}' is not hashable ('{B}' sets __hash__ to None)", _IMMUTABLE_FIX),
    "array": (
        "arrays are not hashable",
        "make '{field}' a data field (drop Static[...] / static=True)",
    ),
    "not-frozen": (
        "dataclass '{T}' is not frozen",
        "declare '{T}' with @dataclass(frozen=True)",
    ),
    "eq-without-hash": (
        "'{T}' defines __eq__ but not __hash__",
        "define __hash__ on '{T}'",
    ),
    "frozen-field": (
        "frozen dataclass '{T}' has field '{via}' of unhashable type '{inner_type}' "
        "({inner_reason})",
        "make '{field}' a data field, or give '{T}.{via}' a hashable type",
    ),
    "hashed-field": (
        "dataclass '{T}' (unsafe_hash=True) hashes its field '{via}' of unhashable type "
        "'{inner_type}' ({inner_reason})",
        "make '{field}' a data field, or give '{T}.{via}' a hashable type",
    ),
    "tuple-field": (
        "NamedTuple '{T}' has field '{via}' of unhashable type '{inner_type}' ({inner_reason})",
        "make '{field}' a data field, or give '{T}.{via}' a hashable type",
    ),
}
# A jit parameter is not a field: where the runtime's fix says "data field", say this.
_JIT_FIXES = {
    "mutable": "use an immutable type such as tuple[...] or frozenset[...], or drop "
    "Static[...] from '{field}'",
    "hash-none": "use an immutable type such as tuple[...] or frozenset[...], or drop "
    "Static[...] from '{field}'",
    "typeddict": "use a NamedTuple or a frozen dataclass instead of '{T}', or drop "
    "Static[...] from '{field}'",
    "array": "drop Static[...] from '{field}' so the array is traced",
    "frozen-field": "drop Static[...] from '{field}', or give '{T}.{via}' a hashable type",
    "hashed-field": "drop Static[...] from '{field}', or give '{T}.{via}' a hashable type",
    "tuple-field": "drop Static[...] from '{field}', or give '{T}.{via}' a hashable type",
}


def _reason(problem: Problem, field: str) -> str:
    values = {"T": problem.subject, "B": problem.base, "via": problem.via, "field": field}
    if problem.inner is not None:
        values["inner_type"] = problem.inner.part
        values["inner_reason"] = _reason(problem.inner, field)
    reason = _STATIC_ROWS[problem.kind][0]
    if problem.kind == "hash-none" and problem.base == problem.subject:
        reason = "'{T}' is not hashable (it sets __hash__ to None)"
    return reason.format(**values)


def _unhashable(template: str, name: str, owner: str, problem: Problem, fix: str) -> str:
    """Fill a static-field or jit-parameter template: `name` of `owner` is unhashable."""
    return template.format(
        field=name,
        cls=owner,
        type=problem.part,
        reason=_reason(problem, name),
        fix=fix.format(T=problem.subject, B=problem.base, via=problem.via, field=name),
    )


def static_unhashable(field: str, cls: str, problem: Problem) -> str:
    """A static field whose *type* is unhashable (class definition / mypy)."""
    return _unhashable(STATIC_TEMPLATE, field, cls, problem, _STATIC_ROWS[problem.kind][1])


def jit_static_unhashable(param: str, function: str, problem: Problem) -> str:
    """A ``jaxdc.jit`` parameter annotated ``Static[...]`` whose type is unhashable."""
    fix = _JIT_FIXES.get(problem.kind, _STATIC_ROWS[problem.kind][1])
    return _unhashable(JIT_STATIC_TEMPLATE, param, function, problem, fix)


# =========================================================================================
# Data fields whose type is not array-like (mypy + plugin)
# =========================================================================================

DATA_TEMPLATE = (
    "data field '{field}' of class '{cls}' has type '{type}', which is not array-like: "
    "{reason}. Data fields are pytree children that JAX traces as arrays. Fix: {fix}."
)
ANY_TEMPLATE = (
    "data field '{field}' of class '{cls}' has type '{type}', so it is not checked to be "
    "array-like. Fix: annotate it with an array type such as jax.Array, or declare it "
    "Static[...] if it is configuration."
)
_DATA_ROWS = {
    "not-array": (
        "'{T}' is not an array type or a pytree class",
        "declare it Static[{type}] if it is configuration, or list '{T}' under "
        "extra_pytree_bases or extra_array_types in [tool.jaxdc-mypy] if JAX can trace it",
    ),
    "text": (
        "'{T}' is not an array type",
        "declare it Static[{type}] if it is configuration",
    ),
    "container": (
        "JAX flattens lists, tuples and dicts only, so a '{T}' value would be one leaf, "
        "which jit rejects",
        "annotate it list[...], tuple[...] or Sequence[...] (dict[...] or Mapping[...] for a "
        "mapping) and pass one of those",
    ),
    "callable": (
        "a callable is not an array",
        "declare it Static[{type}] (functions are hashable)",
    ),
    "class-object": (
        "a class object is not an array",
        "declare it Static[{type}]",
    ),
}


def data_not_arraylike(field: str, cls: str, type_: str, problem: Problem) -> str:
    reason, fix = _DATA_ROWS[problem.kind]
    values = {"T": problem.subject, "field": field, "type": type_}
    return DATA_TEMPLATE.format(
        field=field, cls=cls, type=type_, reason=reason.format(**values), fix=fix.format(**values)
    )


def data_any(field: str, cls: str, type_: str) -> str:
    return ANY_TEMPLATE.format(field=field, cls=cls, type=type_)


# =========================================================================================
# Static values (construction, replace, copy_and_mutate)
# =========================================================================================


def static_value_array(field: str, cls: str, shown: str, inside: str | None) -> str:
    """A static field got an array (``inside``: the array type, when nested in ``shown``)."""
    found = f" containing a '{inside}'" if inside else ""
    return (
        f"static field '{field}' of class '{cls}' got a value of type '{shown}'{found}: "
        f"arrays are not hashable, so they cannot be static. Fix: make '{field}' a data "
        f"field (drop Static[...] / static=True), or pass a tuple of Python scalars if it is "
        f"a small constant."
    )


def static_value_unhashable(field: str, cls: str, shown: str, detail: str) -> str:
    """A static field got a value ``hash()`` rejects (``detail``: Python's own words)."""
    return (
        f"static field '{field}' of class '{cls}' got a value of type '{shown}', which is "
        f"not hashable ({detail}). Static values are jit cache keys. Fix: pass an immutable "
        f"value (a tuple instead of a list, a frozenset instead of a set), or make '{field}' "
        f"a data field."
    )


def static_value_not_comparable(field: str, cls: str, shown: str, detail: str) -> str:
    """jit compared an accepted unhashable static value (migration path) with another one,
    and ``==`` gave no bool (``detail``: what it raised)."""
    return (
        f"static field '{field}' of class '{cls}' holds a value of type '{shown}' that "
        f"cannot be compared with == ({detail}). jit compares static values to find its "
        f"compiled code, so such a value works only while the very same object is passed "
        f"again. Fix: make '{field}' a data field, or hold a hashable value (a tuple of "
        f"Python scalars instead of an array)."
    )


def data_value_not_traceable(field: str, cls: str, shown: str, path: str) -> str:
    """jit met a data field holding a value it cannot trace (a function, a string)."""
    return (
        f"data field '{field}' of class '{cls}' holds a value of type '{shown}' (at {path}), "
        f"which jit cannot trace: data fields are pytree children that JAX traces as arrays. "
        f"Fix: make '{field}' a static field (Static[...], field(static=True), or flax's "
        f"field(pytree_node=False)) if it is configuration, or hold an array."
    )


# =========================================================================================
# Field kinds (class definition)
# =========================================================================================


def unresolved_field(field: str, cls: str, annotation: str, missing: str) -> str:
    """A field whose kind cannot be decided: its annotation names an undefined name."""
    return (
        f"cannot tell whether field '{field}' of class '{cls}' is static: its annotation "
        f"{annotation} names '{missing}', which is not defined at runtime (imported only "
        f"under TYPE_CHECKING, or not defined yet?). Fix: make '{missing}' importable at "
        f"runtime, or state the kind explicitly with jaxdc.field(static=False) for a data "
        f"field or jaxdc.field(static=True)."
    )


def static_annotation_conflict(field: str, cls: str) -> str:
    return (
        f"field '{field}' of class '{cls}' is annotated Static[...] but declared "
        f"jaxdc.field(static=False). Fix: drop one of them."
    )


FIELD_STATIC_AND_EXCLUDED = (
    "jaxdc.field(static=True, pytree=False): a field is either static (part of the "
    "treedef) or left out of the pytree, not both. Fix: drop one of them."
)


FIELD_CONVERTER_AND_EXCLUDED = (
    "jaxdc.field(converter=..., pytree=False): a field left out of the pytree holds its "
    "default, unconverted, after jit, vmap or tree_map (unflatten never calls a converter). "
    "Fix: give the field its converted default and drop converter=."
)


def converter_returns(field: str, cls: str, converter: str, returns: str, declared: str) -> str:
    """A converter whose return type the field's declared type does not accept (mypy plugin;
    pyright, basedpyright and ty report the same mistake in their own words)."""
    return (
        f"the converter {converter} of field '{field}' of class '{cls}' returns '{returns}', "
        f"which the field's type '{declared}' does not accept: the field holds what the "
        f"converter returns. Fix: declare the field '{returns}', or convert to '{declared}'."
    )


def field_static_and_pytree_node(static: bool, pytree_node: bool) -> str:
    """``field(static=..., pytree_node=...)`` saying opposite things."""
    return (
        f"jaxdc.field(static={static}, pytree_node={pytree_node}): pytree_node=False is "
        f"flax's spelling of static=True, so these contradict each other. Fix: keep one of "
        f"them."
    )


def excluded_without_default(field: str, cls: str) -> str:
    return (
        f"field '{field}' of class '{cls}' is left out of the pytree (pytree=False) but has "
        f"no default: after jit/vmap/tree_map it would be unset, because jaxdc never re-runs "
        f"__init__/__post_init__ on unflatten. Fix: give it a default, or drop pytree=False "
        f"to carry it in the pytree."
    )


# =========================================================================================
# Construction, and assigning fields of frozen instances
# =========================================================================================

_EXCLUDED_FIX = (
    "Fix: drop pytree=False to carry it in the pytree (Static[...] if it is configuration), "
    "or compute it in a property."
)


def excluded_in_construction(field: str, cls: str) -> str:
    """An excluded field assigned in ``__init__``/``__post_init__`` (runtime and plugin)."""
    return (
        f"field '{field}' of class '{cls}' is left out of the pytree (pytree=False), so a "
        f"value set during construction would be lost after jit/vmap/tree_map (jaxdc never "
        f"re-runs __init__/__post_init__ on unflatten). {_EXCLUDED_FIX}"
    )


def non_field_in_construction(name: str, cls: str) -> str:
    """An attribute that is not a field assigned on ``self`` in ``__init__``/``__post_init__``
    (runtime): the pytree carries fields only, so the value would vanish on unflatten."""
    return (
        f"attribute '{name}' of class '{cls}' is not a field, so a value set during "
        f"construction would be lost after jit/vmap/tree_map/replace (jaxdc never re-runs "
        f"__init__/__post_init__ on unflatten). Fix: declare it as a field "
        f"(`{name}: T = jaxdc.field(init=False)`), or compute it in a property."
    )


def excluded_set_in_construction(field: str, cls: str) -> str:
    """An excluded field changed behind the frozen ``__setattr__`` (``object.__setattr__``),
    found when construction finishes."""
    return (
        f"field '{field}' of class '{cls}' is left out of the pytree (pytree=False), but "
        f"construction (__init__/__post_init__, e.g. with object.__setattr__) changed it: "
        f"the value would be lost after jit/vmap/tree_map, which restore its default. "
        f"{_EXCLUDED_FIX}"
    )


def excluded_given(field: str, cls: str) -> str:
    """A value passed to the constructor for an excluded field."""
    return (
        f"field '{field}' of class '{cls}' is left out of the pytree (pytree=False), so the "
        f"value passed for it would be lost after jit/vmap/tree_map, which restore its "
        f"default. Fix: declare it jaxdc.field(pytree=False, init=False, default=...) if it "
        f"is a fixed value, or drop pytree=False to carry it in the pytree (Static[...] if "
        f"it is configuration)."
    )


def field_not_set(field: str, cls: str, *, init: bool) -> str:
    """A field still unset when construction finishes."""
    if not init:
        return (
            f"field '{field}' of class '{cls}' (init=False) was not set during construction. "
            f"Fix: assign it in __post_init__ (self.{field} = ...) or give it a default."
        )
    return (
        f"field '{field}' of class '{cls}' was not set by __init__. A custom __init__ must "
        f"assign every field (self.{field} = ...) or the field needs a default."
    )


def frozen_assignment(path: str | None, cls: str, *, is_field: bool = True) -> str:
    """Assigning a field of a finished instance: the runtime's `FrozenInstanceError`, and
    the plugin's diagnostic on ``jaxdc.attr(...).set()`` outside the places it is allowed
    (``path``: the attribute path, ``a.b``; None when the plugin cannot read it)."""
    if path is None:
        target, first, example = "a field", "field", "field"
    else:
        target = f"{'field' if is_field else 'attribute'} '{path}'"
        first, example = re.split(r"[.[]", path, maxsplit=1)[0], path
    return (
        f"cannot assign to {target} of '{cls}': jaxdc instances are frozen, like JAX arrays; "
        f"fields can be set only on `self` in __init__/__post_init__ or inside `with "
        f"jaxdc.copy_and_mutate(...)`. Fix: jaxdc.replace(obj, {first}=...), or `with "
        f"jaxdc.copy_and_mutate(obj) as new: new.{example} = ...` (spelled "
        f"`jaxdc.attr(new, lambda n: n.{example}).set(...)` where type checkers must accept "
        f"it)."
    )


def frozen_delete(name: str, cls: str) -> str:
    return (
        f"cannot delete field '{name}' of '{cls}': jaxdc instances are frozen and every "
        f"field is part of the pytree. Fix: jaxdc.replace(obj, {name}=...) to change it."
    )


def edit_no_such_field(name: str, cls: str, fields: Iterable[str]) -> str:
    """Assigning a name that is not a pytree field inside a ``copy_and_mutate`` block."""
    return (
        f"cannot assign '{name}' in copy_and_mutate: class '{cls}' has no pytree field "
        f"'{name}' (fields: {', '.join(fields)}; fields left out of the pytree keep their "
        f"defaults)."
    )


def undecorated_subclass(cls: str, parent: str) -> str:
    return (
        f"class '{cls}' subclasses the pytree dataclass '{parent}' but is not decorated "
        f"itself, so JAX would treat its instances as opaque leaves. Fix: decorate '{cls}' "
        f"with @jaxdc.pytree_dataclass (subclasses of jaxdc.PyTreeNode are decorated "
        f"automatically)."
    )


# =========================================================================================
# The decorator and its options
# =========================================================================================


def unknown_options(where: str, unknown: Iterable[str], valid: Iterable[str]) -> str:
    return (
        f"{where}() got unknown option(s) {', '.join(map(repr, unknown))}; valid options: "
        f"{', '.join(valid)}."
    )


def not_frozen_option(where: str) -> str:
    return (
        f"{where}(frozen=False): jaxdc classes are always frozen, like JAX arrays (a mutable "
        f"pytree node breaks jit caching and tracing). Fix: drop frozen=False; edit "
        f"instances with jaxdc.replace(...) or jaxdc.copy_and_mutate(...)."
    )


def already_decorated(cls: str, name: str) -> str:
    """Options passed to the decorator of a class that is already a jaxdc class."""
    return (
        f"class '{cls}' is already a jaxdc pytree dataclass (subclasses of jaxdc.PyTreeNode "
        f"are decorated automatically). Fix: pass options as class keywords, e.g. class "
        f"{name}(PyTreeNode, kw_only=True)."
    )


def stacked_dataclass(cls: str, *, node: bool = False) -> str:
    """``@dataclasses.dataclass`` on a jaxdc class (``node``: a ``PyTreeNode`` subclass)."""
    jaxdc = "subclasses jaxdc.PyTreeNode" if node else "is decorated with @jaxdc.pytree_dataclass"
    keep = "class keywords" if node else "@jaxdc.pytree_dataclass(...)"
    return (
        f"class '{cls}' {jaxdc} and with @dataclasses.dataclass; jaxdc makes the class a "
        f"frozen dataclass itself, and dataclasses cannot process a class twice. Fix: drop "
        f"@dataclass (pass any dataclass options as {keep})."
    )


def not_a_jaxdc_class(cls: str) -> str:
    return f"'{cls}' is not a jaxdc pytree dataclass"


def non_frozen_base(cls: str, base: str) -> str:
    return (
        f"class '{cls}' derives from the non-frozen dataclass '{base}'; jaxdc classes are "
        f"frozen and dataclasses cannot mix the two. Fix: declare '{base}' with "
        f"@dataclass(frozen=True)."
    )


def numpy_default(field: str, cls: str) -> str:
    return (
        f"field '{field}' of class '{cls}' has a numpy.ndarray default, which is mutable and "
        f"would be shared by every instance. Fix: use an immutable JAX array "
        f"(jnp.asarray(...)) or jaxdc.field(default_factory=...)."
    )


def pytree_node_slots(name: str) -> str:
    return (
        f"class {name}(PyTreeNode, slots=True): a base class cannot swap the class being "
        f"created for a slotted copy. Fix: decorate it instead: "
        f"@jaxdc.pytree_dataclass(slots=True) class {name}: ..."
    )


# =========================================================================================
# replace
# =========================================================================================


def replace_unknown_fields(unknown: Iterable[str], cls: str, fields: Iterable[str]) -> str:
    return (
        f"replace() got unknown field(s) {', '.join(map(repr, unknown))} for class '{cls}'; "
        f"its fields are: {', '.join(fields)}."
    )


# =========================================================================================
# == and hash of instances
# =========================================================================================


def instance_unhashable(cls: str, field: str, what: str) -> str:
    """``hash(obj)`` where field ``field`` holds ``what`` (an array, a 'list', ...)."""
    return (
        f"instance of '{cls}' is not hashable: field '{field}' holds {what}, which is not "
        f"hashable. Instances holding arrays compare by value and cannot be dict keys, set "
        f"members or static values. Fix: key by id(obj), or keep only hashable values in "
        f"the fields of a class used that way."
    )


def traced_comparison(cls: str, field: str) -> str:
    return (
        f"cannot compare instances of '{cls}' with ==: field '{field}' holds a traced array "
        f"(inside jit/vmap/grad), which has no value yet. Fix: compare outside the "
        f"transformation, or explicitly, e.g. jax.tree.map(jnp.array_equal, a, b)."
    )


# =========================================================================================
# jaxdc.attr paths
# =========================================================================================

NOT_A_PATH = (
    "jaxdc.attr() expects a function returning an attribute path of its argument, such as "
    "`lambda o: o.a.b` or `lambda o: o.layers[0].w`"
)


def attr_path_ends_in_item(path: str) -> str:
    """A ``jaxdc.attr`` path whose last step is a subscript (``lambda o: o.layers[0]``)."""
    return (
        f"jaxdc.attr() assigns an attribute, but `lambda o: o{path}` ends in a subscript. "
        f"Fix: assign the item directly (`new{path} = value`), or name an attribute of it "
        f"(`lambda o: o{path}.w`)."
    )


# =========================================================================================
# mypy plugin configuration
# =========================================================================================


def config_unreadable(config_file: str, error: object) -> str:
    return f"{config_file}: cannot read the jaxdc-mypy settings: {error}"


def config_not_a_table(where: str) -> str:
    return f"{where} must be a table"


def config_unknown_setting(where: str, key: str, known: Iterable[str]) -> str:
    return f"{where}: unknown setting '{key}' (known settings: {', '.join(known)})"


def config_not_a_list(where: str) -> str:
    return f"{where} must be a list of fully qualified class names"


def config_not_a_class_name(where: str, name: str) -> str:
    return (
        f"{where}: '{name}' is not a fully qualified class name (expected 'package.module.Class')"
    )


def config_not_a_bool(where: str, raw: object) -> str:
    return f"{where} must be true or false, not {raw!r}"


def config_name_not_found(setting: str, name: str, why: str) -> str:
    """A configured class name that does not resolve (a warning: mypy carries on)."""
    return (
        f"[tool.jaxdc-mypy] {setting}: '{name}' {why}, so it has no effect. Fix: write the "
        f"fully qualified name of a class, as you would import it (e.g. 'equinox.Module')."
    )


# =========================================================================================
# mypy plugin: assigning fields, Static[...] under jax.jit (appended by the checkers owner)
# =========================================================================================


def read_only_note(name: str, cls: str) -> str:
    """The note under mypy's "Property ... is read-only" for a field of a jaxdc instance."""
    return (
        f"'{cls}' is a frozen jaxdc class: its fields can be set only on `self` in "
        f"__init__/__post_init__, or on the copy inside `with jaxdc.copy_and_mutate(...)`. "
        f"Fix: jaxdc.replace(obj, {name}=...), or `with jaxdc.copy_and_mutate(obj) as new: "
        f"new.{name} = ...`."
    )


def jax_jit_ignores_static(param: str, function: str) -> str:
    """A ``Static[...]`` parameter of a function jitted with ``jax.jit``, not made static."""
    return (
        f"parameter '{param}' of '{function}' is annotated Static[...], but jax.jit does not "
        f"read that annotation: it traces '{param}' like an array argument. Fix: decorate "
        f"'{function}' with @jaxdc.jit, which makes Static[...] parameters static, or pass "
        f"static_argnames=('{param}',) to jax.jit."
    )


# =========================================================================================
# mypy plugin: float statics (opt-in `warn_float_statics`, issue 17; appended by pluginfix)
# =========================================================================================
# A float static is hashable, so nothing else reports it; but a learning rate or a scale
# takes a new value on most calls, and each new value is a new jit cache key.

_FLOAT_STATIC_REASON = (
    "a {kind} static recompiles on every new value (each value is a new jit cache key, so "
    "jit traces and compiles again)"
)


def float_static_field(field: str, cls: str, type_: str, kind: str) -> str:
    """A static field typed ``float``/``complex`` (``kind``), or Optional of one
    (``warn_float_statics = true``)."""
    reason = _FLOAT_STATIC_REASON.format(kind=kind)
    return (
        f"static field '{field}' of class '{cls}' has type '{type_}': {reason}. "
        f"Fix: make '{field}' a data field: jax.Array."
    )


def float_static_parameter(param: str, function: str, type_: str, kind: str) -> str:
    """A ``jaxdc.jit`` parameter annotated ``Static[float]``/``Static[complex]``."""
    reason = _FLOAT_STATIC_REASON.format(kind=kind)
    return (
        f"static parameter '{param}' of jitted function '{function}' has type '{type_}': "
        f"{reason}. Fix: make '{param}' a data parameter (drop Static[...]) and pass a "
        f"jax.Array."
    )


# =========================================================================================
# copy_and_mutate (appended by the copy_and_mutate owner)
# =========================================================================================
# Assigning an unknown name inside a block is `edit_no_such_field` (above), shared with the
# root's frozen __setattr__.


EDIT_NEEDS = "an instance of a jaxdc pytree dataclass (or a list or dict of them)"
EDIT_TUPLE_FIX = "pass a list (a tuple cannot be edited in place)"
EDIT_OTHER_FIX = "for other pytrees use jax.tree_util or equinox.tree_at"


EDIT_ENTERED_TWICE = "a copy_and_mutate(...) context can be entered only once"


def edit_other_open_block(cls: str) -> str:
    """A node taken from one open block, met by another block."""
    return (
        f"copy_and_mutate() met a '{cls}' taken from another copy_and_mutate block that is "
        f"still open. Fix: edit it through that block's copy directly; it is already "
        f"editable there."
    )


def edit_after_block(name: str, cls: str) -> str:
    """Assigning a field of a node read inside a block, after the block has ended."""
    return (
        f"cannot assign to field '{name}' of '{cls}': this object was read inside a "
        f"copy_and_mutate block that has ended, so it is frozen. Fix: assign inside the block."
    )


def edit_rejected(path: str, what: str) -> str:
    """What ``validate=True`` reports at exit (``path``: ``new.a.b``; ``what``: below)."""
    return (
        f"copy_and_mutate(validate=True): {path}: {what}. Fix: assign a value of the same "
        f"structure, shape and dtype, or pass validate=False if the change is intended."
    )


def edit_field_changed(field: str, cls: str, what: str) -> str:
    return f"field '{field}' of class '{cls}': {what}"


def edit_static_changed(field: str, cls: str, old: object, new: object) -> str:
    return (
        f"static field '{field}' of class '{cls}' changed from {old!r} to {new!r}, which "
        f"changes the tree structure"
    )


def edit_tree_changed(old: str, new: str) -> str:
    return f"tree structure changed from {old} to {new}"


def edit_leaf_changed(what: str, old: str, new: str) -> str:
    """``what``: ``shape`` or ``dtype``; ``old``/``new``: the leaves as shown (``f32[3]``)."""
    return f"{what} changed from {old} to {new}"


def edit_array_leaf_replaced(old: str, new: str) -> str:
    """An array leaf replaced by a non-array one, or the other way round."""
    return (
        f"changed from {old} to {new} (an array leaf and a non-array leaf cannot stand in "
        f"for each other)"
    )


def edit_list_length(old: int, new: int) -> str:
    return f"list length changed from {old} to {new}"


def edit_dict_keys(old: list[object], new: list[object]) -> str:
    return f"dict keys changed from {old} to {new}"


# =========================================================================================
# jit at runtime (appended by the jit owner)
# =========================================================================================


def jit_static_unresolved(param: str, function: str, annotation: str, missing: str) -> str:
    """A ``jaxdc.jit`` parameter whose annotation mentions ``Static`` but names something
    that is not defined at runtime when the function is first called."""
    return (
        f"cannot tell whether parameter '{param}' of '{function}' is static: its annotation "
        f"{annotation} names '{missing}', which is not defined at runtime. Fix: make "
        f"'{missing}' importable at runtime, or pass static_argnames=... to jaxdc.jit "
        f"explicitly."
    )


def jit_static_variadic(param: str, function: str) -> str:
    return (
        f"parameter '{param}' of '{function}' is variadic and annotated Static[...]: jax.jit "
        f"can only make named parameters static. Fix: give each static value its own "
        f"parameter."
    )


def jit_static_value_array(param: str, function: str) -> str:
    """An array passed for a ``Static[...]`` parameter of a ``jaxdc.jit`` function."""
    return (
        f"static parameter '{param}' of '{function}' got an array: arrays are not hashable, "
        f"so they cannot be static (jit cache keys). Fix: drop Static[...] from '{param}' so "
        f"the array is traced, or pass a tuple of Python scalars."
    )


def jit_static_value_unhashable(param: str, function: str, type_name: str) -> str:
    """An unhashable value passed for a ``Static[...]`` parameter of a ``jaxdc.jit``
    function."""
    return (
        f"static parameter '{param}' of '{function}' got a value of type '{type_name}', which "
        f"is not hashable; static arguments are jit cache keys. Fix: pass an immutable value "
        f"(a tuple instead of a list, a frozenset instead of a set), or drop Static[...] "
        f"from '{param}' to trace it."
    )


def jit_static_value_unknown(function: str) -> str:
    """JAX reported an unhashable static argument the wrapper could not attribute."""
    return f"a static argument of '{function}' is not hashable"


# =========================================================================================
# serialization (appended by the serialization owner)
# =========================================================================================


STATE_DICT = "a state dict (a dict keyed by field names, as to_state_dict makes)"


def state_not_a_dict(path: str, keys: Iterable[str], owner: str, got: str) -> str:
    return f"{path}: expected a dict with keys {list(keys)} for '{owner}', got '{got}'"


def state_keys(
    path: str,
    owner: str,
    keys: Iterable[str],
    missing: Iterable[str],
    unknown: Iterable[str],
    static: Iterable[str],
) -> str:
    """A state dict whose keys differ from the target's; ``static``: unknown keys that are
    static fields of the target (not saved: they come from the target)."""
    missing, unknown, static = list(missing), list(unknown), list(static)
    what = "; ".join(
        part
        for part in (
            f"missing key(s) {missing}" if missing else "",
            f"unknown key(s) {unknown}" if unknown else "",
        )
        if part
    )
    hint = (
        f" (static fields such as {static} are not saved: they come from the target)"
        if static
        else ""
    )
    return f"{path}: {what} for '{owner}'; expected keys: {list(keys)}{hint}"


def state_length(path: str, expected: int, got: int) -> str:
    return f"{path}: expected {expected} items, the state has {got}"


def state_leaf_kind(path: str, got: str, target: str, *, structure: bool = False) -> str:
    """A leaf of another kind than the target's (``got``/``target``: "None", "a dict",
    "an array of shape (3,)", "a 'str'"); ``structure``: restoring it would add or remove a
    leaf (None on one side)."""
    why = " (restoring it would change the tree structure)" if structure else ""
    return f"{path}: {got} in the state, the target has {target}{why}"


def state_shape(path: str, got: tuple[int, ...], target: tuple[int, ...]) -> str:
    return f"{path}: shape {got} in the state, the target has {target}"


def state_dtype(path: str, got: str, target: str) -> str:
    return f"{path}: dtype {got} in the state, the target has {target}"


# =========================================================================================
# pickling and decorating what cannot be a pytree dataclass (appended by the reliability
# helper)
# =========================================================================================


def unpickle_fields_changed(cls: str, missing: Iterable[str], unknown: Iterable[str]) -> str:
    """Pickled data written for another version of the class (fields added or removed)."""
    parts = []
    missing, unknown = list(missing), list(unknown)
    if unknown:
        parts.append(f"it holds field(s) {unknown} that class '{cls}' no longer has")
    if missing:
        parts.append(f"it lacks field(s) {missing} that class '{cls}' has now")
    return (
        f"cannot unpickle an instance of '{cls}': the data was written for another version "
        f"of the class ({'; '.join(parts)}), and restoring it would drop or invent values. "
        f"Fix: load it with the version that wrote it and convert it explicitly (e.g. "
        f"through jaxdc.to_state_dict)."
    )


def unpickle_field_count(cls: str, fields: Iterable[str], count: int) -> str:
    """The older positional format: a tuple of values whose length does not match."""
    fields = list(fields)
    return (
        f"cannot unpickle an instance of '{cls}': the data holds {count} field value(s), the "
        f"class has {len(fields)} ({', '.join(fields)}), so it was written for another "
        f"version of the class. Fix: load it with the version that wrote it and convert it "
        f"explicitly."
    )


def static_alias_arguments(given: int) -> str:
    """``S[int, str]`` for ``S = jdc.Static`` (mypy's own wording for other aliases)."""
    return f"Bad number of arguments for type alias, expected 1, given {given}"


def decorate_not_a_class(where: str, what: str) -> str:
    """``@pytree_dataclass`` on a function, an instance, a module, ..."""
    return (
        f"{where}() decorates classes, got {what}. Fix: put @{where} on a class statement "
        f"(class Model: ...)."
    )


def decorate_unsupported_class(where: str, cls: str, kind: str, fix: str) -> str:
    """``@pytree_dataclass`` on an Enum, a NamedTuple, a TypedDict or a built-in class."""
    return f"{where}() cannot make {kind} '{cls}' a pytree dataclass. Fix: {fix}."


# =========================================================================================
# replace: what it refuses (appended by the make_replace owner)
# =========================================================================================


def replace_initvar_ignored(name: str, cls: str) -> str:
    """An InitVar given to ``replace`` of a class whose ``replace`` skips ``__post_init__``."""
    return (
        f"replace() got InitVar '{name}' for class '{cls}', which has its own __init__: "
        f"replace() does not run __post_init__ for it, so the value would be ignored. Fix: "
        f"construct a new instance, or drop '{name}'."
    )


def replace_excluded_field(name: str, cls: str) -> str:
    return (
        f"replace() cannot set field '{name}' of class '{cls}': it is left out of the pytree "
        f"(pytree=False), so the new value would silently revert to its default after "
        f"jit/vmap/tree_map. Fix: carry it in the pytree (drop pytree=False), or build a new "
        f"instance."
    )


def replace_initvar_missing(name: str, cls: str) -> str:
    return (
        f"replace() on class '{cls}': InitVar '{name}' must be specified with replace(), as "
        f"with dataclasses.replace(): __post_init__ runs again and takes it, and it has no "
        f"default. Fix: jaxdc.replace(obj, ..., {name}=...)."
    )


# =========================================================================================
# shapes (appended by the shapes owner)
# =========================================================================================
# Construction of `check_shapes=True` classes (runtime). A mismatch reads
#   field 'y' of class 'Batch': <problem> (<annotation>, got <value>)
# where the parenthesis describes the field the problem is about: this one, or, for a
# dimension another field bound first, that field ("4 from field 'x' (...)").


def shape_error(field: str, cls: str, problem: str) -> str:
    return f"field '{field}' of class '{cls}': {problem}"


def shape_seen(problem: str, annotation: str, got: str) -> str:
    """A problem completed with the annotation it was checked against and the value."""
    return f"{problem} ({annotation}, got {got})"


def shape_dtype(got: str, expected: str) -> str:
    return f"dtype {got} is not {expected}"


def shape_python_scalar(kind: str) -> str:
    """How a Python scalar's dtype is shown (``float`` -> 'float (a Python float)')."""
    return f"{kind} (a Python {kind})"


def shape_rank(expected: int, got: int, *, at_least: bool) -> str:
    axes = "1 dimension" if expected == 1 else f"{expected} dimensions"
    return f"expected {'at least ' if at_least else ''}{axes}, got {got}"


def shape_fixed(axis: int, size: object, expected: int, *, broadcastable: bool) -> str:
    return f"axis {axis} is {size}, expected {expected}{' or 1' if broadcastable else ''}"


def shape_dim(name: str, size: object) -> str:
    return f"dimension '{name}' is {size}"


def shape_variadic(name: str, sizes: object, *, batch: bool) -> str:
    """A variadic dimension's sizes (``batch``: the ``Annotated`` form's shared ``...``)."""
    return f"batch axes are {sizes}" if batch else f"dimensions '*{name}' are {sizes}"


def shape_conflict(
    here: str, there: object, other: str, annotation: str, got: str, relation: str = ""
) -> str:
    """``here`` (a ``shape_dim``/``shape_variadic``) against what field ``other`` bound.
    ``relation`` replaces "but" for broadcast failures ("which do not broadcast with")."""
    joined = f"here, {relation}" if relation else "here but"
    return shape_seen(f"{here} {joined} {there} from field '{other}'", annotation, got)


def shape_conflict_in_field(here: str, axis: int, there: object, first_axis: int) -> str:
    """A name used twice in one annotation (``"n n"``) with two sizes."""
    return f"{here} at axis {axis} but {there} at axis {first_axis}"


def shape_symbolic(expr: str, size: object, expected: object, known: str) -> str:
    """``known``: the bound names the expression uses, ``n=3, m=4`` (may be empty)."""
    return f"dimension '{expr}' is {size} here but {expected}{f' ({known})' if known else ''}"


def shape_unbound(expr: str, name: str) -> str:
    return f"dimension '{expr}' cannot be evaluated: no field binds '{name}'"


def shape_cannot_evaluate(expr: str, error: BaseException) -> str:
    return f"dimension '{expr}' cannot be evaluated: {type(error).__name__}: {error}"


def shape_no_alternative(got: str, reasons: Iterable[tuple[str, str]]) -> str:
    """A union of array annotations none of which fits: ``(annotation, problem)`` each."""
    listed = "; ".join(f"{annotation}: {problem}" for annotation, problem in reasons)
    return f"{got} matches none of its alternatives ({listed})"


def shape_child_batch(child: object, batch: object, other: str, annotation: str, got: str) -> str:
    """``EnforcedAnnotationsMixin``: a child's batch axes must start with the parent's."""
    return shape_seen(
        f"its batch axes {child} do not start with the batch axes {batch} from field '{other}'",
        annotation,
        got,
    )


def shape_no_batch_axes(cls: str) -> str:
    return (
        f"class '{cls}' has no batch axes: none of its fields holds an array annotated with "
        f"a shape tuple, e.g. Annotated[jax.Array, (..., 3)]"
    )


def shape_needs_checks(function: str, cls: str) -> str:
    return (
        f"jaxdc.{function}() needs an instance of a class with shape checks; class '{cls}' "
        f"has none. Fix: declare it with @jaxdc.pytree_dataclass(check_shapes=True)."
    )


def shape_option_not_bool(where: str) -> str:
    return f"{where}(check_shapes=...) takes True or False"


def shape_unresolved(field: str, cls: str, annotation: str, missing: str) -> str:
    return (
        f"cannot check the shapes of field '{field}' of class '{cls}': its annotation "
        f"{annotation} names '{missing}', which is not defined at runtime (imported only "
        f"under TYPE_CHECKING?). Fix: import '{missing}' at runtime, or declare the class "
        f"without check_shapes=True."
    )


def shape_annotated_repeated(what: str) -> str:
    """Reason (for `shape_bad_annotation`): an `Annotated` shape annotation whose metadata
    holds two shape tuples or two dtypes (``what``: 'shape tuples' or 'dtypes')."""
    return f"more than one of its metadata items are {what}; give at most one"


def shape_annotated_two_ellipses(shown: str) -> str:
    """Reason (for `shape_bad_annotation`): an `Annotated` shape tuple with two `...`."""
    return f"its shape {shown} has more than one '...'"


def shape_bad_annotation(field: str, cls: str, what: str, reason: str) -> str:
    """Class definition: an annotation that can never be checked (``what``: 'the shape
    "*a *b"' or 'its shape annotation')."""
    return (
        f"field '{field}' of class '{cls}': {what} cannot be checked: {reason}. Fix: correct "
        f"the annotation (docs/shapes.md lists what a shape may contain)."
    )


def shape_malformed(field: str, cls: str, dim_str: str, reason: str) -> str:
    """A jaxtyping shape string that is never valid (mypy plugin: ``jaxdc-shape``; the
    runtime at class definition)."""
    return (
        f"field '{field}' of class '{cls}': shape \"{dim_str}\" is malformed: {reason}. Fix: "
        f"write space-separated dimensions: sizes (3), names (n), expressions (n+1), and at "
        f"most one *name or ... for any number of axes."
    )


# =========================================================================================
# bad input to the public functions: the wrong kind of object (appended by the hooks owner)
# =========================================================================================

JAXDC_INSTANCE = "an instance of a jaxdc pytree dataclass"


def given(kind: str, name: str = "", value: str = "") -> str:
    """The object a function was given, as `wrong_argument` names it (``kind``: 'class',
    'none', 'instance', 'array', or what the object is: 'function', 'module', ...)."""
    if kind == "class":
        return f"the class '{name}'"
    if kind == "none":
        return "None"
    if kind == "array":
        return f"an array ({value})"
    if kind == "instance":
        return f"an instance of '{name}'" + (f" ({value})" if value else "")
    return f"the {kind} '{name}'"


SHAPE_CHECKED_INSTANCE = "an instance of a jaxdc class declared with check_shapes=True"
DATACLASS_CLASS = "a dataclass (the class, decorated with @dataclass or a jaxdc decorator)"
ATTR_TARGET = (
    "an instance of a jaxdc pytree dataclass (or a list, dict or tuple of them from "
    "copy_and_mutate)"
)
ATTR_PATH = "a function returning an attribute path of its argument, such as `lambda o: o.a.b`"
JIT_FUNCTION = "a function (or another callable) to compile"
PASS_AN_INSTANCE = "pass an instance of the class (such as Model(...)), not the class itself"


def wrong_argument(function: str, expected: str, got: str, fix: str = "") -> str:
    """A public function given the wrong kind of object (``got``: from `given`)."""
    return f"{function}() needs {expected}, got {got}." + (f" Fix: {fix}." if fix else "")


def wrong_keyword(function: str, keyword: str, expected: str, got: str) -> str:
    """A keyword argument of the wrong kind (``jaxdc.field(default_factory=3)``)."""
    return f"{function}({keyword}=...) needs {expected}, got {got}."


def attr_target_not_jaxdc(path: str, got: str) -> str:
    """``attr(obj, lambda o: o.a.b).set(v)`` where ``o.a`` is not a jaxdc instance."""
    return (
        f"jaxdc.attr(...).set() assigns attributes of jaxdc instances; the path "
        f"'o{path}' leads to {got}. Fix: assign it with that object's own API."
    )


# =========================================================================================
# retraces explained (appended by the explain owner; runtime only)
# =========================================================================================
# One line per retrace of a `jaxdc.jit` function, one clause per difference from the
# closest earlier trace:
#   train_step: state.opt.lr changed 0.1 -> 0.2 (static field 'lr' of 'Opt')


def difference_static_field(path: str, old: str, new: str, field: str, cls: str) -> str:
    return f"{path} changed {old} -> {new} (static field '{field}' of '{cls}')"


def difference_static_metadata(path: str, old: str, new: str, cls: str) -> str:
    """A pytree node that is not a jaxdc class changed its metadata (its statics)."""
    return f"{path} changed {old} -> {new} (pytree metadata of '{cls}')"


def difference_static_parameter(param: str, old: str, new: str) -> str:
    return f"{param} changed {old} -> {new} (static parameter '{param}')"


def difference_leaf(path: str, what: str, old: str, new: str) -> str:
    """`what`: "shape" or "dtype" of a data leaf (an array)."""
    return f"{path} changed {what} {old} -> {new}"


def difference_structure(path: str, old: str, new: str) -> str:
    return f"{path} changed structure {old} -> {new}"


def retrace_explained(function: str, differences: Iterable[str]) -> str:
    return f"{function}: {'; '.join(differences)}"


def retrace_unexplained(function: str) -> str:
    """A retrace whose arguments equal an earlier trace's: something else changed."""
    return (
        f"{function}: traced again with the same arguments as before (a JAX setting, a global "
        f"it reads, a cleared cache, or jaxdc.config.explain_retraces switched on made jit "
        f"trace it again)"
    )


def retrace_storm(function: str, count: int, where: str, distinct: int, fix: str) -> str:
    """The warning after `count` retraces of one function caused by the same static."""
    return (
        f"{function} has been traced again {count} times because {where} changed ({distinct} "
        f"distinct values so far): each new value traces and compiles it again. Fix: {fix}."
    )


def retrace_storm_field(field: str, cls: str, path: str) -> str:
    return f"static field '{field}' of class '{cls}' ({path})"


def retrace_storm_parameter(param: str) -> str:
    return f"static parameter '{param}'"


def retrace_fix_field(field: str) -> str:
    return f"make '{field}' a data field: jax.Array"


def retrace_fix_parameter(param: str) -> str:
    return f"make '{param}' a data parameter (drop Static[...]) and pass a jax.Array"


def retrace_fix_metadata(cls: str, path: str) -> str:
    return f"make the changing static of '{cls}' ({path}) a data field"


def config_environment(variable: str, value: str, expected: str) -> str:
    return (
        f"environment variable {variable}={value!r} is not understood, so the default is used. "
        f"Fix: set it to {expected}."
    )


def config_value(name: str, given: str, expected: str) -> str:
    return f"jaxdc.config.{name} got {given}. Fix: set it to {expected}."


# =========================================================================================
# Fields whose class attribute is a data descriptor (class definition; runtime + plugin)
# =========================================================================================


def descriptor_field(field: str, cls: str, descriptor: str) -> str:
    """A field whose class attribute (its default, or one a base class defines under its
    name) is a data descriptor: rebuilding an instance stores each field with
    ``object.__setattr__``, which goes through the descriptor's ``__set__``."""
    return (
        f"field '{field}' of class '{cls}' has a data descriptor as its class attribute "
        f"(an instance of '{descriptor}', which defines __set__ or __delete__): "
        f"jit/vmap/tree_map/replace rebuild instances by storing each field, which would run "
        f"that descriptor's code behind your back, and skipping it would lose the value it "
        f"keeps. Fix: make '{field}' a plain field (`{field}: T = default`); convert or check "
        f"values with `jaxdc.field(converter=...)` or in __post_init__, and give other "
        f"behaviour a property of another name that reads the field."
    )
