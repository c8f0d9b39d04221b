"""`jaxdc.attr(obj, lambda o: o.path).set(value)` behaves exactly like `obj.path = value`."""

from __future__ import annotations

import dataclasses
from typing import Any

import jax
import jax.numpy as jnp
import pytest
from jaxdc import copy_and_mutate, field, pytree_dataclass
from jaxdc._mutation import attr


@pytree_dataclass
class Linear:
    w: jax.Array
    b: jax.Array

    def __init__(self, n: int) -> None:
        attr(self, lambda s: s.w).set(jnp.zeros(n))
        attr(self, lambda s: s.b).set(jnp.ones(n))


@pytree_dataclass
class Stats:
    xs: jax.Array
    mean: jax.Array = field(init=False, pytree=True)

    def __post_init__(self) -> None:
        attr(self, lambda s: s.mean).set(self.xs.mean())


@pytree_dataclass
class Cached:
    xs: jax.Array
    scratch: int = field(pytree=False, default=0)

    def __post_init__(self) -> None:
        attr(self, lambda s: s.scratch).set(1)


def test_sets_fields_in_custom_init_and_survives_tree_map() -> None:
    layer = jax.tree_util.tree_map(lambda x: x + 1, Linear(2))
    assert layer.w.tolist() == [1.0, 1.0]
    assert layer.b.tolist() == [2.0, 2.0]


def test_sets_fields_in_post_init() -> None:
    assert float(Stats(jnp.arange(3.0)).mean) == 1.0


def test_is_refused_where_plain_assignment_is() -> None:
    layer = Linear(2)
    with pytest.raises(
        dataclasses.FrozenInstanceError,
        match=r"cannot assign to field 'w' of 'Linear': jaxdc instances are frozen",
    ):
        attr(layer, lambda s: s.w).set(jnp.ones(2))
    assert layer.w.tolist() == [0.0, 0.0]


def test_keeps_the_runtime_rule_for_excluded_fields() -> None:
    with pytest.raises(TypeError, match="left out of the pytree"):
        Cached(jnp.zeros(1))


def test_follows_a_path_and_never_reads_the_target() -> None:
    @pytree_dataclass
    class Box:
        value: int

        def __init__(self) -> None:
            attr(self, lambda o: o.value).set(3)  # self.value does not exist yet

    assert Box().value == 3


@pytest.mark.parametrize(
    ("obj", "got"),
    [
        (Linear, "got the class 'Linear'. Fix: pass an instance of the class"),
        (dataclasses.make_dataclass("Plain", ["w"])(1), "got an instance of 'Plain'."),
        (None, "got None."),
    ],
)
def test_refuses_what_is_not_a_jaxdc_instance_naming_it(obj: object, got: str) -> None:
    with pytest.raises(TypeError, match="jaxdc.attr\\(\\) needs an instance of a jaxdc") as info:
        attr(obj, lambda o: o.w)
    assert got in str(info.value)


def test_refuses_to_assign_through_a_path_to_something_else() -> None:
    with copy_and_mutate(_net()) as new:
        handle = attr(new, lambda o: o.table["k"].w.real)
        with pytest.raises(
            TypeError, match=r"path 'o.table\['k'\].w' leads to an array \(f32\[2\]\)"
        ):
            handle.set(2)


@pytest.mark.parametrize(
    "where",
    [
        lambda o: o,
        lambda o: 1,
        lambda o: len(o.name),
        lambda o: o.xs + 1,
        lambda o: o.layers[1:].w,  # a slice is a new list, not a place in the object
    ],
)
def test_rejects_functions_that_are_not_attribute_paths(where: object) -> None:
    with pytest.raises(TypeError, match=r"attribute path .*lambda o: o\.a\.b"):
        attr(Linear(1), where)  # type: ignore[arg-type]


def test_rejects_a_path_ending_in_a_subscript_and_names_the_fix() -> None:
    with pytest.raises(
        TypeError,
        match=r"`lambda o: o\.layers\[0\]` ends in a subscript\. Fix: .*`new\.layers\[0\] = value`",
    ):
        attr(Linear(1), lambda o: o.layers[0])  # type: ignore[attr-defined]


def test_repr_names_the_path() -> None:
    assert repr(attr(Linear(1), lambda s: s.w)) == "jaxdc.attr(Linear, lambda o: o.w)"
    assert (
        repr(attr(Linear(1), lambda s: s.layers[0].table["k"].w))  # type: ignore[attr-defined]
        == "jaxdc.attr(Linear, lambda o: o.layers[0].table['k'].w)"
    )


# -- index paths --------------------------------------------------------------------------


@pytree_dataclass
class Layer:
    w: jax.Array
    b: jax.Array


@pytree_dataclass
class Net:
    layers: list[Layer]
    table: dict[str, Layer]
    step: jax.Array


def _net() -> Net:
    layer = Layer(jnp.ones(2), jnp.zeros(2))
    return Net([layer, layer], {"k": layer}, jnp.zeros((), jnp.int32))


def _edit(net: Net, w: jax.Array) -> Net:
    with copy_and_mutate(net) as new:
        attr(new, lambda n: n.layers[0].w).set(w)
        attr(new, lambda n: n.table["k"].b).set(new.table["k"].b + 1)
        attr(new, lambda n: n.step).set(new.step + 1)
    return new


def test_index_paths_assign_inside_copy_and_mutate_under_jit_and_vmap() -> None:
    net = _net()
    for new in (_edit(net, jnp.full(2, 5.0)), jax.jit(_edit)(net, jnp.full(2, 5.0))):
        assert new.layers[0].w.tolist() == [5.0, 5.0] and new.layers[1].w.tolist() == [1.0, 1.0]
        assert new.table["k"].b.tolist() == [1.0, 1.0] and int(new.step) == 1
        assert jax.tree.structure(new) == jax.tree.structure(net)
    assert net.layers[0].w.tolist() == [1.0, 1.0] and net.table["k"].b.tolist() == [0.0, 0.0]
    batched = jax.vmap(_edit, in_axes=(None, 0))(net, jnp.ones((3, 2)))
    assert batched.layers[0].w.shape == (3, 2) and batched.step.tolist() == [1, 1, 1]


def test_index_paths_follow_any_subscript_and_are_refused_where_assignment_is() -> None:
    net = _net()
    i = 1
    with copy_and_mutate(net) as new:
        attr(new, lambda n: n.layers[i].b).set(jnp.full(2, 7.0))  # a key from the closure
        attr(new, lambda n: n.layers[-1].w).set(jnp.full(2, 8.0))
    assert new.layers[1].b.tolist() == [7.0, 7.0] and new.layers[1].w.tolist() == [8.0, 8.0]
    with pytest.raises(
        dataclasses.FrozenInstanceError,
        match=r"cannot assign to field 'w' of 'Layer': jaxdc instances are frozen",
    ):
        attr(net, lambda n: n.layers[0].w).set(jnp.zeros(2))  # outside a block: frozen
    assert net.layers[0].w.tolist() == [1.0, 1.0]


def test_an_index_path_runs_once_on_a_recorder_never_on_the_object() -> None:
    @pytree_dataclass
    class Untouchable:
        def __getattr__(self, name: str) -> object:
            raise AssertionError("where() ran on the object")

        def __getitem__(self, key: object) -> object:
            raise AssertionError("where() ran on the object")

    calls = []

    def where(o: Any) -> Any:
        calls.append(type(o).__name__)
        return o.layers[0]["k"].w

    handle = attr(Untouchable(), where)
    assert calls == ["_PathRecorder"]
    assert repr(handle) == "jaxdc.attr(Untouchable, lambda o: o.layers[0]['k'].w)"
