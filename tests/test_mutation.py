"""`jaxdc.attr(obj, lambda o: o.path).set(value)` behaves exactly like `obj.path = value`."""

from __future__ import annotations

import dataclasses

import jax
import jax.numpy as jnp
import pytest
from jaxdc import field, pytree_dataclass
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
    with pytest.raises(dataclasses.FrozenInstanceError):
        attr(layer, lambda s: s.w).set(jnp.ones(2))
    assert layer.w.tolist() == [0.0, 0.0]


def test_keeps_the_runtime_rule_for_excluded_fields() -> None:
    with pytest.raises(TypeError, match="left out of the pytree"):
        Cached(jnp.zeros(1))


def test_follows_a_nested_path_and_never_reads_the_target() -> None:
    class Box:
        inner: Box
        value: int

    outer = Box()
    outer.inner = Box()
    attr(outer, lambda o: o.inner.value).set(3)  # outer.inner.value does not exist yet
    assert outer.inner.value == 3


@pytest.mark.parametrize(
    "where", [lambda o: o, lambda o: 1, lambda o: len(o.name), lambda o: o.xs[0]]
)
def test_rejects_functions_that_are_not_attribute_paths(where: object) -> None:
    with pytest.raises(TypeError, match=r"attribute path .*lambda o: o\.a\.b"):
        attr(Linear(1), where)  # type: ignore[arg-type]


def test_repr_names_the_path() -> None:
    assert repr(attr(Linear(1), lambda s: s.w)) == "jaxdc.attr(Linear, lambda o: o.w)"
