"""field(converter=...): `__init__` (and `replace` from 3.13) takes the converter's input type; mypy needs the plugin."""

from typing import Any, Generic, TypeVar, overload

import jax
import jax.numpy as jnp
import numpy as np

import jaxdc
from jaxdc import PyTreeNode, Static, field, pytree_dataclass, static_field

T = TypeVar("T")


def parse(text: str) -> int:
    return int(text)


class Celsius:
    def __init__(self, degrees: float) -> None:
        self.degrees = degrees


class Box(Generic[T]):
    def __init__(self, item: T) -> None:
        self.item = item


@overload
def to_tuple(value: list[int]) -> tuple[int, ...]: ...
@overload
def to_tuple(value: str) -> tuple[int, ...]: ...
def to_tuple(value: Any) -> tuple[int, ...]:
    return tuple(int(v) for v in value)


def untyped(value):
    return value


@pytree_dataclass
class Model:
    w: jax.Array = field(converter=jaxdc.as_array)
    n: Static[int] = field(default="0", converter=parse)
    temp: Static[Celsius] = field(default=0.0, converter=Celsius)
    sizes: Static[tuple[int, ...]] = field(default="", converter=to_tuple)
    box: Static[Box[int]] = field(default=1, converter=Box)
    raw: Static[int] = static_field(default=0, converter=untyped)


@pytree_dataclass
class Loose:
    """A lambda's parameter is untyped: any value (with a default, pyright and ty infer it from the default's type)."""

    value: Static[int] = field(converter=lambda v: int(v))


class Node(PyTreeNode):
    w: jax.Array = field(converter=jaxdc.as_array)


@pytree_dataclass(kw_only=True)
class Child(Model):
    """Inherited converter fields keep their input types; its own are typed too."""

    extra: Static[int] = field(default="1", converter=parse)


class Leaf(Node):
    scale: Static[float] = field(default=1, converter=float)


model = Model(jnp.zeros(3))
Model(
    np.zeros(3),  # E: mypy arg-type
    n="2",  # E: mypy arg-type
    temp=21,  # E: mypy arg-type
    sizes=[1, 2],  # E: mypy arg-type
    box=3,  # E: mypy arg-type
    raw="8",  # E: mypy arg-type
)
Model(1.0, sizes="12")  # E: mypy arg-type  # E: mypy arg-type
Loose("7")  # E: mypy arg-type
jaxdc.replace(
    model,
    w=np.ones(3),  # E: mypy@3.13 arg-type
    n="5",  # E: mypy@3.13 arg-type
    sizes=[3],  # E: mypy@3.13 arg-type
    temp=1.5,  # E: mypy@3.13 arg-type
)
Child(w=np.zeros(3), n="2", extra="3")  # E: mypy arg-type  # E: mypy arg-type  # E: mypy arg-type
jaxdc.replace(Child(w=1.0), n="4", extra="5")  # E: mypy arg-type  # E: mypy@3.13 arg-type  # E: mypy@3.13 arg-type
Leaf(np.zeros(2), scale="0.5").replace(w=2.0, scale="2")  # E: mypy arg-type  # E: mypy arg-type  # E: mypy@3.13 arg-type  # E: mypy@3.13 arg-type
Node(np.zeros(2)).replace(w=2.0)  # E: mypy arg-type  # E: mypy@3.13 arg-type

Model(jnp.zeros(3), n=2)  # E: pyright,basedpyright reportArgumentType  # E: ty invalid-argument-type  # E: pyrefly bad-argument-type  # E: zuban arg-type  # E: mypy-plugin arg-type
Model(jnp.zeros(3), temp="hot")  # E: pyright,basedpyright reportArgumentType  # E: ty invalid-argument-type  # E: pyrefly bad-argument-type  # E: zuban,mypy,mypy-plugin arg-type
Model(jnp.zeros(3), sizes=(1, 2))  # E: pyright,basedpyright reportArgumentType  # E: ty invalid-argument-type  # E: pyrefly bad-argument-type  # E: zuban arg-type  # E: mypy-plugin arg-type
Model(jnp.zeros(3), box="x")  # E: pyright,basedpyright reportArgumentType  # E: ty invalid-argument-type  # E: pyrefly bad-argument-type  # E: mypy,mypy-plugin arg-type
jaxdc.replace(model, n=2)  # E: pyright@3.13,basedpyright@3.13 reportArgumentType  # E: ty@3.13 invalid-argument-type  # E: pyrefly@3.13 bad-argument-type  # E: mypy-plugin arg-type
Node(w="x")  # E: pyright,basedpyright reportArgumentType  # E: ty invalid-argument-type  # E: pyrefly bad-argument-type  # E: zuban,mypy,mypy-plugin arg-type  # runtime: raises TypeError
