"""Frozen instances, custom __init__/__post_init__, excluded fields, array defaults."""

from __future__ import annotations

import copy
import dataclasses
import pickle
import sys
import weakref
from typing import Any

import jax
import jax.numpy as jnp
import jaxdc as jdc
import numpy as np
import pytest
from jaxdc.compat import flax_struct


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
        dataclasses.FrozenInstanceError, match=r"cannot delete field 'label' of 'Point'"
    ):
        del p.label  # type: ignore[misc]
    with pytest.raises(AttributeError, match=r"attribute 'other' of 'Point'"):
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
    with pytest.raises(ValueError, match=r"1-d"):
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
    with pytest.raises(
        dataclasses.FrozenInstanceError,
        match=r"cannot assign to field 'w' of 'Linear': jaxdc instances are frozen",
    ):
        lin.w = lin.b  # type: ignore[misc]

    @jdc.pytree_dataclass
    class Forgetful:
        a: jax.Array
        b: jax.Array

        def __init__(self, a: jax.Array) -> None:
            self.a = a

    with pytest.raises(TypeError, match=r"field 'b' of class 'Forgetful' was not set by __init__"):
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


def test_only_pytree_false_leaves_a_field_out_of_the_pytree() -> None:
    @jdc.pytree_dataclass
    class A:
        x: jax.Array
        cache: dict = jdc.field(pytree=False, default_factory=dict)
        note: jdc.Static[str] = jdc.field(init=False, default="n")

    a = A(jnp.ones(2))
    assert jax.tree.leaves(a) == [a.x]
    assert jax.tree.structure(a) != jax.tree.structure(jdc.replace(a, note="m"))
    b = jax.tree.map(lambda v: v + 1, a)
    assert b.cache == {} and b.note == "n"


def test_init_false_fields_computed_in_post_init_survive_jit() -> None:
    """The jax_dataclasses idiom: derived fields, data or static by annotation."""

    @jdc.pytree_dataclass
    class Stats:
        xs: jax.Array
        mean: jax.Array = jdc.field(init=False)
        n: jdc.Static[int] = jdc.field(init=False)

        def __post_init__(self) -> None:
            self.mean = self.xs.mean()
            self.n = len(self.xs)

    stats = Stats(jnp.arange(4.0))
    out = jax.jit(lambda s: s)(stats)
    assert float(out.mean) == 1.5 and out.n == 4
    assert len(jax.tree.leaves(stats)) == 2
    moved = jax.tree.map(lambda v: v * 2, stats)
    assert float(moved.mean) == 3.0 and moved.n == 4


def test_init_false_field_left_unset_names_post_init() -> None:
    @jdc.pytree_dataclass
    class A:
        x: jax.Array
        derived: jax.Array = jdc.field(init=False)

    with pytest.raises(
        TypeError, match=r"field 'derived' of class 'A' \(init=False\) was not set.*__post_init__"
    ):
        A(jnp.ones(2))


def test_excluded_field_without_default_is_rejected() -> None:
    with pytest.raises(
        TypeError,
        match=r"field 'derived' of class 'A' is left out of the pytree .* has no default",
    ):

        @jdc.pytree_dataclass
        class A:
            x: jax.Array
            derived: jax.Array = jdc.field(pytree=False)


def test_setting_an_excluded_field_during_construction_is_an_error() -> None:
    @jdc.pytree_dataclass
    class A:
        x: jax.Array
        total: float = jdc.field(pytree=False, init=False, default=0.0)

        def __post_init__(self) -> None:
            self.total = float(self.x.sum())

    with pytest.raises(
        TypeError, match=r"field 'total' of class 'A' is left out of the pytree.*drop pytree=False"
    ):
        A(jnp.ones(2))


@pytest.mark.parametrize("factory", [False, True])
def test_object_setattr_on_an_excluded_field_in_post_init_is_an_error(factory: bool) -> None:
    """`object.__setattr__` bypasses the frozen check; finishing construction catches it."""
    default = (
        jdc.field(pytree=False, default_factory=list)
        if factory
        else jdc.field(pytree=False, default=None)
    )

    @jdc.pytree_dataclass
    class A:
        x: jax.Array
        log: list | None = default

        def __post_init__(self) -> None:
            object.__setattr__(self, "log", ["built"])

    with pytest.raises(
        TypeError, match=r"field 'log' of class 'A' is left out of the pytree.*object.__setattr__"
    ):
        A(jnp.ones(2))


def test_object_setattr_on_an_excluded_field_in_custom_init_is_an_error() -> None:
    @jdc.pytree_dataclass
    class A:
        x: jax.Array
        note: str = jdc.field(pytree=False, default="n")

        def __init__(self, x: jax.Array) -> None:
            self.x = x
            object.__setattr__(self, "note", "set in __init__")

    with pytest.raises(TypeError, match=r"field 'note' of class 'A' is left out of the pytree"):
        A(jnp.ones(2))


def test_a_value_passed_for_an_excluded_field_is_an_error() -> None:
    @jdc.pytree_dataclass
    class A:
        x: jax.Array
        cache: dict = jdc.field(pytree=False, default_factory=dict)
        note: str = jdc.field(pytree=False, default="n")

    a = A(jnp.ones(2))  # defaults are fine
    assert a.note == "n" and a.cache == {}
    with pytest.raises(
        TypeError, match=r"field 'note' of class 'A' is left out of the pytree.*passed"
    ):
        A(jnp.ones(2), note="m")
    with pytest.raises(TypeError, match=r"field 'cache' of class 'A' is left out of the pytree"):
        A(jnp.ones(2), cache={"k": 1})


def test_pytree_node_false_is_static_and_true_is_data() -> None:
    @jdc.pytree_dataclass
    class A:
        x: jax.Array = jdc.field(pytree_node=True)
        n: int = jdc.field(pytree_node=False, default=3)
        m: int = dataclasses.field(default=4, metadata={"pytree_node": False})

    a = A(jnp.ones(2))
    assert jax.tree.leaves(a) == [a.x]
    assert jax.jit(lambda a: a)(a).n == 3
    with pytest.raises(TypeError, match=r"pytree_node=False is flax's spelling of static=True"):
        jdc.field(static=False, pytree_node=False)
    with pytest.raises(TypeError, match=r"unhashable type 'list\[int\]'"):

        @jdc.pytree_dataclass
        class B:
            sizes: list[int] = jdc.field(pytree_node=False, default_factory=list)


def test_stacking_dataclass_under_the_decorator_says_drop_dataclass() -> None:
    with pytest.raises(
        TypeError,
        match=r"class 'A' is decorated with @jaxdc.pytree_dataclass and with "
        r"@dataclasses.dataclass.*Fix: drop @dataclass",
    ):

        @jdc.pytree_dataclass
        @dataclasses.dataclass(frozen=True)
        class A:
            x: jax.Array


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
        TypeError, match=r"field 'x' of class 'A' has a numpy.ndarray default.*jnp.asarray"
    ):

        @jdc.pytree_dataclass
        class A:
            x: np.ndarray = np.zeros(3)


def test_frozen_false_rejected_frozen_true_accepted_unknown_option() -> None:
    with pytest.raises(TypeError, match=r"frozen=False.*always frozen"):
        jdc.pytree_dataclass(frozen=False)

    @jdc.pytree_dataclass(frozen=True)
    class A:
        x: jax.Array

    assert A.__dataclass_params__.frozen  # type: ignore[attr-defined]
    with pytest.raises(TypeError, match=r"unknown option\(s\) 'frozn'.*valid options: init"):
        jdc.pytree_dataclass(frozn=True)


if sys.version_info >= (3, 11):  # module level, so pickle finds them

    @jdc.pytree_dataclass(slots=True, weakref_slot=True)
    class WeakSlots:
        x: jax.Array
        n: jdc.Static[int] = 1

    @flax_struct.dataclass(slots=True, weakref_slot=True)
    class FlaxWeakSlots:
        x: jax.Array


@pytest.mark.skipif(sys.version_info < (3, 11), reason="weakref_slot is new in Python 3.11")
@pytest.mark.parametrize("name", ["WeakSlots", "FlaxWeakSlots"])
def test_weakref_slot_classes_pickle_and_copy(name: str) -> None:
    cls = globals()[name]
    made = cls(jnp.ones(2))
    for copied in (pickle.loads(pickle.dumps(made)), copy.deepcopy(made)):
        assert type(copied) is cls and copied == made and weakref.ref(copied)() is copied
    restored = jdc.from_state_dict(cls(jnp.zeros(2)), jdc.to_state_dict(made))
    assert restored.x.tolist() == [1.0, 1.0] and weakref.ref(restored)() is restored


@pytest.mark.skipif(sys.version_info < (3, 11), reason="weakref_slot is new in Python 3.11")
@pytest.mark.parametrize("decorate", [jdc.pytree_dataclass, flax_struct.dataclass])
def test_weakref_slot_is_passed_to_dataclasses(decorate: Any) -> None:
    """Every `dataclasses.dataclass` option is an option, as flax.struct passes them all."""

    @decorate(slots=True, weakref_slot=True)
    class A:
        x: jax.Array
        n: jdc.Static[int] = 1

    a = A(jnp.ones(2))
    assert weakref.ref(a)() is a and "__weakref__" in A.__slots__
    moved = jax.jit(lambda a: jdc.replace(a, x=a.x + 1))(a)
    assert moved.x.tolist() == [2.0, 2.0] and weakref.ref(moved)() is moved


def test_non_frozen_dataclass_base_is_rejected() -> None:
    @dataclasses.dataclass
    class Mutable:
        a: int

    with pytest.raises(
        TypeError, match=r"class 'A' derives from the non-frozen dataclass 'Mutable'"
    ):

        @jdc.pytree_dataclass
        class A(Mutable):
            x: jax.Array


def test_non_field_attribute_set_in_post_init_is_rejected_at_construction() -> None:
    # Found by the runtime probe: `self.extra = 7` in __post_init__ was accepted and the
    # value vanished after jit (flax.struct rejects it as a frozen dataclass does).
    @jdc.pytree_dataclass
    class Cached:
        x: jax.Array

        def __post_init__(self) -> None:
            self.extra = 7

    with pytest.raises(TypeError) as info:
        Cached(jnp.ones(2))
    assert str(info.value) == (
        "attribute 'extra' of class 'Cached' is not a field, so a value set during "
        "construction would be lost after jit/vmap/tree_map/replace (jaxdc never re-runs "
        "__init__/__post_init__ on unflatten). Fix: declare it as a field "
        "(`extra: T = jaxdc.field(init=False)`), or compute it in a property."
    )


def test_property_setter_in_post_init_still_assigns_fields() -> None:
    @jdc.pytree_dataclass
    class Scaled:
        x: jax.Array

        @property
        def doubled(self) -> jax.Array:
            return self.x * 2

        @doubled.setter
        def doubled(self, value: jax.Array) -> None:
            self.x = value / 2

        def __post_init__(self) -> None:
            self.doubled = self.x

    out = jax.jit(lambda s: s)(Scaled(jnp.full(2, 4.0)))
    assert out.x.tolist() == [2.0, 2.0]
