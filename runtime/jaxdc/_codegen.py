"""Generated per-class code: `__init__`, unflatten, flatten(-with-keys), `replace`, and the
copy/apply/reseal/reseat steps of `copy_and_mutate`.

Generated (like dataclasses' own `__init__`) rather than looping over field names,
because these run on every construction, every unflatten and every jit output.
Field values are written with `object.__setattr__` bound once per instance (cheaper
per write than calling `object.__setattr__(obj, ...)` each time), which keeps CPython's compact
per-instance attribute storage (writing `obj.__dict__` would materialise a dict and
slow every later attribute read on 3.11/3.12).
"""

from __future__ import annotations

import dataclasses
import functools
import inspect
import sys
import types
from collections.abc import Callable
from typing import Any

from jax.tree_util import GetAttrKey

from jaxdc._construct import excluded_given_error, finish, run_post_init, static_value_error
from jaxdc._equality import LenientStatics
from jaxdc._field import converter_input_annotation, converter_of
from jaxdc._replace import initvar_missing_error, refused_field_error, unknown_fields_error
from jaxdc._spec import CACHE_ATTR, ClassSpec
from jaxdc._tracebacks import register_source

__all__ = [
    "make_apply",
    "make_copy_mapped",
    "make_flatten",
    "make_flatten_with_keys",
    "make_init",
    "make_replace",
    "make_reseal",
    "make_reseat",
    "make_unflatten",
]

# dataclasses' own sentinel (shown as `<factory>`), so `inspect.signature` of a generated
# `__init__` equals the dataclass one.
_HAS_FACTORY = getattr(dataclasses, "_HAS_DEFAULT_FACTORY", object())
_UNCHANGED = object()
_NEVER = object()  # a static value no instance holds

# Every name the generated code uses besides field names starts with `_jx_`, so a field
# called `obj`, `hash` or `children` cannot shadow it.
_BASE_NS: dict[str, Any] = {
    "_jx_bind": object.__setattr__.__get__,
    "_jx_new": object.__new__,
    "_jx_type": type,
    "_jx_tuple": tuple,
    "_jx_hash": hash,
    "_jx_finish": finish,
    "_jx_run_post_init": run_post_init,
    "_jx_bad_static": static_value_error,
    "_jx_unknown": unknown_fields_error,
    "_jx_refused": refused_field_error,
    "_jx_initvar_missing": initvar_missing_error,
    "_jx_excluded_given": excluded_given_error,
    "_jx_HAS_FACTORY": _HAS_FACTORY,
    "_jx_U": _UNCHANGED,
}


def _run(name: str, lines: list[str], ns: dict[str, Any], owner: type | str) -> dict[str, Any]:
    """Execute `lines` (generated `name` of class `owner`) in `ns` plus the base names. The
    source is registered under a readable file name (see `_tracebacks`), so tracebacks, pdb
    and `inspect.getsource` show it; the code object is what `exec(str)` would make, so
    calls cost the same."""
    source = "\n".join(lines) + "\n"
    ns = {**_BASE_NS, **ns}
    exec(compile(source, register_source(name, owner, source), "exec"), ns)
    return ns


def _finish(fn: Callable[..., Any], name: str, lines: list[str], owner: type | str) -> None:
    if isinstance(owner, str):
        fn.__qualname__ = f"{owner}.{name}"
    else:
        fn.__qualname__ = f"{owner.__qualname__}.{name}"
        fn.__module__ = owner.__module__
    fn.__source__ = "\n".join(lines) + "\n"  # type: ignore[attr-defined]  # as equinox does


def _compile(
    name: str, lines: list[str], ns: dict[str, Any], owner: type | str
) -> Callable[..., Any]:
    """The function `name` defined by `lines`, generated for class `owner` (or, for code
    that knows the class only by name, for that qualified name)."""
    fn: Callable[..., Any] = _run(name, lines, ns, owner)[name]
    _finish(fn, name, lines, owner)
    return fn


def _compile_in_module(
    name: str, lines: list[str], ns: dict[str, Any], owner: type
) -> Callable[..., Any]:
    """`_compile`, but the function's globals are the class's module, as for dataclasses'
    own `__init__`: tools that resolve its string annotations there (`typing.get_type_hints`,
    jaxtyping, beartype) find the user's names. The names the code uses are passed as
    closure variables of a factory, so it reads no globals itself. (The registered source
    is the factory's: `inspect.getsource` shows the function indented inside it.)"""
    params = {**_BASE_NS, **ns}
    factory = [
        f"def _jx_factory({', '.join(params)}):",
        *(f"    {line}" for line in lines),
        f"    return {name}",
    ]
    made = _run(name, factory, {}, owner)["_jx_factory"](**params)
    module_globals = getattr(sys.modules.get(owner.__module__), "__dict__", {})
    fn = types.FunctionType(
        made.__code__, module_globals, name, made.__defaults__, made.__closure__
    )
    fn.__kwdefaults__ = made.__kwdefaults__
    _finish(fn, name, lines, owner)
    return fn


def _tuple(items: list[str] | tuple[str, ...]) -> str:
    return "(" + "".join(f"{i}, " for i in items) + ")"


def _seal_lines(
    spec: ClassSpec, indent: str, target: str, aux: str | None = None, scope: str = "global"
) -> list[str]:
    """Inline fast path of `_construct.seal` when the field values are local variables.

    `aux`: an expression for an already validated statics tuple to reuse (replace with
    unchanged statics), which also lets jit compare treedefs by identity. `scope`: see
    `_statics_lines`.
    """
    if aux is None:
        lines = _statics_lines(spec, indent, target, scope)
    else:
        lines = [f"{indent}_jx_aux = {aux}"]
    if spec.cached:
        lines.append(f"{indent}_jx_set({CACHE_ATTR!r}, ({_tuple(spec.data)}, _jx_aux))")
    return lines


def _statics_lines(
    spec: ClassSpec, indent: str, target: str | None, scope: str = "global"
) -> list[str]:
    """Set `_jx_aux` to the statics tuple (`spec.metadata`, which prints the field names)
    of the locals named like the static fields: the function's last one when every value
    is the same object as last time (no tuple built, nothing re-hashed), else a new one,
    which becomes the last one. With a `target`, a new one is hash-checked first (a value
    `hash()` rejects raises the error naming the field of `target`, or on the migration
    path warns and gives `LenientStatics`); without, the values are an instance's, already
    checked.

    The last one is a variable of the function's own scope (`global`, or `nonlocal` for a
    function made in a factory), which the code rebinds: `_jx_last`, a plain tuple of the
    statics tuple and its values. Unpacking it costs less than subscripting a shared
    holder and then the statics tuple (a tuple subclass, which CPython's specialised
    subscript and unpacking skip), and it is read and replaced whole, so another thread
    never sees one statics tuple paired with another's values. Each function keeps its
    last values alive until other ones come."""
    if not spec.static:
        return [f"{indent}_jx_aux = _jx_no_statics"]  # the one empty statics tuple
    last = [f"_jx_last{i}" for i in range(len(spec.static))]
    differs = " or ".join(f"{n} is not {v}" for n, v in zip(spec.static, last, strict=True))
    remember = f"_jx_last = (_jx_aux, {', '.join(spec.static)}, )"
    lines = [
        f"{indent}{scope} _jx_last",
        f"{indent}{_tuple(['_jx_aux', *last])} = _jx_last",
        f"{indent}if {differs}:",
        f"{indent}    _jx_aux = _jx_meta({_tuple(spec.static)})",
    ]
    if target is not None:
        # one static: hash the value itself, which is cheaper than hashing a 1-tuple
        hashed = spec.static[0] if len(spec.static) == 1 else "_jx_aux"
        return [  # (`LenientStatics` never become the last tuple)
            *lines,
            f"{indent}    try:",
            f"{indent}        _jx_hash({hashed})",
            f"{indent}        {remember}",
            f"{indent}    except TypeError:",
            f"{indent}        _jx_aux = _jx_bad_static({target}, _jx_aux)",
        ]
    return [*lines, f"{indent}    {remember}"]


def _statics_ns(spec: ClassSpec) -> dict[str, Any]:
    """The names `_statics_lines` reads, with their first values."""
    if not spec.static:
        return {"_jx_no_statics": spec.no_statics}
    never = (_NEVER,) * len(spec.static)
    return {"_jx_meta": spec.metadata, "_jx_last": (spec.metadata(never), *never)}


def make_init(spec: ClassSpec) -> Callable[..., None]:
    """Same parameters and semantics as the dataclass `__init__`, plus sealing."""
    cls = spec.cls
    dc_fields = [
        f
        for f in cls.__dataclass_fields__.values()  # type: ignore[attr-defined]
        if f._field_type is not dataclasses._FIELD_CLASSVAR  # type: ignore[attr-defined]
    ]
    self_name = "__dataclass_self__" if "self" in {f.name for f in dc_fields} else "self"
    ns: dict[str, Any] = {"_jx_cls": cls, **_statics_ns(spec)}
    positional: list[str] = []
    keyword: list[str] = []
    body: list[str] = []
    assigned: set[str] = set()
    excluded = {f.name for f in spec.excluded}
    for f in dc_fields:
        converter = converter_of(f)
        if f.init:
            if f.default_factory is not dataclasses.MISSING:
                ns[f"_jx_f_{f.name}"] = f.default_factory
                param = f"{f.name}=_jx_HAS_FACTORY"
                if f.name in excluded:  # a value passed for it would be lost after jit
                    body.append(
                        f"    if {f.name} is not _jx_HAS_FACTORY: {_given(self_name, f.name)}"
                    )
                body.append(f"    if {f.name} is _jx_HAS_FACTORY: {f.name} = _jx_f_{f.name}()")
            elif f.default is not dataclasses.MISSING:
                ns[f"_jx_d_{f.name}"] = f.default
                param = f"{f.name}=_jx_d_{f.name}"
                if f.name in excluded:
                    body.append(
                        f"    if {f.name} is not _jx_d_{f.name}: {_given(self_name, f.name)}"
                    )
            else:
                param = f.name
            (keyword if f.kw_only else positional).append(param)
        elif f.default_factory is not dataclasses.MISSING:
            ns[f"_jx_f_{f.name}"] = f.default_factory
            body.append(f"    {f.name} = _jx_f_{f.name}()")
        elif f.default is not dataclasses.MISSING and (converter or not spec.cached):
            # slots: no class attribute holds the default; a converter: it is converted
            ns[f"_jx_d_{f.name}"] = f.default
            body.append(f"    {f.name} = _jx_d_{f.name}")
        else:
            continue
        if converter is not None:  # on the value given or the default, as the spec says
            ns[f"_jx_c_{f.name}"] = converter
            body.append(f"    {f.name} = _jx_c_{f.name}({f.name})")
        if f.name not in spec.initvars:
            body.append(f"    _jx_set({f.name!r}, {f.name})")
            assigned.add(f.name)
    params = [self_name, *positional] + (["*", *keyword] if keyword else [])
    lines = [f"def __init__({', '.join(params)}):", f"    _jx_set = _jx_bind({self_name})", *body]
    if spec.post_init:
        lines.append(f"    _jx_run_post_init({self_name}, {', '.join(spec.initvars)})")
    elif assigned.issuperset((*spec.data, *spec.static)):
        lines += [
            f"    if _jx_type({self_name}) is _jx_cls:",
            *_seal_lines(spec, "        ", self_name, scope="nonlocal"),
            *_shape_check_lines(spec, ns, "        ", self_name, inline=frozenset(assigned)),
            "    else:",
            f"        _jx_finish({self_name})",
        ]
    else:  # an init=False pytree field comes from its class default: general path
        lines.append(f"    _jx_finish({self_name})")
    init = _compile_in_module("__init__", lines, ns, cls)
    init.__annotations__ = _init_annotations(dc_fields, cls.__module__)
    return init


def _init_annotations(dc_fields: list[dataclasses.Field[Any]], module: str) -> dict[str, Any]:
    """What dataclasses gives its `__init__`, so signature-reading tools see the fields; a
    converter field's parameter takes the converter's input type instead (or none)."""
    annotations: dict[str, Any] = {}
    for f in dc_fields:
        if not f.init:
            continue
        converter = converter_of(f)
        if converter is None:
            annotations[f.name] = f.type
        else:
            given = converter_input_annotation(converter, module)
            if given is not inspect.Parameter.empty:
                annotations[f.name] = given
    return annotations | {"return": None}


def _shape_check_lines(
    spec: ClassSpec,
    ns: dict[str, Any],
    indent: str,
    target: str,
    inline: frozenset[str] | None = None,
) -> list[str]:
    """`check_shapes=True` classes: check the finished instance (see `_shapes`). `inline`
    (the end of a generated `__init__`, where a `return` ends nothing else; the fields
    whose values are in local variables of their names): the check's own lines instead of
    a call to it, when it has them (a check still waiting for a forward reference to
    resolve does not)."""
    if spec.shape_check is None:
        return []
    own = getattr(spec.shape_check, "__jaxdc_inline__", None) if inline is not None else None
    if own is None:
        ns["_jx_check_shapes"] = spec.shape_check
        return [f"{indent}_jx_check_shapes({target})"]
    lines, names = own(inline, "nonlocal")
    ns.update(names)
    return [f"{indent}_jx_obj = {target}", *(indent + line.removeprefix("    ") for line in lines)]


def _given(self_name: str, name: str) -> str:
    """The statement rejecting a value passed for a field left out of the pytree."""
    return f"_jx_excluded_given({self_name}, {name!r})"


def make_unflatten(spec: ClassSpec) -> Callable[[Any, Any], Any]:
    """`(statics, children) -> instance` without running `__init__` or `__post_init__`."""
    ns: dict[str, Any] = {"_jx_cls": spec.cls}
    lines = [
        "def unflatten(_jx_aux, _jx_children):",
        "    _jx_obj = _jx_new(_jx_cls)",
        "    _jx_set = _jx_bind(_jx_obj)",
    ]
    if spec.cached:
        lines.append(
            "    if _jx_children.__class__ is not _jx_tuple: _jx_children = _jx_tuple(_jx_children)"
        )
    if spec.data:
        lines.append(f"    {', '.join(spec.data)}, = _jx_children")
    lines += _static_locals(spec, "_jx_aux")
    lines += _store_lines(spec, ns, "_jx_children")
    lines.append("    return _jx_obj")
    return _compile("unflatten", lines, ns, spec.cls)


def _static_locals(spec: ClassSpec, source: str) -> list[str]:
    """Locals named like the static fields, read from the statics tuple `source` by index:
    unpacking (`a, b = source`) takes CPython's slow generic path for a tuple subclass."""
    return [f"    {n} = {source}[{i}]" for i, n in enumerate(spec.static)]


def _store_lines(spec: ClassSpec, ns: dict[str, Any], children: str) -> list[str]:
    """Unflatten's field writes, from locals named like the fields, `_jx_aux` and the
    `children` tuple: excluded fields get their defaults, and the flatten cache is set."""
    lines = []
    for f in spec.fields:
        if f.kind != "excluded":
            lines.append(f"    _jx_set({f.name!r}, {f.name})")
        elif f.factory is not None:
            ns[f"_jx_f_{f.name}"] = f.factory
            lines.append(f"    _jx_set({f.name!r}, _jx_f_{f.name}())")
        elif not spec.cached:
            ns[f"_jx_d_{f.name}"] = f.field.default
            lines.append(f"    _jx_set({f.name!r}, _jx_d_{f.name})")
    if spec.cached:
        lines.append(f"    _jx_set({CACHE_ATTR!r}, ({children}, _jx_aux))")
    return lines


def make_flatten(spec: ClassSpec) -> Callable[[Any], Any]:
    """Python flatten, only for classes without the cache slot (`slots=True`)."""
    ns = _statics_ns(spec)
    lines = ["def flatten(_jx_obj):", *_read_statics_lines(spec, ns)]
    lines.append(f"    return {_tuple([f'_jx_obj.{n}' for n in spec.data])}, _jx_aux")
    return _compile("flatten", lines, ns, spec.cls)


def _read_statics_lines(spec: ClassSpec, ns: dict[str, Any]) -> list[str]:
    """`_jx_aux` for an instance `_jx_obj` of a class without the flatten cache, read at
    each flatten. On the migration path they may hold what `hash()` rejects, so they are
    `LenientStatics` there (named if jit cannot compare them), as the cache would hold."""
    static = _tuple([f"_jx_obj.{n}" for n in spec.static])
    if spec.lenient and spec.static:
        ns["_jx_lenient"] = functools.partial(LenientStatics.of, spec.cls, spec.static)
        return [f"    _jx_aux = _jx_lenient({static})"]
    lines = [f"    {_tuple(spec.static)} = {static}"] if spec.static else []
    return lines + _statics_lines(spec, "    ", None)


def make_flatten_with_keys(spec: ClassSpec) -> Callable[[Any], Any]:
    """Flatten with `GetAttrKey(field_name)` paths (orbax keys checkpoints by these)."""
    ns: dict[str, Any] = {f"_jx_k_{n}": GetAttrKey(n) for n in spec.data}
    if spec.cached:
        pairs = _tuple([f"(_jx_k_{n}, _jx_ch[{i}])" for i, n in enumerate(spec.data)])
        lines = [
            "def flatten_with_keys(_jx_obj):",
            f"    _jx_ch, _jx_aux = _jx_obj.{CACHE_ATTR}",
            f"    return {pairs}, _jx_aux",
        ]
    else:
        ns.update(_statics_ns(spec))
        pairs = _tuple([f"(_jx_k_{n}, _jx_obj.{n})" for n in spec.data])
        lines = ["def flatten_with_keys(_jx_obj):", *_read_statics_lines(spec, ns)]
        lines.append(f"    return {pairs}, _jx_aux")
    return _compile("flatten_with_keys", lines, ns, spec.cls)


def make_replace(spec: ClassSpec) -> Callable[[Any, dict[str, Any]], Any]:
    """`replace(obj, changes)`: copy the fields, apply `changes`, never call `__init__`.

    Takes the `**changes` dict of the public wrappers as is (forwarding it as keywords
    costs more than the copy) and walks only the changed names. Like
    `dataclasses.replace`, `__post_init__` runs again (it may validate or derive fields)
    with the InitVars given (or their defaults), except for classes with a custom
    `__init__`, whose construction protocol lacks it. A field left out of the pytree
    (`pytree=False`) cannot be given: its value would silently revert to its default after
    `jit`. (`init=False` fields are carried in the pytree, so they can be.) A field's
    converter (`field(converter=...)`) is called on its new value, as `__init__` would.
    """
    cls = spec.cls
    names = [f.name for f in spec.fields]
    settable = [f.name for f in spec.fields if f.kind != "excluded"]
    refused = [n for n in names if n not in settable]
    post_init = spec.post_init and not spec.custom_init
    initvars = list(spec.initvars) if post_init else []
    ns: dict[str, Any] = {"_jx_cls": cls, **_statics_ns(spec)}
    lines = ["def replace(_jx_obj, _jx_changes):"]
    uncached = names
    reuse_aux = spec.cached and bool(spec.static) and not post_init
    if spec.cached and (spec.data or spec.static):
        lines += [
            f"    _jx_old_data, _jx_old_aux = _jx_obj.{CACHE_ATTR}",
            f"    {_tuple(spec.data)} = _jx_old_data",
            # (attribute reads: cheaper than indexing the statics tuple, a tuple subclass)
            *(f"    {n} = _jx_obj.{n}" for n in spec.static),
        ]
        uncached = [f.name for f in spec.excluded]
    lines += [f"    {n} = _jx_obj.{n}" for n in uncached]
    for n in initvars:
        default = cls.__dataclass_fields__[n].default  # type: ignore[attr-defined]
        ns[f"_jx_d_{n}"] = _UNCHANGED if default is dataclasses.MISSING else default
        lines.append(f"    {n} = _jx_d_{n}")
    if reuse_aux:
        lines.append("    _jx_static_changed = False")
    lines.append("    for _jx_k, _jx_v in _jx_changes.items():")
    converters = {}
    for n, f in cls.__dataclass_fields__.items():  # type: ignore[attr-defined]
        if (converter := converter_of(f)) is not None:
            converters[n] = ns[f"_jx_c_{n}"] = converter
    branches = [
        (n, f"{n} = _jx_c_{n}(_jx_v)" if n in converters else f"{n} = _jx_v") for n in settable
    ]
    branches += [(n, f"{n} = _jx_v") for n in initvars]
    branches += [(n, f"_jx_refused(_jx_obj, {n!r})") for n in refused]
    for i, (n, action) in enumerate(branches):
        flag = "; _jx_static_changed = True" if reuse_aux and n in spec.static else ""
        lines.append(f"        {'elif' if i else 'if'} _jx_k == {n!r}: {action}{flag}")
    unknown = "_jx_unknown(_jx_obj, _jx_changes)"
    lines.append(f"        else: {unknown}" if branches else f"        {unknown}")
    for n in initvars:
        lines += [f"    if {n} is _jx_U:", f"        _jx_initvar_missing(_jx_obj, {n!r})"]
        if n in converters:  # given or its default, as __init__ converts them
            lines.append(f"    {n} = _jx_c_{n}({n})")
    lines += ["    _jx_new_obj = _jx_new(_jx_cls)", "    _jx_set = _jx_bind(_jx_new_obj)"]
    lines += [f"    _jx_set({n!r}, {n})" for n in names]
    if post_init:
        lines.append(f"    _jx_run_post_init(_jx_new_obj, {', '.join(initvars)})")
    elif reuse_aux:
        lines += [
            "    if _jx_static_changed:",
            *_seal_lines(spec, "        ", "_jx_new_obj"),
            "    else:",
            *_seal_lines(spec, "        ", "_jx_new_obj", aux="_jx_old_aux"),
        ]
    else:
        lines += _seal_lines(spec, "    ", "_jx_new_obj")
    if not post_init:  # else __post_init__ ends in `finish`, which checks
        lines += _shape_check_lines(spec, ns, "    ", "_jx_new_obj")
    lines.append("    return _jx_new_obj")
    return _compile("replace", lines, ns, cls)


def make_reseal(spec: ClassSpec) -> Callable[[Any], None]:
    """`reseal(obj)`: refresh the flatten cache and re-check statics of an instance whose
    fields were all assigned after construction (the object a `copy_and_mutate` block
    yields); the generated twin of `_construct.seal`, several times faster for that loop."""
    names = (*spec.data, *spec.static)
    lines = ["def reseal(_jx_obj):", "    _jx_set = _jx_bind(_jx_obj)"]
    if names:
        lines.append(f"    {', '.join(names)}, = _jx_obj.{', _jx_obj.'.join(names)},")
    lines += _seal_lines(spec, "    ", "_jx_obj")
    return _compile("reseal", lines, _statics_ns(spec), spec.cls)


def make_apply(spec: ClassSpec) -> Callable[[Any, Any], Any]:
    """`apply(obj, changes)`: a new instance of `obj`'s fields with `changes` (a dict of
    pytree field names, already checked) applied, built like unflatten builds it: how
    `copy_and_mutate` finishes an edited node, so its results are made like jit outputs.
    Statics are re-hashed only when one changed; otherwise `obj`'s statics tuple is reused,
    so jit compares treedefs by identity.
    """
    ns: dict[str, Any] = {"_jx_cls": spec.cls, **_statics_ns(spec)}
    lines = ["def apply(_jx_src, _jx_changes):"]
    if spec.cached:
        lines.append(f"    _jx_data, _jx_aux = _jx_src.{CACHE_ATTR}")
        if spec.data:
            lines.append(f"    {_tuple(spec.data)} = _jx_data")
        lines += _static_locals(spec, "_jx_aux")
    else:  # no flatten cache to store statics in: they are only checked, if changed
        lines += [f"    {n} = _jx_src.{n}" for n in (*spec.data, *spec.static)]
    lines.append("    _jx_static_changed = False")
    lines.append("    for _jx_k, _jx_v in _jx_changes.items():")
    for i, n in enumerate((*spec.data, *spec.static)):
        flag = "; _jx_static_changed = True" if n in spec.static else ""
        lines.append(f"        {'elif' if i else 'if'} _jx_k == {n!r}: {n} = _jx_v{flag}")
    if not spec.data and not spec.static:
        lines.append("        pass")
    lines += [
        "    _jx_obj = _jx_new(_jx_cls)",
        "    _jx_set = _jx_bind(_jx_obj)",
        "    if _jx_static_changed:",
        *_statics_lines(spec, "        ", "_jx_obj"),
        f"    _jx_children = {_tuple(spec.data)}",
        *_store_lines(spec, ns, "_jx_children"),
        "    return _jx_obj",
    ]
    return _compile("apply", lines, ns, spec.cls)


def make_copy_mapped(spec: ClassSpec) -> Callable[[Any, Any, Any], Any]:
    """`copy(obj, map, plain)`: a new sealed instance holding `obj`'s field values, data
    values whose type is not in the set `plain` replaced by `map(value, field_name)` (the
    object a `copy_and_mutate` block yields: its node children are views). Statics are
    `obj`'s, so they are not re-hashed."""
    lines = ["def copy(_jx_obj, _jx_map, _jx_plain):"]
    lines += [f"    {n} = _jx_obj.{n}" for n in (f.name for f in spec.fields)]
    lines += [
        f"    if _jx_type({n}) not in _jx_plain: {n} = _jx_map({n}, {n!r})" for n in spec.data
    ]
    lines += ["    _jx_copy = _jx_new(_jx_cls)", "    _jx_set = _jx_bind(_jx_copy)"]
    lines += [f"    _jx_set({n!r}, {n})" for n in (f.name for f in spec.fields)]
    if spec.cached:
        lines.append(f"    _jx_set({CACHE_ATTR!r}, ({_tuple(spec.data)}, _jx_obj.{CACHE_ATTR}[1]))")
    lines.append("    return _jx_copy")
    return _compile("copy", lines, {"_jx_cls": spec.cls}, spec.cls)


def make_reseat(spec: ClassSpec) -> Callable[[Any, Any], None]:
    """`reseat(obj, children)`: point the data fields of a cached class's instance at
    `children` and refresh its flatten cache, keeping its statics (the object a
    `copy_and_mutate` block yielded, when the block assigned none of its own fields)."""
    lines = ["def reseat(_jx_obj, _jx_children):", "    _jx_set = _jx_bind(_jx_obj)"]
    if spec.data:
        lines.append(f"    {_tuple(spec.data)} = _jx_children")
    lines += [f"    _jx_set({n!r}, {n})" for n in spec.data]
    lines.append(f"    _jx_set({CACHE_ATTR!r}, (_jx_children, _jx_obj.{CACHE_ATTR}[1]))")
    return _compile("reseat", lines, {}, spec.cls)
