"""Real JAX transformations, pickling and copying of jaxdc instances."""

from __future__ import annotations

import copy
import pickle

import jax
import jax.numpy as jnp
import jaxdc as jdc
import pytest


@jdc.pytree_dataclass
class Params:
    w: jax.Array
    b: jax.Array


@jdc.pytree_dataclass
class TrainState:
    params: Params
    step: jax.Array
    lr: jdc.Static[float] = 0.1


def loss(params: Params, x: jax.Array) -> jax.Array:
    return jnp.sum((x @ params.w + params.b) ** 2)


def _state() -> TrainState:
    return TrainState(Params(jnp.ones((3, 2)), jnp.zeros(2)), jnp.array(0))


def test_jit_grad_update_loop() -> None:
    @jax.jit
    def update(state: TrainState, x: jax.Array) -> TrainState:
        grads = jax.grad(loss)(state.params, x)
        params = jax.tree.map(lambda p, g: p - state.lr * g, state.params, grads)
        return jdc.replace(state, params=params, step=state.step + 1)

    state = jdc.replace(_state(), lr=0.001)
    x = jnp.ones((4, 3))
    first = loss(state.params, x)
    for _ in range(3):
        state = update(state, x)
    assert int(state.step) == 3 and float(loss(state.params, x)) < float(first)
    assert isinstance(state, TrainState) and isinstance(state.params, Params)


def test_static_field_changes_retrace_and_is_visible_in_python() -> None:
    traces = []

    @jax.jit
    def f(state: TrainState) -> jax.Array:
        traces.append(state.lr)
        return state.step * state.lr

    s = _state()
    f(s)
    f(s)
    f(jdc.replace(s, lr=0.5))
    assert traces == [0.1, 0.5]


def test_vmap_over_instances_and_in_axes_by_structure() -> None:
    batch = Params(jnp.ones((5, 3, 2)), jnp.zeros((5, 2)))
    out = jax.vmap(lambda p: jnp.sum(p.w) + jnp.sum(p.b))(batch)
    assert out.shape == (5,) and float(out[0]) == 6.0
    axes = Params(w=0, b=None)  # type: ignore[arg-type]
    mixed = jax.vmap(lambda p: p.w.sum() + p.b.sum(), in_axes=(axes,))(
        Params(jnp.ones((5, 3, 2)), jnp.ones(2))
    )
    assert mixed.shape == (5,) and float(mixed[0]) == 8.0


def test_grad_returns_instance_and_scan_carries_it() -> None:
    g = jax.grad(loss)(_state().params, jnp.ones((1, 3)))
    assert isinstance(g, Params) and g.w.shape == (3, 2)

    def body(carry: TrainState, _: None) -> tuple[TrainState, jax.Array]:
        return jdc.replace(carry, step=carry.step + 1), carry.step

    final, steps = jax.lax.scan(body, _state(), None, length=4)
    assert int(final.step) == 4 and steps.tolist() == [0, 1, 2, 3]


def test_pickle_deepcopy_copy_round_trip() -> None:
    s = _state()
    for clone in (pickle.loads(pickle.dumps(s)), copy.deepcopy(s), copy.copy(s)):
        assert type(clone) is TrainState and clone.lr == 0.1
        assert clone.params.w.tolist() == s.params.w.tolist()
        assert jax.tree.structure(clone) == jax.tree.structure(s)
        assert jax.jit(lambda t: t.step + 1)(clone) == 1
    assert copy.deepcopy(s).params is not s.params


def test_replace_unknown_field_lists_valid_ones() -> None:
    with pytest.raises(
        TypeError,
        match="unknown field\\(s\\) 'stp' for class 'TrainState'; its fields are: params, step, lr",
    ):
        jdc.replace(_state(), stp=1)
    with pytest.raises(
        TypeError,
        match=r"needs an instance of a jaxdc pytree dataclass, got an instance of 'int' \(3\)\.",
    ):
        jdc.replace(3, x=1)


def test_replace_protocols_use_the_fast_path_and_validate() -> None:
    s = _state()
    assert s.__replace__(lr=0.3).lr == 0.3  # what copy.replace calls on Python 3.13+
    if hasattr(copy, "replace"):
        assert copy.replace(s, lr=0.4).lr == 0.4
    with pytest.raises(TypeError, match="static field 'lr' of class 'TrainState'"):
        s.__replace__(lr=[0.1])


def test_dataclasses_helpers_work() -> None:
    s = _state()
    assert jdc.is_dataclass(s) and [f.name for f in jdc.fields(s)] == ["params", "step", "lr"]
    d = jdc.asdict(s)
    assert set(d) == {"params", "step", "lr"} and set(d["params"]) == {"w", "b"}
    assert len(jdc.astuple(s)) == 3
    import dataclasses

    assert dataclasses.replace(s, lr=0.2).lr == 0.2
