"""A generated fast path per class for the shape checks of `_shapes_check`.

Construction is where checks cost: the target is at most 3x a class without them. A
loop interpreting dims per field is ~10x; straight-line code per class, reading a JAX
array's shape from its `aval` (far cheaper than the `.shape` property), testing its dtype
only when its aval is not the one last accepted, and keeping each dimension name in a
local variable, is what meets it; skipping the tests when every aval is the one of the
last instance that passed (jax interns avals) is what meets issue 19's 1.5x.

The fast path only ever *accepts*: on anything it does not handle, or any mismatch, it
calls the reference check (`bind`), which raises the exact error or accepts. So the two
cannot disagree on what passes. Fields it does not handle (unions of several array
annotations, symbolic or broadcastable dims) make the whole class use the reference.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from jaxdc._codegen import _compile, _tuple
from jaxdc._shapes_annotations import ArraySpec, FieldShape
from jaxdc._shapes_check import ARRAY_IMPL, ClassShapes, read_leaf

__all__ = ["make_check"]

_HANDLED = frozenset({"fixed", "named", "anonymous", "variadic", "anonymous_variadic"})


def make_check(shapes: ClassShapes, slow: Callable[[Any], None]) -> Callable[[Any], None]:
    """`check(obj)`: returns if `obj` passes, else calls `slow(obj)` (which raises)."""
    if not all(_handled(fs) for fs in shapes.fields):
        return slow
    lines, ns = _check_lines(shapes, slow, frozenset(), "global")
    owner = f"{shapes.cls_name}.<shape check>"
    check = _compile("check", ["def check(_jx_obj):", *lines], ns, owner)
    # For a generated `__init__` to inline (`_codegen`), saving a call on every construction.
    check.__jaxdc_inline__ = functools.partial(_check_lines, shapes, slow)  # type: ignore[attr-defined]
    return check


def _check_lines(
    shapes: ClassShapes, slow: Callable[[Any], None], local: frozenset[str], scope: str
) -> tuple[list[str], dict[str, Any]]:
    """The check's body and the names it reads. It reads the instance from `_jx_obj` and
    `return`s on failure; a field named in `local` is read from the local variable of its
    name (a generated `__init__` holds every value it set in one: no attribute read).
    `scope` (`global`, or `nonlocal` for a function made in a factory) declares the names
    that remember each field's last accepted dtype, which the check rebinds."""
    ns: dict[str, Any] = {"_jx_slow": slow, "_jx_Array": ARRAY_IMPL, "_jx_leaf": read_leaf}
    names: dict[tuple[str, str], str] = {}  # (kind, dimension name) -> local variable
    fields: list[str] = []
    for index, fs in enumerate(shapes.fields):
        if fs.name not in local:
            fields.append(f"            _jx_v = _jx_obj.{fs.name}")
        read = fs.name if fs.name in local else "_jx_v"
        fields += [f"    {line}" for line in _field_lines(index, fs, fs.specs[0], read, ns, names)]
    body = _seen_lines(shapes, local, ns, fields) if fields else []
    if shapes.child_batch_axes is not None:
        ns["_jx_child"] = shapes.child_batch_axes
        body += [
            f"        if _jx_child({name if name in local else f'_jx_obj.{name}'}) is not None:"
            " return _jx_slow(_jx_obj)"
            for name in shapes.children
        ]
    remembered = [name for name in ns if name.startswith("_jx_ok")]
    declared = [f"    {scope} {', '.join(remembered)}"] if remembered else []
    lines = [*declared, "    try:", *(body or ["        pass"])]
    return [*lines, "    except Exception:", "        return _jx_slow(_jx_obj)"], ns


def _seen_lines(
    shapes: ClassShapes, local: frozenset[str], ns: dict[str, Any], fields: list[str]
) -> list[str]:
    """The per-field tests (`fields`), skipped when every value is a jax array whose aval
    is the one the same field held in the last instance that passed them all. The fast
    path's verdict depends on the values' shapes and dtypes only, which an aval fixes, and
    jax interns avals: building instances of the same shapes, the usual case, costs an
    aval read and an identity test per field. The last avals are one tuple, read and
    replaced whole, so a thread never sees fields of two different instances."""
    values = [fs.name if fs.name in local else f"_jx_obj.{fs.name}" for fs in shapes.fields]
    last = [f"_jx_l{i}" for i in range(len(values))]
    ns["_jx_okall"] = (None,) * len(values)
    arrays = " and ".join(f"{v}.__class__ is _jx_Array" for v in values)
    same = " and ".join(f"{v}.aval is {n}" for v, n in zip(values, last, strict=True))
    return [
        f"        _jx_arrays = {arrays}",
        "        if _jx_arrays:",
        f"            {_tuple(last)} = _jx_okall",
        f"            _jx_seen = {same}",
        "        else:",
        "            _jx_seen = False",
        "        if not _jx_seen:",
        *fields,
        f"            if _jx_arrays: _jx_okall = {_tuple([f'{v}.aval' for v in values])}",
    ]


def _handled(fs: FieldShape) -> bool:
    if len(fs.specs) != 1 or fs.others:
        return False
    return all(d.kind in _HANDLED and not d.broadcastable for d in fs.specs[0].dims)


def _field_lines(
    index: int,
    fs: FieldShape,
    spec: ArraySpec,
    read: str,
    ns: dict[str, Any],
    names: dict[Any, str],
) -> list[str]:
    """Read the value (the variable `read`)'s shape and dtype (None: skip the field), then
    test each dim.

    A dimension name is bound where it first appears in the generated code and compared
    after. If the field binding it was skipped (not an array), the comparison reads an
    unbound local: the NameError sends the object to the reference check, like any other
    case the fast path does not handle. A fixed rank is checked by unpacking the shape
    (a wrong rank is a ValueError, which goes the same way)."""
    fail = "return _jx_slow(_jx_obj)"
    if spec.dtype is None:
        lines = [
            f"        if {read}.__class__ is _jx_Array:",
            f"            _jx_s = {read}.aval.shape",
            "        else:",
            f"            _jx_r = _jx_leaf({read})",
            "            _jx_s = None if _jx_r is None else _jx_r[0]",
        ]
    else:
        # numpy hashes a dtype afresh on every lookup (~100 ns, a third of a field's
        # check): the dtype last accepted for this field is remembered and compared by
        # identity first (array dtypes are numpy's canonical instances, so this is the
        # usual hit). For a jax array, so is the aval last accepted: jax interns avals, so
        # a hit skips reading the dtype (a jax that does not falls back to the dtype).
        ns[f"_jx_dt{index}"] = spec.dtype.cache
        ns[f"_jx_ok{index}"] = ns[f"_jx_okav{index}"] = None
        accept = [
            f"if _jx_d is not _jx_ok{index}:",
            f"    if _jx_dt{index}.get(_jx_d) is not True: {fail}",
            f"    _jx_ok{index} = _jx_d",
        ]
        lines = [
            f"        if {read}.__class__ is _jx_Array:",
            f"            _jx_a = {read}.aval",
            "            _jx_s = _jx_a.shape",
            f"            if _jx_a is not _jx_okav{index}:",
            "                _jx_d = _jx_a.dtype",
            *(f"                {line}" for line in accept),
            f"                _jx_okav{index} = _jx_a",
            "        else:",
            f"            _jx_r = _jx_leaf({read})",
            "            _jx_s, _jx_d = (None, None) if _jx_r is None else _jx_r",
            "            if _jx_s is not None:",
            *(f"                {line}" for line in accept),
        ]
    lines.append("        if _jx_s is not None:")
    checks: list[str] = []
    rank, cut = spec.rank, spec.variadic
    if cut is None:
        unpacked = "".join(f"_jx_t{position}, " for position in range(rank))
        checks.append(f"{unpacked}= _jx_s" if unpacked else f"if _jx_s: {fail}")
    else:
        checks.append(f"if _jx_len(_jx_s) < {rank}: {fail}")
        ns["_jx_len"] = len
    tail = 0 if cut is None else len(spec.dims) - cut - 1
    for position, dim in enumerate(spec.dims):
        if cut is not None and position == cut:
            if dim.kind == "anonymous_variadic":
                continue
            axes = f"_jx_s[{cut}:]" if tail == 0 else f"_jx_s[{cut}:{-tail}]"
            checks += _bind(names, ("multi", dim.name), axes, fail)
            continue
        if cut is None:
            value = f"_jx_t{position}"
        else:
            value = f"_jx_s[{position if position < cut else position - len(spec.dims)}]"
        if dim.kind == "fixed":
            checks.append(f"if {value} != {dim.size}: {fail}")
        elif dim.kind == "named":
            checks += _bind(names, ("single", dim.name), value, fail)
    return lines + [f"            {c}" for c in checks]


def _bind(names: dict[Any, str], key: tuple[str, str], value: str, fail: str) -> list[str]:
    """Bind a dimension name where it first appears; compare it everywhere after."""
    if key not in names:
        names[key] = local = f"_jx_n{len(names)}"
        return [f"{local} = {value}"]
    return [f"if {names[key]} != {value}: {fail}"]
