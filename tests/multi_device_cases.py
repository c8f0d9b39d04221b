"""jaxdc classes as pytrees on 8 devices (run by test_multi_device.py in its own process,
with XLA_FLAGS=--xla_force_host_platform_device_count=8 set before jax starts).

Shardings given as jaxdc instances (`device_put`, `jit` in/out shardings, `shard_map` specs),
`pmap`, donation, and an orbax checkpoint of a sharded state restored onto another mesh.
None of it may validate or hash a leaf: `State.__post_init__` counts validations (it runs
only when users construct) and the leaves start as `CountingArray`s, NumPy arrays that
count every `__hash__`, `__eq__` and `__bool__` jaxdc could call on them.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import jax
import jaxdc as jdc
import numpy as np
import pytest
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P

CALLS: Counter[str] = Counter()


class CountingArray(np.ndarray):
    """A leaf that records being hashed, compared or truth-tested."""

    def __hash__(self) -> int:
        CALLS["leaf hash"] += 1
        return id(self)

    def __eq__(self, other: object) -> Any:  # type: ignore[override]
        CALLS["leaf eq"] += 1
        return super().__eq__(other)

    def __bool__(self) -> bool:
        CALLS["leaf bool"] += 1
        return super().__bool__()


def counting(shape: tuple[int, ...], start: float = 0.0) -> CountingArray:
    size = int(np.prod(shape))
    return (np.arange(size, dtype=np.float32) + start).reshape(shape).view(CountingArray)


@jdc.pytree_dataclass
class Dense:
    w: Any
    b: Any
    activation: jdc.Static[str] = "relu"


class State(jdc.PyTreeNode):
    layers: list
    step: Any
    name: jdc.Static[str] = "state"

    def __post_init__(self) -> None:
        CALLS["validation"] += 1


def _state(start: float = 0.0) -> State:
    layers = [Dense(counting((8, 4), start), counting((4,), start)) for _ in range(2)]
    return State(layers, counting((), start))


def _shardings(mesh: Mesh, weights: P, bias: P) -> State:
    """A sharding tree of the same class: leaves are shardings, statics are the state's."""
    dense = Dense(NamedSharding(mesh, weights), NamedSharding(mesh, bias))
    return State([dense, dense], NamedSharding(mesh, P()))


def _mesh(shape: tuple[int, int]) -> Mesh:
    devices = np.array(jax.devices()[: shape[0] * shape[1]]).reshape(shape)
    return Mesh(devices, ("data", "model"))


def _no_leaf_touched(constructed: int) -> None:
    assert CALLS["validation"] == constructed, CALLS  # only the user's constructions
    assert not CALLS["leaf hash"] and not CALLS["leaf eq"] and not CALLS["leaf bool"], CALLS


def _shardings_of(tree: Any) -> list[Any]:
    return [leaf.sharding for leaf in jax.tree.leaves(tree)]


@pytest.fixture(autouse=True)
def _fresh_counts() -> None:
    assert len(jax.devices()) == 8, "run with XLA_FLAGS=--xla_force_host_platform_device_count=8"
    CALLS.clear()


def test_device_put_with_a_sharding_tree_of_the_same_class() -> None:
    state = _state()
    shardings = _shardings(_mesh((2, 4)), P("data", "model"), P("model"))
    placed = jax.device_put(state, shardings)
    assert type(placed) is State and placed.name == "state"
    assert placed.layers[0].activation == "relu"
    assert _shardings_of(placed) == jax.tree.leaves(shardings)
    assert placed.layers[1].w.addressable_shards[0].data.shape == (4, 1)
    np.testing.assert_array_equal(placed.layers[0].w, np.asarray(state.layers[0].w))
    _no_leaf_touched(constructed=1 + 1)  # the state and the sharding tree


def test_jit_with_in_and_out_shardings_given_as_instances() -> None:
    mesh = _mesh((2, 4))
    inputs = _shardings(mesh, P("data", "model"), P("model"))
    outputs = _shardings(mesh, P("model", "data"), P())

    def update(s: State) -> State:
        layers = [jdc.replace(d, w=d.w * 2, b=d.b + 1) for d in s.layers]
        return jdc.replace(s, layers=layers, step=s.step + 1)

    step = jax.jit(update, in_shardings=(inputs,), out_shardings=outputs)
    state = _state()
    out = step(state)
    assert type(out) is State and out.layers[0].activation == "relu"
    assert out.layers[0].w.sharding == NamedSharding(mesh, P("model", "data"))
    assert out.layers[1].b.sharding == NamedSharding(mesh, P())
    np.testing.assert_array_equal(out.layers[1].w, np.asarray(state.layers[1].w) * 2)
    assert float(out.step) == 1.0
    # replace inside jit re-runs __post_init__ once per traced replace (tracing only).
    validations = CALLS["validation"]
    again = _state(2.0)  # one validation: the user constructs it
    step(again)  # cached: no retrace, so no replace runs
    assert CALLS["validation"] == validations + 1
    assert not CALLS["leaf hash"] and not CALLS["leaf eq"] and not CALLS["leaf bool"], CALLS


def test_shard_map_with_specs_given_as_an_instance() -> None:
    shard_map = getattr(jax, "shard_map", None)
    if shard_map is None:  # jax < 0.6
        from jax.experimental.shard_map import shard_map
    mesh = _mesh((2, 4))
    specs = State([Dense(P("data", "model"), P("model"))] * 2, P())

    def local(s: State) -> State:
        return jax.tree.map(lambda x: x * 3, s)

    mapped = jax.jit(shard_map(local, mesh=mesh, in_specs=(specs,), out_specs=specs))
    state = _state(1.0)
    out = mapped(state)
    assert type(out) is State and out.name == "state"
    np.testing.assert_array_equal(out.layers[0].w, np.asarray(state.layers[0].w) * 3)
    assert out.layers[0].w.sharding.spec == P("data", "model")
    _no_leaf_touched(constructed=2)  # the specs tree and the state


def test_pmap_over_a_stacked_state() -> None:
    stacked = State([Dense(counting((8, 3)), counting((8,)))], counting((8,)), name="stacked")
    out = jax.pmap(lambda s: jax.tree.map(lambda x: x + 1, s))(stacked)
    assert type(out) is State and out.name == "stacked" and len(out.step.devices()) == 8
    np.testing.assert_array_equal(out.layers[0].w, np.asarray(stacked.layers[0].w) + 1)
    summed = jax.pmap(lambda s: jax.lax.psum(s.step, "i"), axis_name="i")(stacked)
    assert float(summed[0]) == float(np.sum(np.asarray(stacked.step)))
    _no_leaf_touched(constructed=1)


def test_donated_sharded_state_is_consumed_and_the_result_is_an_instance() -> None:
    mesh = _mesh((2, 4))
    state = jax.device_put(_state(), _shardings(mesh, P("data", "model"), P("model")))
    CALLS.clear()
    step = jax.jit(lambda s: jax.tree.map(lambda x: x + 1, s), donate_argnums=0)
    out = step(state)
    assert type(out) is State and out.layers[0].w.sharding == state.layers[0].w.sharding
    assert all(leaf.is_deleted() for leaf in jax.tree.leaves(state))
    assert float(out.layers[0].b[0]) == 1.0
    assert CALLS["validation"] == 0


def test_orbax_checkpoint_of_a_sharded_state_restores_onto_another_mesh(tmp_path: Path) -> None:
    ocp = pytest.importorskip("orbax.checkpoint")
    saved_mesh = _mesh((2, 4))
    state = jax.device_put(_state(5.0), _shardings(saved_mesh, P("data", "model"), P("model")))
    checkpointer = ocp.StandardCheckpointer()
    checkpointer.save(tmp_path / "ckpt", state)
    checkpointer.wait_until_finished()
    tree = checkpointer.metadata(tmp_path / "ckpt").item_metadata.tree
    assert set(tree) == {"layers", "step"} and set(tree["layers"][0]) == {"w", "b"}

    other = _mesh((4, 2))
    new_shardings = _shardings(other, P("model", "data"), P("data"))
    target = jax.tree.map(
        lambda x, s: jax.ShapeDtypeStruct(x.shape, x.dtype, sharding=s), state, new_shardings
    )
    CALLS.clear()
    restored = checkpointer.restore(tmp_path / "ckpt", target)
    assert type(restored) is State and restored.name == "state"
    assert restored.layers[0].w.sharding == NamedSharding(other, P("model", "data"))
    assert restored.layers[1].b.sharding == NamedSharding(other, P("data"))
    np.testing.assert_array_equal(restored.layers[1].w, np.asarray(state.layers[1].w))
    assert CALLS["validation"] == 0
