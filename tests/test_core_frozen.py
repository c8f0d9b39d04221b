"""Frozen instances, custom __init__/__post_init__, excluded fields, array defaults."""

from __future__ import annotations

import dataclasses

import jax
import jax.numpy as jnp
import jaxdc as jdc
import numpy as np
import pytest


@jdc.pytree_dataclass
class Point:
    x: jax.Array
    y: jax.Array
    label: jdc.Static[str] = "p"


def test_assignment_and_del_raise_naming_field_and_fix() -> None:
    p = Point(jnp.ones(1), jnp.zeros(1))
    with pytest.raises(dataclasses.FrozenInstanceError) as info:
        p.x = jnp.zeros(1)  # type: ignore[misc]
    message = str(info.value)
    assert "field 'x' of 'Point'" in message
    assert "jaxdc.replace(obj, x=...)" in message and "copy_and_mutate" in message
    with pytest.raises(
        dataclasses.FrozenInstanceError, match="cannot delete field 'label' of 'Point'"
    ):
        del p.label  # type: ignore[misc]
    with pytest.raises(AttributeError, match="attribute 'other' of 'Point'"):
        p.other = 1  # type: ignore[attr-defined]
    assert p.label == "p"


def test_post_init_may_set_fields_and_validate() -> None:
    @jdc.pytree_dataclass
    class Normalised:
        v: jax.Array
        norm: jax.Array = jdc.field(init=False, pytree=True)

        def __post_init__(self) -> None:
            if self.v.ndim != 1:
                raise ValueError("v must be 1-d")
            self.norm = jnp.linalg.norm(self.v)
            self.v = self.v / self.norm

    n = Normalised(jnp.array([3.0, 4.0]))
    assert float(n.norm) == 5.0
    out = jax.jit(lambda n: n)(n)
    assert float(out.norm) == 5.0 and out.v.tolist() == pytest.approx([0.6, 0.8])
    # validation in __post_init__ does not run under vmap (batched v is 2-d)
    batched = jax.vmap(lambda n: n)(jax.tree.map(lambda x: jnp.stack([x, x]), n))
    assert batched.v.shape == (2, 2)
    with pytest.raises(ValueError, match="1-d"):
        Normalised(jnp.ones((2, 2)))


def test_custom_init_sets_fields_and_unset_field_is_an_error() -> None:
    @jdc.pytree_dataclass
    class Linear:
        w: jax.Array
        b: jax.Array
        features: jdc.Static[int]

        def __init__(self, features: int, seed: int = 0) -> None:
            key = jax.random.PRNGKey(seed)
            self.w = jax.random.normal(key, (features, features))
            self.b = jnp.zeros(features)
            self.features = features

    lin = Linear(3)
    assert lin.w.shape == (3, 3) and lin.features == 3
    assert jax.tree.map(lambda x: x * 0, lin).features == 3
    assert jdc.replace(lin, b=jnp.ones(3)).b.tolist() == [1.0, 1.0, 1.0]
    with pytest.raises(dataclasses.FrozenInstanceError):
        lin.w = lin.b  # type: ignore[misc]

    @jdc.pytree_dataclass
    class Forgetful:
        a: jax.Array
        b: jax.Array

        def __init__(self, a: jax.Array) -> None:
            self.a = a

    with pytest.raises(TypeError, match="field 'b' of class 'Forgetful' was not set by __init__"):
        Forgetful(jnp.ones(1))


def test_subclass_custom_init_calling_super() -> None:
    @jdc.pytree_dataclass
    class Base:
        a: jax.Array

    @jdc.pytree_dataclass
    class Child(Base):
        b: jax.Array

        def __init__(self, value: float) -> None:
            super().__init__(jnp.full(1, value))
            self.b = self.a * 2

    c = Child(2.0)
    assert float(c.b[0]) == 4.0 and len(jax.tree.leaves(c)) == 2


def test_excluded_fields_are_not_in_the_pytree() -> None:
    @jdc.pytree_dataclass
    class A:
        x: jax.Array
        cache: dict = jdc.field(pytree=False, default_factory=dict)
        note: str = jdc.field(init=False, default="n")

    a = A(jnp.ones(2))
    assert jax.tree.leaves(a) == [a.x]
    b = jax.tree.map(lambda v: v + 1, a)
    assert b.cache == {} and b.note == "n"


def test_excluded_field_without_default_is_rejected() -> None:
    with pytest.raises(
        TypeError, match="field 'derived' of class 'A' is not part of the pytree .* has no default"
    ):

        @jdc.pytree_dataclass
        class A:
            x: jax.Array
            derived: jax.Array = jdc.field(init=False)


def test_setting_an_excluded_field_during_construction_is_an_error() -> None:
    @jdc.pytree_dataclass
    class A:
        x: jax.Array
        total: float = jdc.field(init=False, default=0.0)

        def __post_init__(self) -> None:
            self.total = float(self.x.sum())

    with pytest.raises(
        TypeError, match="field 'total' of class 'A' is not part of the pytree.*pytree=True"
    ):
        A(jnp.ones(2))


def test_array_default_works() -> None:
    default = jnp.zeros(3)

    @jdc.pytree_dataclass
    class A:
        x: jax.Array = default
        y: jax.Array = jdc.field(default=jnp.ones(2))

    a, b = A(), A()
    assert a.x is default and b.x is default and a.y.tolist() == [1.0, 1.0]
    assert jax.jit(lambda a: a)(a).x.shape == (3,)


def test_numpy_array_default_is_rejected_with_fix() -> None:
    with pytest.raises(
        TypeError, match="field 'x' of class 'A' has a numpy.ndarray default.*jnp.asarray"
    ):

        @jdc.pytree_dataclass
        class A:
            x: np.ndarray = np.zeros(3)


def test_frozen_false_rejected_frozen_true_accepted_unknown_option() -> None:
    with pytest.raises(TypeError, match="frozen=False.*always frozen"):
        jdc.pytree_dataclass(frozen=False)

    @jdc.pytree_dataclass(frozen=True)
    class A:
        x: jax.Array

    assert A.__dataclass_params__.frozen  # type: ignore[attr-defined]
    with pytest.raises(TypeError, match="unknown option\\(s\\) 'frozn'.*valid options: init"):
        jdc.pytree_dataclass(frozn=True)


def test_non_frozen_dataclass_base_is_rejected() -> None:
    @dataclasses.dataclass
    class Mutable:
        a: int

    with pytest.raises(
        TypeError, match="class 'A' derives from the non-frozen dataclass 'Mutable'"
    ):

        @jdc.pytree_dataclass
        class A(Mutable):
            x: jax.Array
