"""The floor a Python-level pytree node can reach, measured next to jaxdc (issue 19).

`jax.tree_util.register_dataclass` registers a *C++ dataclass node*: flatten reads the
fields in C++, and unflatten calls `cls(**fields)`, i.e. runs `__init__`. jaxdc never runs
`__init__` in unflatten (it may validate, or be the user's own), so it registers a custom
node, which JAX calls through Python objects. These peers are custom nodes at their
cheapest, on the same classes and leaves as every other peer, each timed only on the
operations it bounds:

- **C flatten** (flatten, flatten_with_path; construction and unflatten show what storing
  both pairs costs): instances store their `(children, statics)` pair and the keyed pair;
  flatten and flatten-with-keys are `operator.attrgetter` of the stored pairs (C code, no
  Python frame at all).
- **Python flatten-with-keys** (flatten_with_path): the same, but flatten-with-keys is a
  Python function returning the stored keyed pair: the cost of one Python frame per node.
- **keys built per call** (flatten_with_path): instances store only the `(children,
  statics)` pair, as jaxdc's do; flatten-with-keys is a Python function building the
  `(key, child)` pairs from it on each call, the cheapest way found: the pairs written out
  in the function (`((k0, ch[0]), (k1, ch[1]), ...), aux`). Unpacking the children into
  locals first or a list instead of the outer tuple measured no faster, and `zip(keys,
  children)` (C code, but a zip object and its iterators per node) slower. No C callable
  made of `operator`/`functools` parts can build the pairs (they compose no calls), so
  without a keyed pair stored on every instance this is where `flatten_with_path` ends.
- **stored pair** (flatten, construction, unflatten, tree_map, replace, jit dispatch): a
  frozen class whose instances store the pair a C flatten reads; `__init__`, unflatten and
  replace are the least such a class can do: one `object.__setattr__` per field and one
  for the pair (unflatten and replace: after `object.__new__`), no checks at all.
- **stored pair, `__init__` in its module** (construction): the same `__init__`, made as
  dataclasses make theirs and jaxdc makes its own: a closure over the names it uses, with
  the class's module as its globals, so `typing.get_type_hints`, jaxtyping and beartype
  resolve its string annotations. The closure costs every call, more through a class call
  than a direct one; a function whose globals hold its names instead is *stored pair*.
  Shown, not used for the verdicts: the gap to *stored pair* is a cost jaxdc keeps on
  purpose.
- **no-op unflatten** (unflatten): returns `None` without building anything: what JAX's
  C++ side costs around any Python unflatten.

If a jaxdc ratio sits at these floors, the remaining gap to register_dataclass is the
price of a custom node, not of jaxdc's code. The verdicts compare jaxdc only with the
floors whose instances hold what a jaxdc instance holds (`VERDICT_FLOORS`): *C flatten* and
*Python flatten-with-keys* store a keyed pair on every instance, which costs every
construction and unflatten (their rows show how much) for a key path few callers ask for.
"""

from __future__ import annotations

import dataclasses
import operator
import sys
from typing import Any

import jax
from jax.tree_util import GetAttrKey
from peers import ClassSpec, Peer, _anns, _new_class

FLOOR_FLATTEN = "floor: C flatten"
FLOOR_PY_KEYS = "floor: Python flatten-with-keys"
FLOOR_KEYS_PER_CALL = "floor: keys built per call"
FLOOR_STORED = "floor: stored pair"
FLOOR_CLOSURE = "floor: stored pair, __init__ in its module"
FLOOR_NOOP = "floor: no-op unflatten"
OPS = ["flatten", "flatten_with_path", "construct", "unflatten", "tree_map", "replace", "jit"]
# which operations each floor bounds (the others would time something else)
FLOOR_OPS = {
    FLOOR_FLATTEN: ["flatten", "flatten_with_path", "construct", "unflatten"],
    FLOOR_PY_KEYS: ["flatten_with_path"],
    FLOOR_KEYS_PER_CALL: ["flatten_with_path"],
    FLOOR_STORED: ["flatten", "construct", "unflatten", "tree_map", "replace", "jit"],
    FLOOR_CLOSURE: ["construct"],
    FLOOR_NOOP: ["unflatten"],
}
# the floors jaxdc's verdicts compare with: instances holding only the pair, as jaxdc's do
# (the no-op unflatten builds nothing, so it bounds JAX's side, not an unflatten)
VERDICT_FLOORS = {k: FLOOR_OPS[k] for k in (FLOOR_KEYS_PER_CALL, FLOOR_STORED)}


def _generated(
    name: str, lines: list[str], cls: type, spec: ClassSpec, in_module: bool = False
) -> Any:
    """Run generated code; every name in it but the fields' starts with `_fl_`. They are
    its globals, or with `in_module` closure variables of a factory whose globals are the
    class's module, as for dataclasses' own `__init__` (and jaxdc's: tools resolve its
    string annotations there)."""
    ns: dict[str, Any] = {
        "_fl_new": object.__new__,
        "_fl_bind": object.__setattr__.__get__,
        "_fl_cls": cls,
        # one name per key: a global read costs less than indexing a list of them
        **{f"_fl_k{i}": GetAttrKey(n) for i, n in enumerate(spec.data)},
    }
    if not in_module:
        exec("\n".join(lines), ns)
        return ns[name]
    factory = [f"def _fl_factory({', '.join(ns)}):", *(f"    {line}" for line in lines)]
    made: dict[str, Any] = {}
    exec("\n".join([*factory, f"    return {name}"]), vars(sys.modules[cls.__module__]), made)
    return made["_fl_factory"](**ns)


def _tuple(names: tuple[str, ...]) -> str:
    return "(" + "".join(f"{n}, " for n in names) + ")"


def _stores(spec: ClassSpec, obj: str, keyed: bool) -> list[str]:
    """One bound `object.__setattr__` per field, then the pair (and the keyed pair)."""
    lines = [f"    _fl_s = _fl_bind({obj})"]
    lines += [f"    _fl_s({n!r}, {n})" for n in (*spec.data, *spec.static)]
    lines.append(f"    _fl_s('_f', ({_tuple(spec.data)}, {_tuple(spec.static)}))")
    if keyed:
        pairs = "".join(f"(_fl_k{i}, {n}), " for i, n in enumerate(spec.data))
        lines.append(f"    _fl_s('_fk', (({pairs}), {_tuple(spec.static)}))")
    return lines


def _flatten_with_keys_per_call(cls: type, spec: ClassSpec) -> Any:
    """Flatten-with-keys building the `(key, child)` pairs from the stored pair."""
    pairs = "".join(f"(_fl_k{i}, _fl_ch[{i}]), " for i in range(len(spec.data)))
    lines = ["def flatten_with_keys(_fl_o):", "    _fl_ch, _fl_aux = _fl_o._f"]
    lines.append(f"    return ({pairs}), _fl_aux")
    return _generated("flatten_with_keys", lines, cls, spec)


def _python_flatten_with_keys(o: Any) -> Any:
    return o._fk


def _floor_class(spec: ClassSpec, key: str) -> type:
    """A frozen class of `spec` whose `__init__` and unflatten only set the fields and the
    stored pair(s), and a `_fl_replace(**changes)` that copies, changes and stores."""
    keyed = key in (FLOOR_FLATTEN, FLOOR_PY_KEYS)
    cls = _new_class(spec, (), _anns(spec, jax.Array, str))
    cls = dataclasses.dataclass(frozen=True)(cls)
    fields = (*spec.data, *spec.static)
    init = [f"def __init__(self, {', '.join(fields)}):", *_stores(spec, "self", keyed)]
    in_module = key == FLOOR_CLOSURE
    cls.__init__ = _generated("__init__", init, cls, spec, in_module)  # type: ignore[misc]
    unflatten = ["def unflatten(_fl_aux, _fl_ch):", "    _fl_o = _fl_new(_fl_cls)"]
    unflatten += [
        f"    {_tuple(group)} = {source}"
        for group, source in ((spec.data, "_fl_ch"), (spec.static, "_fl_aux"))
        if group
    ]
    unflatten += [*_stores(spec, "_fl_o", keyed), "    return _fl_o"]
    replace = ["def _fl_replace(_fl_obj, **_fl_changes):"]
    replace += [f"    {_tuple(spec.data)}, {_tuple(spec.static)} = _fl_obj._f"]
    replace.append("    for _fl_name, _fl_value in _fl_changes.items():")
    replace += [
        f"        {'elif' if i else 'if'} _fl_name == {n!r}: {n} = _fl_value"
        for i, n in enumerate(fields)
    ]
    replace += ["    _fl_o = _fl_new(_fl_cls)", *_stores(spec, "_fl_o", keyed), "    return _fl_o"]
    cls._fl_replace = _generated("_fl_replace", replace, cls, spec)  # type: ignore[attr-defined]
    if key == FLOOR_NOOP:
        unflatten_fn: Any = lambda aux, children: None  # noqa: E731
    else:
        unflatten_fn = _generated("unflatten", unflatten, cls, spec)
    if key == FLOOR_FLATTEN:
        flatten_with_keys: Any = operator.attrgetter("_fk")
    elif key == FLOOR_PY_KEYS:
        flatten_with_keys = _python_flatten_with_keys
    else:  # (timed only for FLOOR_KEYS_PER_CALL)
        flatten_with_keys = _flatten_with_keys_per_call(cls, spec)
    jax.tree_util.register_pytree_with_keys(
        cls, flatten_with_keys, unflatten_fn, operator.attrgetter("_f")
    )
    return cls


def _peer(key: str) -> Peer:
    return Peer(
        key,
        True,
        "",
        lambda spec: _floor_class(spec, key),
        "{o}._fl_replace({f}={v})",
        note="a custom node at its cheapest (floor.py)",
    )


def floor_peers() -> list[Peer]:
    return [_peer(k) for k in FLOOR_OPS]
