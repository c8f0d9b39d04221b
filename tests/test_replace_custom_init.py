"""PyTreeNode.replace (flax parity) and custom __init__ (OJAX parity) under real transformations."""

from __future__ import annotations

import dataclasses

import jax
import jax.numpy as jnp
import jaxdc as jdc
import pytest


class State(jdc.PyTreeNode):
    params: jax.Array
    step: jax.Array
    lr: jdc.Static[float] = 0.1


def test_replace_method_and_function_agree() -> None:
    s = State(jnp.ones(2), jnp.asarray(0))
    a, b = s.replace(step=s.step + 1), jdc.replace(s, step=s.step + 1)
    assert type(a) is State and int(a.step) == int(b.step) == 1
    assert a.params is s.params  # unchanged fields are shared, not copied
    assert int(s.step) == 0  # the original is untouched


def test_replace_unknown_field_lists_the_valid_ones() -> None:
    s = State(jnp.ones(2), jnp.asarray(0))
    with pytest.raises(
        TypeError,
        match=r"unknown field\(s\) 'stepp' for class 'State'; its fields are: params, step, lr",
    ):
        s.replace(stepp=1)


def test_replace_validates_changed_static_values() -> None:
    s = State(jnp.ones(2), jnp.asarray(0))
    with pytest.raises(TypeError, match="static field 'lr' of class 'State'"):
        s.replace(lr=jnp.ones(1))
    assert jax.tree.structure(s.replace(lr=0.2)) != jax.tree.structure(s)


def test_replace_inside_jit_and_a_training_step() -> None:
    @jax.jit
    def train_step(s: State) -> State:
        grad = jax.grad(lambda p: jnp.sum(p**2))(s.params)
        return s.replace(params=s.params - s.lr * grad, step=s.step + 1)

    s = train_step(train_step(State(jnp.ones(2), jnp.asarray(0))))
    assert int(s.step) == 2 and s.params.tolist() == pytest.approx([0.64, 0.64])


class _Calls:
    init = 0


@jdc.pytree_dataclass
class Linear:
    """OJAX-style: the constructor takes other parameters than the fields."""

    w: jax.Array
    b: jax.Array
    features: jdc.Static[int]

    def __init__(self, features: int, scale: float = 1.0) -> None:
        _Calls.init += 1
        self.features = features
        self.w = jnp.full((features, features), scale)
        self.b = jnp.zeros(features)

    def __call__(self, x: jax.Array) -> jax.Array:
        return x @ self.w + self.b


def test_custom_init_runs_once_never_on_unflatten_tree_map_jit_vmap_grad() -> None:
    _Calls.init = 0
    lin = Linear(3, scale=2.0)
    assert _Calls.init == 1 and lin.w.shape == (3, 3) and lin.features == 3

    mapped = jax.tree.map(lambda x: x + 1, lin)
    flat, treedef = jax.tree.flatten(lin)
    rebuilt = jax.tree.unflatten(treedef, flat)
    jitted = jax.jit(lambda m, x: (m(x), m))(lin, jnp.ones(3))
    batched = jax.vmap(lambda m, x: m(x), in_axes=(None, 0))(lin, jnp.ones((4, 3)))
    grads = jax.grad(lambda m: jnp.sum(m(jnp.ones(3))))(lin)
    replaced = lin.w  # keep a reference for the replace check below
    new = jdc.replace(lin, w=replaced * 0)

    assert _Calls.init == 1  # none of the above called __init__
    assert isinstance(mapped, Linear) and float(mapped.b[0]) == 1.0
    assert isinstance(rebuilt, Linear) and rebuilt.features == 3
    assert isinstance(jitted[1], Linear) and jitted[0].tolist() == [6.0] * 3
    assert batched.shape == (4, 3)
    assert isinstance(grads, Linear) and grads.b.tolist() == [1.0] * 3
    assert isinstance(new, Linear) and float(new.w.sum()) == 0.0 and new.features == 3


def test_custom_init_may_read_fields_it_already_set() -> None:
    @jdc.pytree_dataclass
    class Derived:
        x: jax.Array
        double: jax.Array

        def __init__(self, x: float) -> None:
            self.x = jnp.asarray(x)
            self.double = self.x * 2

    assert float(Derived(3.0).double) == 6.0


def test_custom_init_leaving_a_field_unset_names_it() -> None:
    @jdc.pytree_dataclass
    class Half:
        a: jax.Array
        b: jax.Array

        def __init__(self) -> None:
            self.a = jnp.zeros(1)

    with pytest.raises(TypeError, match="field 'b' of class 'Half' was not set by __init__"):
        Half()


def test_custom_init_instance_is_frozen_after_construction() -> None:
    lin = Linear(2)
    with pytest.raises(dataclasses.FrozenInstanceError, match="field 'w' of 'Linear'"):
        lin.w = jnp.zeros((2, 2))  # type: ignore[misc]
