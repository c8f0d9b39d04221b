"""A field whose default is a data descriptor: every unflatten would run its `__set__`, so the class is refused."""

from collections.abc import Callable

import jax
import jax.numpy as jnp

import jaxdc
from jaxdc.compat import flax_struct as struct


class Positive:
    """A validating descriptor: the stdlib's descriptor-typed field."""

    def __set_name__(self, owner: type, name: str) -> None:
        self.slot = "_" + name

    def __get__(self, obj: object, owner: type | None = None) -> float:
        return 1.0 if obj is None else float(obj.__dict__[self.slot])

    def __set__(self, obj: object, value: float) -> None:
        obj.__dict__[self.slot] = abs(value)


SCALE = 0.5


def _halve(x: jax.Array) -> jax.Array:
    return x / 2


@jaxdc.pytree_dataclass
class Layer:
    w: jax.Array
    act: jaxdc.Static[Callable[[jax.Array], jax.Array]] = _halve
    gain: jax.Array = jaxdc.field(default_factory=lambda: jnp.ones(2))
    bias: jax.Array = jnp.zeros(2)
    scale: float = SCALE


@struct.dataclass
class Legacy:
    scale: Positive = Positive()  # E: mypy-plugin jaxdc-descriptor: field 'scale' of class 'Legacy' has a data descriptor as its class attribute (an instance of 'Positive', which defines __set__ or __delete__): jit/vmap/tree_map/replace rebuild instances by storing each field, which would run that descriptor's code behind your back, and skipping it would lose the value it keeps. Fix: make 'scale' a plain field (`scale: T = default`); convert or check values with `jaxdc.field(converter=...)` or in __post_init__, and give other behaviour a property of another name that reads the field.


@struct.dataclass
class Probe:
    factor: float = Positive()  # E: pyright,basedpyright reportAssignmentType  # E: ty invalid-assignment  # E: pyrefly bad-assignment  # E: zuban,mypy,mypy-plugin assignment  # E: mypy-plugin jaxdc-descriptor: field 'factor' of class 'Probe' has a data descriptor as its class attribute (an instance of 'Positive', which defines __set__ or __delete__): jit/vmap/tree_map/replace rebuild instances by storing each field, which would run that descriptor's code behind your back, and skipping it would lose the value it keeps. Fix: make 'factor' a plain field (`factor: T = default`); convert or check values with `jaxdc.field(converter=...)` or in __post_init__, and give other behaviour a property of another name that reads the field.


layer = jax.jit(lambda tree: tree)(Layer(jnp.ones(2)))
legacy = jax.tree.map(lambda v: v * 2, Legacy(3.0))
probe = jax.tree.map(lambda v: v * 2, Probe(3.0))


class Scaled(jaxdc.PyTreeNode):  # runtime: raises TypeError
    w: jax.Array
    scale: Positive = jaxdc.field(default=Positive())  # E: mypy-plugin jaxdc-descriptor: field 'scale' of class 'Scaled' has a data descriptor as its class attribute (an instance of 'Positive', which defines __set__ or __delete__): jit/vmap/tree_map/replace rebuild instances by storing each field, which would run that descriptor's code behind your back, and skipping it would lose the value it keeps. Fix: make 'scale' a plain field (`scale: T = default`); convert or check values with `jaxdc.field(converter=...)` or in __post_init__, and give other behaviour a property of another name that reads the field.
