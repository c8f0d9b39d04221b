"""Inheritance, PyTreeNode, generics, dataclass options (kw_only, slots, order, InitVar)."""

from __future__ import annotations

import dataclasses
from typing import Generic, TypeVar

import jax
import jax.numpy as jnp
import jaxdc as jdc
import pytest

T = TypeVar("T")


@jdc.pytree_dataclass
class Base:
    w: jax.Array
    name: jdc.Static[str]


def test_static_ness_is_inherited() -> None:
    @jdc.pytree_dataclass
    class Child(Base):
        b: jax.Array

    c = Child(jnp.ones(1), "n", jnp.zeros(1))
    assert len(jax.tree.leaves(c)) == 2 and "'n'" in str(jax.tree.structure(c))
    with pytest.raises(TypeError, match="static field 'name' of class 'Child'"):
        Child(jnp.ones(1), ["n"], jnp.zeros(1))  # type: ignore[arg-type]


def test_undecorated_subclass_is_a_clear_error_not_a_silent_leaf() -> None:
    class Plain(Base):
        def double(self) -> jax.Array:
            return self.w * 2

    with pytest.raises(TypeError) as info:
        Plain(jnp.ones(1), "n")
    message = str(info.value)
    assert "class 'Plain' subclasses the pytree dataclass 'Base'" in message
    assert "@jaxdc.pytree_dataclass" in message

    @dataclasses.dataclass(frozen=True)
    class StdlibDecorated(Base):
        extra: int = 0

    with pytest.raises(TypeError, match="class 'StdlibDecorated' subclasses"):
        StdlibDecorated(jnp.ones(1), "n")


def test_decorating_an_undecorated_grandchild_works() -> None:
    class Middle(Base):
        pass

    @jdc.pytree_dataclass
    class Leaf(Middle):
        z: jax.Array

    obj = Leaf(jnp.ones(1), "n", jnp.ones(2))
    assert len(jax.tree.leaves(obj)) == 2


def test_pytreenode_subclasses_are_processed_with_class_keywords() -> None:
    class Node(jdc.PyTreeNode, kw_only=True):
        a: jax.Array
        tag: jdc.Static[str] = "t"

    class Sub(Node):  # processed automatically: never a silent leaf
        b: jax.Array = jnp.zeros(1)

    n = Node(a=jnp.ones(1))
    with pytest.raises(
        TypeError, match=r"__init__\(\) takes 1 positional argument but 2 were given"
    ):
        Node(jnp.ones(1))  # type: ignore[misc]  # kw_only
    assert n.replace(tag="u").tag == "u"
    s = Sub(a=jnp.ones(1))
    assert len(jax.tree.leaves(s)) == 2
    assert jax.jit(lambda s: s.replace(a=s.a + 1))(s).a.tolist() == [2.0]
    with pytest.raises(
        TypeError,
        match="class Slotted\\(PyTreeNode, slots=True\\).*@jaxdc.pytree_dataclass\\(slots=True\\) class Slotted",
    ):

        class Slotted(jdc.PyTreeNode, slots=True):
            a: jax.Array


def test_decorator_on_pytreenode_subclass_is_idempotent_or_explains() -> None:
    @jdc.pytree_dataclass
    class Twice(jdc.PyTreeNode):
        a: jax.Array

    assert Twice(jnp.ones(1)).a.shape == (1,)
    with pytest.raises(
        TypeError,
        match="class 'Again' is already a jaxdc pytree dataclass.*class Again\\(PyTreeNode, kw_only=True\\)",
    ):

        @jdc.pytree_dataclass(kw_only=True)
        class Again(jdc.PyTreeNode):
            a: jax.Array


def test_generic_class() -> None:
    @jdc.pytree_dataclass
    class Box(Generic[T]):
        item: T
        tag: jdc.Static[str] = "box"

    b = Box[jax.Array](jnp.ones(2))
    assert jax.tree.map(lambda x: x * 3, b).item.tolist() == [3.0, 3.0]


def test_kw_only_slots_order_initvar() -> None:
    @jdc.pytree_dataclass(kw_only=True, slots=True, order=True)
    class S:
        a: jax.Array
        n: jdc.Static[int] = 0
        extra: str = jdc.field(pytree=False, default="e")

    s = S(a=jnp.ones(2), n=1)
    assert not hasattr(s, "__dict__")
    leaves, treedef = jax.tree.flatten(s)
    back = jax.tree.unflatten(treedef, leaves)
    assert back.n == 1 and back.extra == "e"
    assert [p for p, _ in jax.tree_util.tree_flatten_with_path(s)[0]] == [
        (jax.tree_util.GetAttrKey("a"),)
    ]
    assert jdc.replace(s, n=2).n == 2
    with pytest.raises(
        dataclasses.FrozenInstanceError,
        match=r"cannot assign to field 'a' of 'S': jaxdc instances are frozen",
    ):
        s.a = jnp.ones(2)  # type: ignore[misc]

    @jdc.pytree_dataclass
    class WithInitVar:
        x: jax.Array
        scale: dataclasses.InitVar[float]

        def __post_init__(self, scale: float) -> None:
            self.x = self.x * scale

    w = WithInitVar(jnp.ones(2), 3.0)
    assert w.x.tolist() == [3.0, 3.0]
    assert jax.tree.map(lambda v: v, w).x.tolist() == [3.0, 3.0]  # __post_init__ not re-run
    assert jdc.replace(w, scale=2.0).x.tolist() == [6.0, 6.0]
    with pytest.raises(ValueError, match="InitVar 'scale' must be specified"):
        jdc.replace(w)


def test_user_init_subclass_hook_still_runs() -> None:
    seen = []

    @jdc.pytree_dataclass
    class Registry:
        a: jax.Array

        def __init_subclass__(cls, **kwargs: object) -> None:
            super().__init_subclass__(**kwargs)
            seen.append(cls.__name__)

    @jdc.pytree_dataclass
    class Sub(Registry):
        b: jax.Array

    assert seen == ["Sub"] and len(jax.tree.leaves(Sub(jnp.ones(1), jnp.ones(1)))) == 2


def test_redeclared_inherited_static_field_stays_static_and_is_checked() -> None:
    @jdc.pytree_dataclass
    class Parent:
        w: jax.Array
        sizes: jdc.Static[tuple[int, ...]] = ()

    @jdc.pytree_dataclass
    class Narrower(Parent):
        sizes: tuple[int, int] = (1, 2)

    n = Narrower(jnp.ones(1))
    assert len(jax.tree.leaves(n)) == 1 and "(1, 2)" in str(jax.tree.structure(n))
    with pytest.raises(
        TypeError, match="static field 'sizes' of class 'Wider' has unhashable type 'list\\[int\\]'"
    ):

        @jdc.pytree_dataclass
        class Wider(Parent):
            sizes: list[int] = jdc.field(default_factory=list)
