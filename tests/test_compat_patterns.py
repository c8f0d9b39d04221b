"""The usage patterns of jax_dataclasses, flax.struct, jax.tree_util.register_dataclass and
equinox, written against jaxdc after the migration docs/migrating.md describes.

Each test is the documented behaviour of the peer's API as a user relies on it; where the
spelling differs, the comment names the peer's spelling.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import jax
import jax.numpy as jnp
import jaxdc as jdc
import pytest

# ---- jax_dataclasses: `import jax_dataclasses as jdc` -> `import jaxdc as jdc` --------


@jdc.pytree_dataclass
class Params:
    w: jax.Array
    b: jax.Array


@jdc.pytree_dataclass
class Config:
    params: Params
    depth: jdc.Static[int]
    name: str = jdc.static_field(default="cfg")  # jdc.static_field() spelling still works


def _config() -> Config:
    return Config(Params(jnp.ones((2, 2)), jnp.zeros(2)), depth=2)


def test_jdc_static_fields_are_treedef_not_leaves() -> None:
    cfg = _config()
    assert len(jax.tree.leaves(cfg)) == 2
    assert jax.tree.structure(cfg) != jax.tree.structure(dataclasses.replace(cfg, depth=3))
    traces = []

    @jax.jit
    def f(c: Config) -> jax.Array:
        traces.append(c.depth)  # a Python int at trace time
        return c.params.w * c.depth

    f(cfg), f(cfg)
    assert traces == [2]


def test_jdc_copy_and_mutate_with_and_without_validation() -> None:
    cfg = _config()
    with jdc.copy_and_mutate(cfg) as updated:
        updated.params.b = updated.params.b + 1.0
    assert updated.params.b.tolist() == [1.0, 1.0] and cfg.params.b.tolist() == [0.0, 0.0]
    with pytest.raises(
        ValueError, match=r"new\.params\.w: field 'w' of class 'Params': shape changed"
    ):
        with jdc.copy_and_mutate(cfg) as updated:
            updated.params.w = jnp.ones(3)
    with jdc.copy_and_mutate(cfg, validate=False) as updated:
        updated.params.w = jnp.ones(3)
    assert updated.params.w.shape == (3,)


def test_jdc_jit_with_static_annotation() -> None:
    @jdc.jit
    def repeat(x: jax.Array, times: jdc.Static[int]) -> jax.Array:
        for _ in range(times):
            x = x * 2
        return x

    assert repeat(jnp.ones(1), 3).tolist() == [8.0]


def test_jdc_dataclasses_replace_and_helpers() -> None:
    cfg = _config()
    assert dataclasses.replace(cfg, depth=4).depth == 4
    assert jdc.asdict(cfg)["depth"] == 2 and jdc.is_dataclass(cfg)


# ---- flax.struct: `from flax import struct` ------------------------------------------


class TrainState(jdc.PyTreeNode):  # struct.PyTreeNode
    step: jax.Array
    params: Params
    apply_fn: Any = jdc.field(static=True, default=None)  # struct.field(pytree_node=False)


@jdc.pytree_dataclass  # @struct.dataclass
class Metrics:
    loss: jax.Array
    count: jax.Array


def test_flax_pytreenode_replace_and_non_pytree_field() -> None:
    state = TrainState(jnp.asarray(0), Params(jnp.ones(2), jnp.zeros(2)), apply_fn=jnp.tanh)
    new = state.replace(step=state.step + 1)
    assert int(new.step) == 1 and new.apply_fn is jnp.tanh
    assert len(jax.tree.leaves(state)) == 3  # apply_fn is not a leaf

    @jax.jit
    def step(s: TrainState) -> TrainState:
        grads = jax.grad(lambda p: jnp.sum(s.apply_fn(p.w)))(s.params)
        return s.replace(
            step=s.step + 1, params=jax.tree.map(lambda p, g: p - 0.1 * g, s.params, grads)
        )

    assert int(step(step(state)).step) == 2


def test_flax_struct_dataclass_is_frozen_and_vmappable() -> None:
    m = Metrics(jnp.ones(3), jnp.ones(3))
    with pytest.raises(
        dataclasses.FrozenInstanceError,
        match=r"cannot assign to field 'loss' of 'Metrics': jaxdc instances are frozen",
    ):
        m.loss = jnp.zeros(3)  # type: ignore[misc]
    total = jax.vmap(lambda x: Metrics(x.loss * 2, x.count))(m)
    assert isinstance(total, Metrics) and total.loss.tolist() == [2.0] * 3
    # @struct.dataclass adds a .replace method; with the decorator use jaxdc.replace
    assert jdc.replace(m, count=jnp.zeros(3)).count.tolist() == [0.0] * 3


def test_flax_pytreenode_class_keywords() -> None:
    class Opts(jdc.PyTreeNode, kw_only=True):  # struct.PyTreeNode accepts the same keywords
        lr: jax.Array
        beta: jax.Array

    with pytest.raises(
        TypeError, match=r"__init__\(\) takes 1 positional argument but 3 were given"
    ):
        Opts(jnp.ones(()), jnp.ones(()))  # type: ignore[misc]
    assert float(Opts(lr=jnp.ones(()), beta=jnp.zeros(())).lr) == 1.0


def test_flax_serialization_round_trip() -> None:
    serialization = pytest.importorskip("flax.serialization")
    state = TrainState(jnp.asarray(3), Params(jnp.ones(2), jnp.zeros(2)))
    restored = serialization.from_bytes(
        TrainState(jnp.asarray(0), Params(jnp.zeros(2), jnp.zeros(2))),
        serialization.to_bytes(state),
    )
    assert int(restored.step) == 3 and restored.params.w.tolist() == [1.0, 1.0]


# ---- jax.tree_util.register_dataclass ------------------------------------------------


@jdc.pytree_dataclass
class Registered:
    x: jax.Array
    # register_dataclass(cls, data_fields=["x"], meta_fields=["n"]) or field metadata
    n: int = dataclasses.field(metadata={"static": True}, default=1)


def test_register_dataclass_style_metadata_static() -> None:
    r = Registered(jnp.ones(2), n=3)
    assert jax.tree.leaves(r)[0].tolist() == [1.0, 1.0] and len(jax.tree.leaves(r)) == 1
    assert jax.tree.map(lambda v: v * 2, r).n == 3
    keys = [jax.tree_util.keystr(k) for k, _ in jax.tree_util.tree_flatten_with_path(r)[0]]
    assert keys == [".x"]


# ---- equinox: `eqx.Module` -> `jaxdc.PyTreeNode` --------------------------------------


class MLP(jdc.PyTreeNode):
    w: jax.Array
    b: jax.Array
    activation: Any = jdc.field(static=True)  # eqx.field(static=True)

    def __init__(self, size: int, key: jax.Array) -> None:  # custom __init__, as in equinox
        self.w = jax.random.normal(key, (size, size))
        self.b = jnp.zeros(size)
        self.activation = jax.nn.relu

    def __call__(self, x: jax.Array) -> jax.Array:
        return self.activation(x @ self.w + self.b)


def test_equinox_module_pattern() -> None:
    mlp = MLP(3, jax.random.PRNGKey(0))
    out = jax.jit(lambda m, x: m(x))(mlp, jnp.ones(3))  # eqx.filter_jit(...)
    assert out.shape == (3,)
    grads = jax.grad(lambda m: jnp.sum(m(jnp.ones(3))))(mlp)  # eqx.filter_grad(...)
    assert isinstance(grads, MLP) and grads.activation is jax.nn.relu


def test_equinox_tree_at_becomes_copy_and_mutate() -> None:
    mlp = MLP(2, jax.random.PRNGKey(1))
    # eqx.tree_at(lambda m: m.b, mlp, jnp.ones(2))
    with jdc.copy_and_mutate(mlp) as new:
        new.b = jnp.ones(2)
    assert new.b.tolist() == [1.0, 1.0] and mlp.b.tolist() == [0.0, 0.0]


def test_equinox_style_equality_and_repr() -> None:
    a = MLP(2, jax.random.PRNGKey(2))
    b = MLP(2, jax.random.PRNGKey(2))
    assert a == b and "w=f32[2,2]" in repr(a)
