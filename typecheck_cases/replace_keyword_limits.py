"""replace from 3.13: what the runtime accepts that a checker's `__replace__` does not (limits; ty and mypy + plugin accept all)."""

from typing import TypeVar

import jax
import jax.numpy as jnp
from typing_extensions import Self

import jaxdc
from jaxdc import PyTreeNode, Static, pytree_dataclass


@pytree_dataclass
class Custom:
    """Its own __init__: pyright synthesises no __replace__ for it."""

    w: jax.Array
    name: Static[str]

    def __init__(self, n: int, name: str = "c") -> None:
        jaxdc.attr(self, lambda s: s.w).set(jnp.zeros(n))
        jaxdc.attr(self, lambda s: s.name).set(name)


@pytree_dataclass
class State:
    """An init=False field is left out of __replace__; the runtime's replace takes it."""

    params: jax.Array
    step: Static[int] = 0
    count: int = jaxdc.field(default=0, init=False)

    def bump(self) -> Self:
        return jaxdc.replace(self, step=self.step + 1)  # E: mypy@3.13 return-value


class Node(PyTreeNode):
    value: jax.Array

    def bump(self) -> Self:
        return self.replace(value=self.value + 1)  # E: mypy@3.13 return-value


S = TypeVar("S", bound=State)
N = TypeVar("N", bound=Node)


def restep(state: S) -> S:
    return jaxdc.replace(state, step=2)  # E: mypy@3.13 return-value


def revalue(node: N) -> N:
    return node.replace(value=jnp.ones(1))  # E: pyrefly@3.13 bad-return  # E: zuban,mypy@3.13 return-value


jaxdc.replace(Custom(3), w=jnp.ones(3))  # E: pyright@3.13,basedpyright@3.13 reportArgumentType  # E: pyright@3.13,basedpyright@3.13 reportCallIssue
jaxdc.replace(State(jnp.zeros(2)), count=1)  # E: pyright@3.13,basedpyright@3.13 reportCallIssue  # E: pyrefly@3.13 unexpected-keyword  # E: mypy@3.13 call-arg
