"""Updating one deep leaf (`o.a.b.c.x`, depth 4) of the 40-node nested tree.

Reference (1.00): chained `dataclasses.replace` on the register_dataclass tree, i.e.
    R(o, a=R(o.a, b=R(o.a.b, c=R(o.a.b.c, x=v))))
Compared: chained `jaxdc.replace`, `jaxdc.copy_and_mutate` (with and without validation;
skipped while it does not exist), `jax_dataclasses.copy_and_mutate`, `eqx.tree_at`, and
chained `.replace` on flax.struct. jaxdc's target: copy_and_mutate <= 2x chained replace.

Run alone: `python benchmarks/nested_update.py [--quick]`.
"""

from __future__ import annotations

import dataclasses
import sys
from typing import Any

import jax
from harness import Job
from peers import Peer, build

REFERENCE = "chained dataclasses.replace"
TARGET = ("jaxdc.copy_and_mutate", 2.0)
PATH = ("a", "b", "c", "x")


def _chain(rep: str, obj: str = "o", path: tuple[str, ...] = PATH) -> str:
    """Source of a chained replace; rep is a template with {o}, {f}, {v}."""
    if len(path) == 1:
        return rep.format(o=obj, f=path[0], v="v")
    inner = _chain(rep, f"{obj}.{path[0]}", path[1:])
    return rep.format(o=obj, f=path[0], v=inner)


@dataclasses.dataclass
class Method:
    label: str
    peer: str
    stmt: str  # uses o, v and names from the peer's namespace
    extra: dict[str, Any]
    check: str = ""  # expression that must be True after the update, on `new`


def methods(peers: dict[str, Peer]) -> tuple[list[Method], dict[str, str]]:
    out: list[Method] = []
    skipped: dict[str, str] = {}
    out.append(Method(REFERENCE, "register_dataclass", _chain("_dc_replace({o}, {f}={v})"), {}))
    if "jaxdc" in peers and not peers["jaxdc"].error:
        import jaxdc

        out.append(
            Method("chained jaxdc.replace", "jaxdc", _chain("_jaxdc_replace({o}, {f}={v})"), {})
        )
        cm = getattr(jaxdc, "copy_and_mutate", None)
        if cm is None:
            skipped["jaxdc.copy_and_mutate"] = "jaxdc.copy_and_mutate does not exist yet"
        else:
            out.append(
                Method(
                    "jaxdc.copy_and_mutate",
                    "jaxdc",
                    "with _cm(o) as new:\n    new.a.b.c.x = v",
                    {"_cm": cm},
                )
            )
            out.append(
                Method(
                    "jaxdc.copy_and_mutate(validate=False)",
                    "jaxdc",
                    "with _cm(o, validate=False) as new:\n    new.a.b.c.x = v",
                    {"_cm": cm},
                )
            )
    else:
        skipped["jaxdc"] = peers["jaxdc"].error if "jaxdc" in peers else "not available"
    if "flax.struct" in peers and not peers["flax.struct"].error:
        out.append(
            Method("chained flax .replace", "flax.struct", _chain("{o}.replace({f}={v})"), {})
        )
    if "jax_dataclasses" in peers and not peers["jax_dataclasses"].error:
        import jax_dataclasses as jdc

        out.append(
            Method(
                "jax_dataclasses.copy_and_mutate",
                "jax_dataclasses",
                "with _cm(o) as new:\n    new.a.b.c.x = v",
                {"_cm": jdc.copy_and_mutate},
            )
        )
    if "equinox" in peers and not peers["equinox"].error:
        import equinox as eqx

        out.append(
            Method(
                "eqx.tree_at",
                "equinox",
                "_tree_at(_where, o, v)",
                {"_tree_at": eqx.tree_at, "_where": lambda t: t.a.b.c.x},
            )
        )
    return out, skipped


def _result(m: Method, g: dict[str, Any]) -> Any:
    ns = dict(g, o=g["_O"], v=g["_V"])
    exec(m.stmt if m.stmt.startswith("with ") else "new = " + m.stmt, ns)
    return ns["new"]


def jobs(peers: dict[str, Peer]) -> tuple[list[Job], dict[str, str]]:
    ms, skipped = methods(peers)
    out = []
    for m in ms:
        b = build(peers[m.peer], "nested")
        g = dict(b.ns, **m.extra)
        g["_O"] = eval(b.ctor, g)
        g["_V"] = g["v"]
        new = _result(m, g)
        # correctness: the deep leaf changed, the input did not, and the shape is intact
        assert new.a.b.c.x is g["_V"], m.label
        assert g["_O"].a.b.c.x is not g["_V"], m.label
        assert jax.tree_util.tree_structure(new) == jax.tree_util.tree_structure(g["_O"]), m.label
        out.append(Job(("nested_update",), m.label, m.stmt, "o = _O; v = _V", g))
        # attribute reads on the *result*: an update that leaves instances in a slower state
        # (e.g. a materialised __dict__ after a __class__ switch) shows up here
        out.append(
            Job(
                ("nested_update_reads",),
                m.label,
                _READS_SRC,
                "o = _NEW",
                dict(g, _NEW=new),
                units=_READS_UNITS,
            )
        )
    return out, skipped


# the edited path twice and two untouched paths, 4 lookups each, repeated
_READ_PATHS = ("o.a.b.c.x", "o.a.b.c.x", "o.b.b.b.x", "o.c.c.c.x")
_READS_SRC = "; ".join(_READ_PATHS * 4)
_READS_UNITS = len(_READ_PATHS) * 4 * 4


if __name__ == "__main__":
    from harness import ratio, run_interleaved
    from peers import all_peers

    quick = "--quick" in sys.argv
    peers = {p.key: p for p in all_peers()}
    js, skipped = jobs(peers)
    run_interleaved(js, rounds=7 if quick else 21, sample_ms=2 if quick else 4)
    for cell in (("nested_update",), ("nested_update_reads",)):
        ref = next(j for j in js if j.lib == REFERENCE and j.cell == cell)
        for j in js:
            if j.cell == cell:
                r = ratio(j.samples, ref.samples)
                med = sorted(j.samples)[len(j.samples) // 2]
                print(f"{cell[0]:20s} {j.lib:40s} {med:9.1f} ns  x{r.ratio:6.2f}")
    for k, why in skipped.items():
        print(f"skipped {k}: {why}")
