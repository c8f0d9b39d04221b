"""jaxdc never runs the user's class machinery behind their back (issue 16, section 2).

The classes below carry every hook Python has, each recording its calls: a metaclass's
`__new__`, `__init__` and `__call__`, an `__init_subclass__` that requires a class keyword
and records every subclass in a registry (as jaxls's `class SE3Var(Var[SE3],
default_factory=...)` does: its whole suite failed inside `copy_and_mutate` when the
editing views' classes ran that hook), a `__set_name__` descriptor, and
`__class_getitem__`. Defining and constructing the classes runs them (the user asked for
that); no operation of jaxdc afterwards may: editing blocks (reads, writes, nested paths,
lists, validation on and off, views under JAX functions, pickled or replaced inside the
block), `replace` (jaxdc's, `PyTreeNode.replace`, the compat modules' `.replace`), `jit`,
`vmap`, `tree_map`, unflatten, pickling, copying and state dicts.

The classes are loaded from source for each test (`load_module`), so each test makes the
views' classes afresh rather than finding them made by an earlier test.
"""

from __future__ import annotations

import copy
import dataclasses
import functools
import pickle
import sys
from collections.abc import Callable
from types import ModuleType
from typing import Any

import jax
import jax.numpy as jnp
import jaxdc as jdc
import pytest

HOOKED = """
from __future__ import annotations

import abc

import jax
import jaxdc as jdc
from jaxdc.compat import chex_dataclass, flax_struct

CALLS = []
REGISTRY = []


class Meta(abc.ABCMeta):
    def __new__(mcls, name, bases, namespace, **kwargs):
        CALLS.append(f"metaclass __new__ {name}")
        return super().__new__(mcls, name, bases, namespace, **kwargs)

    def __init__(cls, name, bases, namespace, **kwargs):
        CALLS.append(f"metaclass __init__ {name}")
        super().__init__(name, bases, namespace)

    def __call__(cls, *args, **kwargs):
        CALLS.append(f"metaclass __call__ {cls.__name__}")
        return super().__call__(*args, **kwargs)


class Named:
    def __set_name__(self, owner, name):
        CALLS.append(f"__set_name__ {owner.__name__}.{name}")

    def __get__(self, obj, owner=None):
        return "named"


class Hooked(metaclass=Meta):
    def __init_subclass__(cls, *, kind, **kwargs):
        CALLS.append(f"__init_subclass__ {cls.__name__} kind={kind}")
        REGISTRY.append(cls)
        super().__init_subclass__(**kwargs)

    def __class_getitem__(cls, item):
        CALLS.append(f"__class_getitem__ {cls.__name__}")
        return cls


@jdc.pytree_dataclass
class Leaf(Hooked, kind="leaf"):
    w: jax.Array
    tag: jdc.Static[str] = "leaf"
    label = Named()


@jdc.pytree_dataclass
class Mid(Hooked, kind="mid"):
    leaf: Leaf
    layers: list


class Root(jdc.PyTreeNode, Hooked, kind="root"):
    mid: Mid
    x: jax.Array
    label = Named()


class Lenient(Hooked, kind="lenient"):
    # slots=True makes a new class (dataclasses does), whose creation runs the hooks again
    # without the class keywords: a hook that requires one fails there, as with dataclasses.
    def __init_subclass__(cls, *, kind="slots copy", **kwargs):
        super().__init_subclass__(kind=kind, **kwargs)


@jdc.pytree_dataclass(slots=True)
class Slotted(Lenient, kind="slotted"):
    w: jax.Array


@flax_struct.dataclass
class FlaxLeaf(Hooked, kind="flax"):
    w: jax.Array


class FlaxNode(flax_struct.PyTreeNode, Hooked, kind="flax-node"):
    w: jax.Array


@chex_dataclass.dataclass
class ChexLeaf(Hooked, kind="chex"):
    w: jax.Array


@jdc.pytree_dataclass
class Everything(Hooked, kind="everything"):
    root: Root
    slotted: Slotted
    flax: FlaxLeaf
    node: FlaxNode
    chex: ChexLeaf
"""


@pytest.fixture
def hooked(load_module: Callable[[str], ModuleType]) -> ModuleType:
    """The hooked classes, freshly defined, and an instance of each (`m.everything`)."""
    m = load_module(HOOKED)
    defined = {
        f"__init_subclass__ {name} kind={kind}"
        for name, kind in [("Leaf", "leaf"), ("Mid", "mid"), ("Root", "root")]
    }
    assert defined <= set(m.CALLS), m.CALLS  # the hooks work, and they record
    assert "__set_name__ Leaf.label" in m.CALLS
    leaf = m.Leaf(jnp.ones(2))
    m.everything = m.Everything(
        m.Root(m.Mid(leaf, [m.Leaf(jnp.zeros(2))]), jnp.zeros(1)),
        m.Slotted(jnp.ones(3)),
        m.FlaxLeaf(jnp.ones(1)),
        m.FlaxNode(w=jnp.ones(1)),
        m.ChexLeaf(w=jnp.ones(1)),
    )
    m.registered = list(m.REGISTRY)
    m.CALLS.clear()  # what defining and constructing ran: the user's own calls
    return m


def _edit(m: ModuleType, validate: bool) -> Any:
    """A block reading and writing at every depth and through a list, on every class."""
    obj = m.everything
    with jdc.copy_and_mutate(obj, validate=validate) as new:
        assert new.root.mid.leaf.w is obj.root.mid.leaf.w  # a read
        assert new.root.mid.leaf.label == "named"
        new.root.x = jnp.ones(1)
        new.root.mid.leaf.w = jnp.full(2, 5.0)  # nested
        new.root.mid.layers[0].w = jnp.full(2, 7.0)  # through a list
        new.slotted.w = jnp.zeros(3)
        new.flax.w = new.flax.w + 1
        new.node.w = new.node.w + 1
        new.chex.w = new.chex.w + 1
    assert float(new.root.mid.leaf.w[0]) == 5.0 and float(new.root.mid.layers[0].w[0]) == 7.0
    assert float(obj.root.mid.leaf.w[0]) == 1.0
    return new


def _views_under_jax(m: ModuleType) -> Any:
    """Views used inside the block: JAX functions, replace, pickling, a block of its own."""
    with jdc.copy_and_mutate(m.everything) as new:
        mid = new.root.mid
        assert jax.tree.map(lambda a: a * 0, mid).leaf.w.sum() == 0
        new.root.mid = jdc.replace(mid, leaf=jdc.replace(mid.leaf, w=jnp.zeros(2)))
        assert type(pickle.loads(pickle.dumps(new.slotted))) is m.Slotted
        assert type(copy.deepcopy(new.chex)) is m.ChexLeaf
        assert jax.jit(lambda r: r)(new.root).x.shape == (1,)
    with jdc.copy_and_mutate(new.root.mid) as mid2:  # a view kept after its block
        mid2.leaf.w = jnp.ones(2)
    return mid2


def _replace(m: ModuleType) -> Any:
    e = m.everything
    root = e.root.replace(x=jnp.ones(1))  # PyTreeNode.replace
    mid = jdc.replace(root.mid, leaf=jdc.replace(root.mid.leaf, w=jnp.zeros(2)))
    flax, node, chex = e.flax.replace(w=e.flax.w), e.node.replace(w=e.node.w), e.chex.replace()
    return jdc.replace(e, root=jdc.replace(root, mid=mid), flax=flax, node=node, chex=chex)


def _jit(m: ModuleType) -> Any:
    @jdc.jit
    def step(e: Any, scale: jdc.Static[float]) -> Any:
        return jax.tree.map(lambda a: a * scale, e)

    return step(m.everything, 2.0)


def _unflatten(m: ModuleType) -> Any:
    leaves, treedef = jax.tree.flatten(m.everything)
    return jax.tree.unflatten(treedef, leaves)


def _state_dict(m: ModuleType) -> Any:
    return jdc.from_state_dict(m.everything, jdc.to_state_dict(m.everything))


OPERATIONS: dict[str, Callable[[ModuleType], Any]] = {
    "copy_and_mutate(validate=True)": lambda m: _edit(m, validate=True),
    "copy_and_mutate(validate=False)": lambda m: _edit(m, validate=False),
    "views under jax, replace, pickle": _views_under_jax,
    "replace": _replace,
    "jaxdc.jit": _jit,
    "jax.jit": lambda m: jax.jit(lambda e: e)(m.everything),
    "vmap": lambda m: jax.vmap(lambda x, e: e, in_axes=(0, None))(jnp.ones(2), m.everything),
    "tree_map": lambda m: jax.tree.map(lambda a: a + 1, m.everything),
    "unflatten": _unflatten,
    "pickle": lambda m: pickle.loads(pickle.dumps(m.everything)),
    "deepcopy": lambda m: copy.deepcopy(m.everything),
    "state dict": _state_dict,
}


@pytest.mark.parametrize("operation", OPERATIONS)
def test_no_class_hook_runs_behind_the_users_back(hooked: ModuleType, operation: str) -> None:
    result = OPERATIONS[operation](hooked)
    assert hooked.CALLS == []
    assert hooked.REGISTRY == hooked.registered  # no hidden class was registered
    for node in jax.tree.leaves(result, is_leaf=lambda x: isinstance(x, hooked.Hooked)):
        if isinstance(node, hooked.Hooked):
            assert type(node).__module__ == hooked.__name__
            assert type(node) in hooked.registered  # every result is a plain user instance


def test_a_view_is_an_instance_of_the_users_class_and_says_so(hooked: ModuleType) -> None:
    """Inside a block, `isinstance` and `__class__` give the user's class; `type()` gives a
    hidden subclass of it with the same name; after the block every value is plain."""
    m = hooked
    with jdc.copy_and_mutate(m.everything.root) as new:
        mid = new.mid
        assert type(new) is m.Root  # the root of a block is a plain instance
        assert isinstance(mid, m.Mid) and isinstance(mid, m.Hooked)
        assert mid.__class__ is m.Mid
        view_class = type(mid)
        assert view_class is not m.Mid and issubclass(view_class, m.Mid)
        assert (view_class.__name__, view_class.__qualname__) == ("Mid", "Mid")
        assert view_class.__module__ == m.Mid.__module__
        assert isinstance(view_class, m.Meta)  # the user's metaclass, never run
        assert not isinstance(m.everything.root.mid, view_class)  # its own ABC caches
        # What builds an object from a view builds the user's class.
        assert type(dataclasses.replace(mid, layers=[])) is m.Mid
        assert type(view_class(mid.leaf, [])) is m.Mid
        assert m.CALLS == ["metaclass __call__ Mid"] * 2  # those two constructions
        mid.leaf = m.Leaf(jnp.zeros(2))
    assert type(new.mid) is m.Mid and type(new.mid.leaf) is m.Leaf


@jdc.pytree_dataclass
class Vector:
    """Properties over fields, a property with a setter, a method writing a field the way
    frozen classes do (`object.__setattr__`), and a `__getattr__` fallback."""

    raw: jax.Array
    scale: jdc.Static[float] = 1.0

    @property
    def value(self) -> jax.Array:
        return self.raw * self.scale

    @value.setter
    def value(self, v: jax.Array) -> None:
        object.__setattr__(self, "raw", v / self.scale)

    @property
    def size(self) -> int:
        return int(self.raw.shape[0])

    def reset(self) -> None:
        object.__setattr__(self, "raw", jnp.zeros_like(self.raw))

    def __getattr__(self, name: str) -> Any:
        if name == "first":
            return self.raw[0]
        raise AttributeError(f"'Vector' has no attribute {name!r}")


@jdc.pytree_dataclass(slots=True)
class SlottedPair:
    a: Vector
    b: Vector


def _pair() -> SlottedPair:
    return SlottedPair(Vector(jnp.ones(2), 2.0), Vector(jnp.ones(3)))


def test_properties_over_fields_read_the_edits() -> None:
    pair = _pair()
    with jdc.copy_and_mutate(pair) as new:
        assert float(new.a.value[0]) == 2.0
        new.a.raw = jnp.full(2, 3.0)
        assert float(new.a.value[0]) == 6.0 and new.a.size == 2
        assert float(new.b.first) == 1.0  # `__getattr__` reads through the view too
        new.b.raw = jnp.full(3, 4.0)
        assert float(new.b.first) == 4.0
        with pytest.raises(AttributeError, match="'Vector' has no attribute 'nope'"):
            _ = new.b.nope
    assert float(new.a.raw[0]) == 3.0 and float(new.b.raw[0]) == 4.0
    assert float(pair.a.raw[0]) == 1.0


def test_a_property_setter_assigns_inside_a_block_as_on_a_mutable_object() -> None:
    """`new.a.value = v` runs the class's setter (the user assigned it), and what the
    setter writes, even with `object.__setattr__`, is an edit: never a value lost in the
    view. The same holds for the block's root."""
    pair = _pair()
    with jdc.copy_and_mutate(pair) as new:
        new.a.value = jnp.full(2, 8.0)  # the setter stores raw = value / scale
        new.b.reset()  # a method writing a field with object.__setattr__
    assert float(new.a.raw[0]) == 4.0 and float(new.a.value[0]) == 8.0
    assert float(new.b.raw[0]) == 0.0
    assert float(pair.a.raw[0]) == 1.0 and float(pair.b.raw[0]) == 1.0
    with jdc.copy_and_mutate(pair.a) as root:
        root.value = jnp.full(2, 6.0)
    assert float(root.raw[0]) == 3.0
    assert jax.tree.leaves(root)[0] is root.raw  # the flatten cache follows the setter


# Python's own refusal, which names the class from 3.11 on
_NO_SETTER = (
    "property 'size' of 'Vector' object has no setter"
    if sys.version_info >= (3, 11)
    else "can't set attribute 'size'"
)


def test_a_property_without_setter_and_unknown_names_are_refused_by_name() -> None:
    with jdc.copy_and_mutate(_pair()) as new:
        with pytest.raises(AttributeError, match=_NO_SETTER):
            new.a.size = 3
        with pytest.raises(AttributeError, match="class 'Vector' has no pytree field 'sise'"):
            new.a.sise = 3
        with pytest.raises(AttributeError, match="class 'SlottedPair' has no pytree field 'c'"):
            new.c = 3
    with pytest.raises(dataclasses.FrozenInstanceError, match="'value'"):
        new.a.value = jnp.ones(2)  # outside a block, instances stay frozen


class Recorded:
    """A data descriptor, the stdlib's "descriptor-typed field": it keeps the value in its
    own slot of the instance's `__dict__` and records each `__set__`."""

    calls: list[str] = []  # noqa: RUF012  (shared on purpose: what the tests read)

    def __set_name__(self, owner: type, name: str) -> None:
        self.slot = "_" + name

    def __get__(self, obj: object, owner: type | None = None) -> Any:
        return 1.0 if obj is None else obj.__dict__[self.slot]

    def __set__(self, obj: object, value: Any) -> None:
        Recorded.calls.append("set")
        obj.__dict__[self.slot] = value


def _descriptor_default() -> type:
    @jdc.pytree_dataclass
    class Scaled:
        x: float = Recorded()  # type: ignore[assignment]

    return Scaled


def _descriptor_in_field() -> type:
    @jdc.pytree_dataclass
    class Scaled:
        x: jax.Array
        scale: float = jdc.field(default=Recorded(), init=False)

    return Scaled


def _descriptor_of_a_base() -> type:
    class Base:
        x = Recorded()

    @jdc.pytree_dataclass
    class Scaled(Base):
        x: float  # type: ignore[assignment]

    return Scaled


def _property_named_like_a_field() -> type:
    @jdc.pytree_dataclass
    class Scaled:
        x: jax.Array

        @property  # type: ignore[no-redef]
        def x(self) -> jax.Array:
            return jnp.ones(2)

    return Scaled


@pytest.mark.parametrize(
    ("make", "field", "descriptor"),
    [
        (_descriptor_default, "x", "Recorded"),
        (_descriptor_in_field, "scale", "Recorded"),
        (_descriptor_of_a_base, "x", "Recorded"),
        (_property_named_like_a_field, "x", "property"),
    ],
)
def test_a_field_whose_class_attribute_is_a_data_descriptor_is_refused(
    make: Callable[[], type], field: str, descriptor: str
) -> None:
    """Unflatten stores fields with `object.__setattr__`, which runs a data descriptor's
    `__set__` (under jit, with tracers); bypassing it would lose the value the descriptor
    keeps. So the class is refused where it is defined, naming the field and the fix."""
    with pytest.raises(TypeError) as info:
        make()
    assert str(info.value) == (
        f"field '{field}' of class 'Scaled' has a data descriptor as its class attribute "
        f"(an instance of '{descriptor}', which defines __set__ or __delete__): "
        "jit/vmap/tree_map/replace rebuild instances by storing each field, which would run "
        "that descriptor's code behind your back, and skipping it would lose the value it "
        f"keeps. Fix: make '{field}' a plain field (`{field}: T = default`); convert or check "
        "values with `jaxdc.field(converter=...)` or in __post_init__, and give other "
        "behaviour a property of another name that reads the field."
    )


def _double(x: float) -> float:
    return 2 * x


def test_non_data_descriptors_under_field_names_are_plain_defaults() -> None:
    """A function or a staticmethod as a static field's default is a value like any other
    (the instance's own value shadows it), and a cached_property is no field: all legal."""

    @jdc.pytree_dataclass
    class Layer:
        w: jax.Array
        act: jdc.Static[Callable[[float], float]] = _double
        wrapped: jdc.Static[Any] = staticmethod(_double)

        @functools.cached_property
        def norm(self) -> jax.Array:
            return jnp.abs(self.w).sum()

    layer = Layer(jnp.ones(2))
    out = jax.jit(lambda tree: jax.tree.map(lambda v: v * 3, tree))(layer)
    assert out.act is _double and out.act(2.0) == 4.0
    assert out.wrapped is _double  # dataclasses read the default through the staticmethod
    assert out.w.tolist() == [3.0, 3.0] and float(out.norm) == 6.0
