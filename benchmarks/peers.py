"""The libraries compared in benchmarks/, and the three tree shapes built with each.

Every peer builds the same shapes from the same field lists:
  small  : 4 array fields + 1 static field
  wide   : 32 array fields + 4 static fields
  nested : a tree of depth 4, 3 children per node (1 + 3 + 9 + 27 = 40 nodes); each node
           holds one array `x` and one static `name`; branch nodes have children `a, b, c`.

Peers without static fields (chex.dataclass, NamedTuple, tuple) drop the static fields
instead of turning them into leaves, so every peer has the same leaves (4 / 32 / 40).

Each peer says how to spell, in its own idiom: the class, a constructor call, an
attribute read and a `replace` of one field. The harness inlines these snippets into
timeit loops, so no adapter frame sits between the timer and the library.
"""

from __future__ import annotations

import dataclasses
import types
from collections.abc import Callable
from typing import Any, NamedTuple

import jax
import numpy as np

SHAPES = ("small", "wide", "nested")
NESTED_DEPTH = 4
NESTED_ARITY = 3


@dataclasses.dataclass(frozen=True)
class ClassSpec:
    name: str
    data: tuple[str, ...]  # pytree children
    static: tuple[str, ...]  # treedef metadata


SMALL = ClassSpec("Small", ("a", "b", "c", "d"), ("s",))
WIDE = ClassSpec("Wide", tuple(f"f{i:02d}" for i in range(32)), tuple(f"s{i}" for i in range(4)))
BRANCH = ClassSpec("Branch", ("x", "a", "b", "c"), ("name",))
LEAF = ClassSpec("Leaf", ("x",), ("name",))
CHILDREN = ("a", "b", "c")


# ---------------------------------------------------------------------------------------
# Peers
# ---------------------------------------------------------------------------------------


@dataclasses.dataclass
class Peer:
    key: str  # column name
    statics: bool  # supports static (treedef) fields
    import_stmt: str  # what `import` costs on top of `import jax` ("" = nothing)
    make: Callable[[ClassSpec], Any] | None = None  # build the class for a spec
    replace: str = ""  # template with {o}, {f}, {v}; helpers live in ns below
    ns: dict[str, Any] = dataclasses.field(default_factory=dict)
    error: str = ""  # why the peer is unavailable ("" = available)
    note: str = ""

    def ctor(self, spec: ClassSpec, args: dict[str, str]) -> str:
        """Source of a constructor call; `args` maps field name -> source expression."""
        if self.key == "tuple":
            return "(" + "".join(args[f] + ", " for f in spec.data) + ")"
        names = spec.data + (spec.static if self.statics else ())
        return spec.name + "(" + ", ".join(f"{f}={args[f]}" for f in names) + ")"

    def attr(self, spec: ClassSpec, obj: str, field: str) -> str:
        if self.key == "tuple":
            return f"{obj}[{spec.data.index(field)}]"
        return f"{obj}.{field}"

    def replace_src(self, spec: ClassSpec, obj: str, field: str, value: str) -> str:
        if self.key == "tuple":
            i = spec.data.index(field)
            return f"{obj}[:{i}] + ({value},) + {obj}[{i + 1}:]" if i else f"({value},) + {obj}[1:]"
        return self.replace.format(o=obj, f=field, v=value)


def _anns(spec: ClassSpec, data_ann: Any, static_ann: Any, child_ann: Any = Any) -> dict[str, Any]:
    anns: dict[str, Any] = {}
    for f in spec.data:
        anns[f] = child_ann if (spec is BRANCH and f in CHILDREN) else data_ann
    for f in spec.static:
        anns[f] = static_ann
    return anns


def _new_class(
    spec: ClassSpec,
    bases: tuple[type, ...],
    anns: dict[str, Any],
    defaults: dict[str, Any] | None = None,
    extra: dict[str, Any] | None = None,
) -> type:
    def body(ns: dict[str, Any]) -> None:
        ns["__annotations__"] = anns
        ns["__module__"] = __name__
        ns["__qualname__"] = spec.name
        ns.update(defaults or {})
        ns.update(extra or {})

    return types.new_class(spec.name, bases, {}, body)


def _static_dc_field() -> Any:
    return dataclasses.field(metadata={"static": True})


def _peer_register_dataclass() -> Peer:
    def make(spec: ClassSpec) -> type:
        cls = _new_class(
            spec, (), _anns(spec, jax.Array, str), {f: _static_dc_field() for f in spec.static}
        )
        return jax.tree_util.register_dataclass(dataclasses.dataclass(frozen=True)(cls))

    return Peer(
        "register_dataclass",
        True,
        "",
        make,
        "_dc_replace({o}, {f}={v})",
        {"_dc_replace": dataclasses.replace},
        note="frozen `dataclasses.dataclass` + `jax.tree_util.register_dataclass`; "
        "replace = `dataclasses.replace`",
    )


def _peer_jaxdc() -> Peer:
    try:
        import jaxdc

        deco = jaxdc.pytree_dataclass
        static = jaxdc.Static
        rep = jaxdc.replace
    except Exception as e:  # the runtime core may not have landed yet
        return Peer("jaxdc", True, "import jaxdc", error=f"{type(e).__name__}: {e}")

    def make(spec: ClassSpec) -> type:
        cls = _new_class(spec, (), _anns(spec, jax.Array, static[str]))
        return deco(cls)

    return Peer(
        "jaxdc",
        True,
        "import jaxdc",
        make,
        "_jaxdc_replace({o}, {f}={v})",
        {"_jaxdc_replace": rep},
        note="`@jaxdc.pytree_dataclass`; replace = `jaxdc.replace`",
    )


def _peer_flax() -> Peer:
    try:
        import flax.struct
    except Exception as e:
        return Peer("flax.struct", True, "import flax.struct", error=f"{type(e).__name__}: {e}")

    def make(spec: ClassSpec) -> type:
        cls = _new_class(
            spec,
            (),
            _anns(spec, jax.Array, str),
            {f: flax.struct.field(pytree_node=False) for f in spec.static},
        )
        return flax.struct.dataclass(cls)

    return Peer(
        "flax.struct",
        True,
        "import flax.struct",
        make,
        "{o}.replace({f}={v})",
        note="`@flax.struct.dataclass`; replace = `.replace`",
    )


def _peer_jdc() -> Peer:
    try:
        import jax_dataclasses as jdc
    except Exception as e:
        return Peer(
            "jax_dataclasses", True, "import jax_dataclasses", error=f"{type(e).__name__}: {e}"
        )

    def make(spec: ClassSpec) -> type:
        cls = _new_class(spec, (), _anns(spec, jax.Array, jdc.Static[str]))
        return jdc.pytree_dataclass(cls)

    return Peer(
        "jax_dataclasses",
        True,
        "import jax_dataclasses",
        make,
        "_jdc_replace({o}, {f}={v})",
        {"_jdc_replace": jdc.replace},
        note="`@jdc.pytree_dataclass`; replace = `jdc.replace`",
    )


def _peer_equinox() -> Peer:
    try:
        import equinox as eqx
    except Exception as e:
        return Peer("equinox", True, "import equinox", error=f"{type(e).__name__}: {e}")

    def make(spec: ClassSpec) -> type:
        return _new_class(
            spec,
            (eqx.Module,),
            _anns(spec, jax.Array, str),
            {f: eqx.field(static=True) for f in spec.static},
        )

    ns: dict[str, Any] = {"_tree_at": eqx.tree_at}
    # one selector per field, defined once (as a user would hoist it)
    for spec in (SMALL, WIDE, BRANCH, LEAF):
        for f in spec.data:
            ns[f"_sel_{f}"] = eval(f"lambda m: m.{f}")
    return Peer(
        "equinox",
        True,
        "import equinox",
        make,
        "_tree_at(_sel_{f}, {o}, {v})",
        ns,
        note="`eqx.Module`; replace = `eqx.tree_at`",
    )


def _peer_chex() -> Peer:
    try:
        import chex
    except Exception as e:
        return Peer("chex", False, "import chex", error=f"{type(e).__name__}: {e}")

    def make(spec: ClassSpec) -> type:
        cls = _new_class(spec, (), _anns(dataclasses.replace(spec, static=()), jax.Array, str))
        return chex.dataclass(frozen=True)(cls)

    return Peer(
        "chex",
        False,
        "import chex",
        make,
        "{o}.replace({f}={v})",
        note="`@chex.dataclass(frozen=True)` (no static fields: dropped); replace = `.replace`",
    )


def _peer_ojax() -> Peer:
    try:
        import ojax
    except Exception as e:
        return Peer("ojax", True, "import ojax", error=f"{type(e).__name__}: {e}")

    def __init__(self: Any, **kwargs: Any) -> None:  # OTree classes have init=False
        self.assign_(**kwargs)

    def make(spec: ClassSpec) -> type:
        defaults = {f: ojax.aux() for f in spec.static}
        if spec is BRANCH:
            defaults.update({f: ojax.child() for f in CHILDREN})
        return _new_class(
            spec, (ojax.OTree,), _anns(spec, jax.Array, str), defaults, {"__init__": __init__}
        )

    return Peer(
        "ojax",
        True,
        "import ojax",
        make,
        "_ojax_new({o}, {f}={v})",
        {"_ojax_new": ojax.new},
        note=(
            "`ojax.OTree` with an `assign_` `__init__` (OTree has init=False); replace = `ojax.new`"
        ),
    )


def _peer_tjax() -> Peer:
    try:
        import tjax.dataclasses as tdc
    except Exception as e:
        return Peer("tjax", True, "import tjax", error=f"{type(e).__name__}: {e}")

    def make(spec: ClassSpec) -> type:
        cls = _new_class(
            spec, (), _anns(spec, jax.Array, str), {f: tdc.field(static=True) for f in spec.static}
        )
        return tdc.dataclass(cls)

    return Peer(
        "tjax",
        True,
        "import tjax",
        make,
        "_dc_replace({o}, {f}={v})",
        {"_dc_replace": dataclasses.replace},
        note="`@tjax.dataclasses.dataclass`; replace = `dataclasses.replace`",
    )


def _peer_namedtuple() -> Peer:
    def make(spec: ClassSpec) -> type:
        return NamedTuple(spec.name, [(f, Any) for f in spec.data])  # type: ignore[misc]

    return Peer(
        "NamedTuple",
        False,
        "",
        make,
        "{o}._replace({f}={v})",
        note="`typing.NamedTuple` (static fields dropped); replace = `._replace`",
    )


def _peer_tuple() -> Peer:
    return Peer(
        "tuple", False, "", None, "", note="plain tuples (static fields dropped); replace = slicing"
    )


REFERENCE = "register_dataclass"


def all_peers() -> list[Peer]:
    """Reference first, jaxdc second, then the others; unavailable peers carry `error`."""
    return [
        _peer_register_dataclass(),
        _peer_jaxdc(),
        _peer_flax(),
        _peer_jdc(),
        _peer_equinox(),
        _peer_chex(),
        _peer_tjax(),
        _peer_ojax(),
        _peer_namedtuple(),
        _peer_tuple(),
    ]


# ---------------------------------------------------------------------------------------
# Building the shapes
# ---------------------------------------------------------------------------------------


def _leaf_array(i: int) -> jax.Array:
    """A small committed device array (distinct object per field)."""
    return jax.device_put(np.full((3,), float(i), np.float32), jax.devices()[0])


@dataclasses.dataclass
class Built:
    """One peer's instance of one shape plus everything the op snippets need."""

    ns: dict[str, Any]  # globals for the snippets: classes, arrays, helpers
    ctor: str  # expression building a fresh instance from ns
    reads: list[str]  # attribute-read expressions (on variable `o`)
    replace: str  # statement replacing one field of `o` with `v`
    n_leaves: int


def build(peer: Peer, shape: str) -> Built:
    ns: dict[str, Any] = dict(peer.ns)
    if shape in ("small", "wide"):
        spec = SMALL if shape == "small" else WIDE
        if peer.make is not None:
            ns[spec.name] = peer.make(spec)
        args: dict[str, str] = {}
        for i, f in enumerate(spec.data):
            ns[f"_x{i}"] = _leaf_array(i)
            args[f] = f"_x{i}"
        for f in spec.static:
            args[f] = repr(f"static-{f}")
        ctor = peer.ctor(spec, args)
        reads = [peer.attr(spec, "o", f) for f in spec.data]
        replace = peer.replace_src(spec, "o", spec.data[0], "v")
        n_leaves = len(spec.data)
    elif shape == "nested":
        if peer.make is not None:
            ns[BRANCH.name] = peer.make(BRANCH)
            ns[LEAF.name] = peer.make(LEAF)
        counter = iter(range(10_000))

        def node(depth: int) -> str:
            i = next(counter)
            ns[f"_x{i}"] = _leaf_array(i)
            if depth == NESTED_DEPTH:
                return peer.ctor(LEAF, {"x": f"_x{i}", "name": repr("leaf")})
            args = {"x": f"_x{i}", "name": repr("branch")}
            for c in CHILDREN:
                args[c] = node(depth + 1)
            return peer.ctor(BRANCH, args)

        ctor = node(1)
        n_leaves = next(counter)
        # three root-to-leaf paths: o.a.a.a.x, o.b.b.b.x, o.c.c.c.x (4 reads each)
        reads = []
        for c in CHILDREN:
            expr = "o"
            for _ in range(NESTED_DEPTH - 1):
                expr = peer.attr(BRANCH, expr, c)
            reads.append(peer.attr(LEAF, expr, "x"))
        replace = peer.replace_src(BRANCH, "o", "x", "v")
    else:
        raise ValueError(shape)
    ns["v"] = _leaf_array(999)
    return Built(ns, ctor, reads, replace, n_leaves)


def reads_per_expr(shape: str) -> int:
    """Attribute lookups in one read expression (for the per-read absolute time)."""
    return NESTED_DEPTH if shape == "nested" else 1


__all__ = ["REFERENCE", "SHAPES", "Built", "Peer", "all_peers", "build", "reads_per_expr"]
