"""repr (arrays as dtype+shape, nested trees indented) and == / hash semantics."""

from __future__ import annotations

import dataclasses
from typing import Any

import jax
import jax.numpy as jnp
import jaxdc as jdc
import numpy as np
import pytest


@jdc.pytree_dataclass
class Layer:
    w: jax.Array
    b: jax.Array
    name: jdc.Static[str] = "layer"


@jdc.pytree_dataclass
class Net:
    layers: list
    extra: dict
    scale: float = 1.0


def _net(n: int = 2) -> Net:
    return Net(
        [Layer(jnp.zeros((3, 4)), jnp.zeros(4, jnp.int32)) for _ in range(n)],
        {"mask": np.ones(2, bool)},
    )


# ---- repr ---------------------------------------------------------------------------


def test_repr_shows_dtype_and_shape_not_values() -> None:
    layer = Layer(jnp.zeros((3, 4)), jnp.zeros(4, jnp.int32))
    assert repr(layer) == "Layer(w=f32[3,4], b=i32[4], name='layer')"
    assert "0." not in repr(layer)
    assert (
        repr(Layer(jnp.float32(1), jnp.zeros((), jnp.bfloat16)))
        == "Layer(w=f32[], b=bf16[], name='layer')"
    )


def test_repr_of_numpy_leaves_says_numpy() -> None:
    assert (
        repr(Layer(np.zeros(2, np.float64), np.zeros(1, np.uint8)))
        == "Layer(w=f64[2](numpy), b=u8[1](numpy), name='layer')"
    )


def test_nested_repr_is_indented_when_it_does_not_fit() -> None:
    text = repr(_net(3))
    assert text.splitlines() == [
        "Net(",
        "  layers=[",
        "    Layer(w=f32[3,4], b=i32[4], name='layer'),",
        "    Layer(w=f32[3,4], b=i32[4], name='layer'),",
        "    Layer(w=f32[3,4], b=i32[4], name='layer'),",
        "  ],",
        "  extra={'mask': bool[2](numpy)},",
        "  scale=1.0,",
        ")",
    ]
    short = Net([Layer(jnp.zeros((3, 4)), jnp.zeros(4, jnp.int32))], {})
    assert (
        repr(short)
        == "Net(layers=[Layer(w=f32[3,4], b=i32[4], name='layer')], extra={}, scale=1.0)"
    )


def test_full_values_stay_reachable_through_the_field() -> None:
    layer = Layer(jnp.arange(3.0), jnp.zeros(1))
    assert "0., 1., 2." in repr(layer.w)


def test_repr_under_jit_shows_traced_shapes() -> None:
    seen = []
    jax.jit(lambda l: seen.append(repr(l)))(Layer(jnp.zeros(2), jnp.zeros(3)))
    assert seen == ["Layer(w=f32[2], b=f32[3], name='layer')"]


def test_user_repr_and_repr_false_are_respected() -> None:
    @jdc.pytree_dataclass
    class Own:
        x: jax.Array

        def __repr__(self) -> str:
            return "mine"

    @jdc.pytree_dataclass(repr=False)
    class Plain:
        x: jax.Array

    @jdc.pytree_dataclass
    class Hidden:
        x: jax.Array
        secret: jax.Array = jdc.field(repr=False, default_factory=lambda: jnp.zeros(1))

    assert repr(Own(jnp.zeros(1))) == "mine"
    assert repr(Plain(jnp.zeros(1))).startswith("<")  # object's default
    assert repr(Hidden(jnp.zeros(1))) == "Hidden(x=f32[1])"
    assert repr(Net([Own(jnp.zeros(1))], {})) == "Net(layers=[mine], extra={}, scale=1.0)"


# ---- == and hash --------------------------------------------------------------------


def test_eq_compares_values_and_returns_a_bool() -> None:
    a, b = _net(), _net()
    assert (a == b) is True
    changed = jdc.replace(a, layers=[a.layers[0], Layer(jnp.ones((3, 4)), jnp.zeros(4, jnp.int32))])
    assert (a == changed) is False
    assert a != changed


@pytest.mark.parametrize(
    "other",
    [
        Layer(jnp.zeros((3, 4)), jnp.zeros(4, jnp.float32)),  # dtype differs
        Layer(jnp.zeros((4, 3)), jnp.zeros(4, jnp.int32)),  # shape differs
        Layer(jnp.zeros((3, 4)), jnp.zeros(4, jnp.int32), name="other"),  # static differs
        Layer(np.zeros((3, 4), np.float32), 0),  # non-array vs array
    ],
)
def test_eq_is_false_on_any_difference(other: Layer) -> None:
    assert (Layer(jnp.zeros((3, 4)), jnp.zeros(4, jnp.int32)) == other) is False


def test_eq_numpy_and_jax_arrays_of_same_values_are_equal() -> None:
    assert Layer(jnp.arange(3.0), jnp.zeros(1)) == Layer(
        np.arange(3, dtype=np.float32), jnp.zeros(1)
    )


def test_eq_other_class_and_identity() -> None:
    layer = Layer(jnp.full(1, jnp.nan), jnp.zeros(1))
    assert layer == layer  # identity, even with NaN
    assert layer != Layer(jnp.full(1, jnp.nan), jnp.zeros(1))  # NaN != NaN, like ==
    assert layer != "Layer" and layer in [object(), layer]

    @jdc.pytree_dataclass
    class Sub(Layer):
        pass

    assert Layer(jnp.zeros(1), jnp.zeros(1)) != Sub(jnp.zeros(1), jnp.zeros(1))


def test_eq_under_tracing_raises_naming_class_and_field() -> None:
    def f(x: jax.Array) -> Any:
        return Layer(x, jnp.zeros(1)) == Layer(x + 1, jnp.zeros(1))

    with pytest.raises(
        TypeError, match="instances of 'Layer' with ==: field 'w' holds a traced array"
    ):
        jax.jit(f)(jnp.zeros(2))
    with pytest.raises(TypeError, match="field 'w'"):
        jax.vmap(f)(jnp.zeros((2, 3)))


def test_compare_false_fields_are_ignored() -> None:
    @jdc.pytree_dataclass
    class Tagged:
        x: jax.Array
        note: jax.Array = jdc.field(compare=False, default_factory=lambda: jnp.zeros(1))

    assert Tagged(jnp.zeros(1), jnp.ones(1)) == Tagged(jnp.zeros(1), jnp.zeros(1))


def test_hash_is_consistent_with_eq_and_refuses_arrays() -> None:
    @jdc.pytree_dataclass
    class Config:
        depth: int
        names: tuple

    assert hash(Config(2, ("a",))) == hash(Config(2, ("a",)))
    assert {Config(2, ("a",)): 1}[Config(2, ("a",))] == 1
    with pytest.raises(
        TypeError, match="instance of 'Layer' is not hashable: field 'w' holds an array"
    ):
        hash(Layer(jnp.zeros(1), jnp.zeros(1)))


def test_jaxdc_instance_without_arrays_can_be_static() -> None:
    @jdc.pytree_dataclass
    class Config:
        depth: jdc.Static[int]

    @jdc.pytree_dataclass
    class Model:
        w: jax.Array
        cfg: jdc.Static[Config]

    m = Model(jnp.ones(2), Config(3))
    assert jax.jit(lambda m: m.w * m.cfg.depth)(m).tolist() == [3.0, 3.0]


def test_user_eq_and_eq_false_are_respected() -> None:
    @jdc.pytree_dataclass
    class Own:
        x: jax.Array

        def __eq__(self, other: object) -> bool:
            return True

    @jdc.pytree_dataclass(eq=False)
    class Identity:
        x: jax.Array

    assert Own(jnp.zeros(1)) == Own(jnp.ones(1))
    a = Identity(jnp.zeros(1))
    assert a == a and a != Identity(jnp.zeros(1)) and isinstance(hash(a), int)
    with pytest.raises(TypeError, match="instance of 'Own' is not hashable: field 'x'"):
        hash(Own(jnp.zeros(1)))  # dataclasses generate a hash here too; ours explains arrays

    @jdc.pytree_dataclass
    class OwnHash:
        x: jax.Array

        def __hash__(self) -> int:
            return 7

    assert hash(OwnHash(jnp.zeros(1))) == 7
    assert dataclasses.fields(Own)[0].name == "x"


def test_prng_keys_print_and_compare_by_key_data() -> None:
    @jdc.pytree_dataclass
    class Rng:
        key: jax.Array

    a = Rng(jax.random.split(jax.random.key(0), 2))
    assert repr(a) == "Rng(key=key<fry>[2])"
    assert a == Rng(jax.random.split(jax.random.key(0), 2))
    assert a != Rng(
        jax.random.split(jax.random.key(1), 2)
    )  # numpy's array_equal says False for both


def test_repr_of_a_deep_tree_is_linear_not_exponential() -> None:
    @jdc.pytree_dataclass
    class Chain:
        w: jax.Array
        nxt: Any = None

    node = None
    for _ in range(40):
        node = Chain(jnp.zeros(1), node)
    text = repr(node)
    assert text.count("Chain(") == 40 and text.count("w=f32[1]") == 40
