"""Per-operation micro-benchmarks: every op x shape x library, interleaved."""

from __future__ import annotations

import jax
from harness import Job
from peers import SHAPES, Peer, build, reads_per_expr

# (op key, label shown in the table)
OPS: list[tuple[str, str]] = [
    ("flatten", "flatten"),
    ("unflatten", "unflatten"),
    ("tree_map", "tree_map"),
    ("flatten_with_path", "flatten_with_path"),
    ("construct", "construction"),
    ("construct_flatten", "construction + flatten"),
    ("attr", "attribute read"),
    ("attr_unflat", "attribute read (unflattened instance)"),
    ("replace", "replace"),
    ("jit", "jit dispatch f(o)->o"),
]

# jaxdc's targets, as ratios to register_dataclass (issue 19, which tightened issue 2's):
# op -> target for every shape, or op -> {shape: target} where only some shapes have one.
TARGETS: dict[str, float | dict[str, float]] = {
    "flatten": 1.05,
    "flatten_with_path": {"nested": 1.15},
    "unflatten": 0.50,
    "tree_map": {"nested": 0.65},
    "jit": 0.90,
    "construct": 1.00,
    "attr": 1.05,
    "attr_unflat": 1.05,
    "replace": 0.50,
}


def target(op: str, shape: str) -> float | None:
    """jaxdc's target for one cell, or None."""
    t = TARGETS.get(op)
    return t.get(shape) if isinstance(t, dict) else t


# attribute reads per timed statement (the read expressions are repeated to reach it,
# so the loop overhead does not flatten the ratios)
_MIN_READS = 48


def _ident(x):
    return x


def jobs_for(peer: Peer, shape: str, ops: list[str]) -> list[Job]:
    """All jobs of one peer for one shape. Raises if the peer cannot build the shape."""
    b = build(peer, shape)
    g = b.ns
    o = eval(b.ctor, g)
    leaves, treedef = jax.tree_util.tree_flatten(o)
    if len(leaves) != b.n_leaves:
        raise AssertionError(f"{peer.key}/{shape}: {len(leaves)} leaves, expected {b.n_leaves}")
    o_unflat = treedef.unflatten(leaves)
    f = jax.jit(lambda t: t)
    f(o)  # compile
    g.update(
        _O=o,
        _O_unflat=o_unflat,
        _V=g["v"],
        _TD=treedef,
        _LEAVES=leaves,
        _F=f,
        _ident=_ident,
        _flatten=jax.tree_util.tree_flatten,
        _unflatten=jax.tree_util.tree_unflatten,
        _tree_map=jax.tree_util.tree_map,
        _fwp=jax.tree_util.tree_flatten_with_path,
    )
    reads_one = "; ".join(b.reads)
    rep = max(1, -(-_MIN_READS // len(b.reads)))
    reads_src = "; ".join([reads_one] * rep)
    n_reads = len(b.reads) * rep * reads_per_expr(shape)

    # locals for the loop (LOAD_FAST), like a user's function body would have
    base_setup = (
        "o = _O; td = _TD; leaves = _LEAVES; f = _F; ident = _ident; v = _V; "
        "flatten = _flatten; unflatten = _unflatten; tree_map = _tree_map; fwp = _fwp"
    )
    stmts: dict[str, tuple[str, str, int]] = {
        "flatten": ("flatten(o)", base_setup, 1),
        "unflatten": ("unflatten(td, leaves)", base_setup, 1),
        "tree_map": ("tree_map(ident, o)", base_setup, 1),
        "flatten_with_path": ("fwp(o)", base_setup, 1),
        "construct": (b.ctor, base_setup, 1),
        # a fresh instance straight into JAX (any work deferred from construction shows here)
        "construct_flatten": (f"flatten({b.ctor})", base_setup, 1),
        "attr": (reads_src, base_setup, n_reads),
        "attr_unflat": (reads_src, base_setup.replace("o = _O;", "o = _O_unflat;"), n_reads),
        "replace": (b.replace, base_setup, 1),
        "jit": ("f(o)", base_setup, 1),
    }
    jobs = []
    for op in ops:
        stmt, setup, units = stmts[op]
        jobs.append(Job((shape, op), peer.key, stmt, setup, g, units))
    return jobs


def all_jobs(
    peers: list[Peer], ops: list[str] | None = None, shapes: tuple[str, ...] = SHAPES
) -> tuple[list[Job], dict[str, str]]:
    """Jobs for every available peer; second value: peer -> why it was skipped."""
    ops = ops or [k for k, _ in OPS]
    jobs: list[Job] = []
    skipped: dict[str, str] = {}
    for peer in peers:
        if peer.error:
            skipped[peer.key] = peer.error
            continue
        try:
            peer_jobs = [j for shape in shapes for j in jobs_for(peer, shape, ops)]
        except Exception as e:  # a peer that cannot express a shape is reported, not fatal
            skipped[peer.key] = f"{type(e).__name__}: {e}"
            continue
        jobs.extend(peer_jobs)
    return jobs, skipped
