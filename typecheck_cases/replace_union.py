"""replace on an object typed by a union of jaxdc classes: the keywords every member takes (mypy + plugin, every target; from 3.13 the other checkers cannot type it)."""

from typing import Optional, TypeVar

import jax
import jax.numpy as jnp

import jaxdc
from jaxdc import PyTreeNode, Static, pytree_dataclass


class Left(PyTreeNode):
    x: jax.Array
    n: Static[int] = 1


class Right(PyTreeNode):
    x: jax.Array
    tag: Static[str] = "r"


@pytree_dataclass
class Plain:
    x: jax.Array


LR = TypeVar("LR", Left, Right)


def shift(o: Left | Right) -> Left | Right:
    return jaxdc.replace(o, x=o.x + 1)  # E: pyright@3.13,basedpyright@3.13 reportArgumentType  # E: ty@3.13 invalid-argument-type  # E: pyrefly@3.13 bad-argument-type  # E: mypy@3.13 arg-type  # E: mypy@3.13 return-value


def shift_each(o: LR) -> LR:
    return jaxdc.replace(o, x=o.x + 1)  # E: pyright@3.13,basedpyright@3.13 reportArgumentType  # E: pyrefly@3.13 bad-argument-type


def shift_method(o: Left | Right) -> Left | Right:
    return o.replace(x=o.x + 1)


def shift_mixed(o: Left | Plain) -> Left | Plain:
    return jaxdc.replace(o, x=o.x + 1)  # E: pyrefly@3.13 bad-argument-type  # E: mypy@3.13 return-value


def renumber(o: Optional[Left]) -> Left:
    assert o is not None
    return jaxdc.replace(o, n=2)


def renumber_either(o: Left | Right) -> Left | Right:
    return jaxdc.replace(o, n=2)  # E: pyright@3.13,basedpyright@3.13 reportArgumentType  # E: ty@3.13 invalid-argument-type  # E: pyrefly@3.13 bad-argument-type  # E: mypy@3.13 arg-type  # E: mypy@3.13 return-value  # E: mypy@3.13 arg-type  # E: mypy-plugin call-arg: Unexpected keyword argument "n" for "replace"


def shift_wrong(o: Left | Right) -> Left | Right:
    return jaxdc.replace(o, x="s")  # E: pyright@3.13,basedpyright@3.13 reportArgumentType  # E: ty@3.13 invalid-argument-type  # E: pyrefly@3.13 bad-argument-type  # E: mypy@3.13 arg-type  # E: mypy@3.13 return-value  # E: pyright@3.13,basedpyright@3.13 reportArgumentType  # E: ty@3.13 invalid-argument-type  # E: pyrefly@3.13 bad-argument-type  # E: mypy@3.13 arg-type  # E: mypy-plugin arg-type: Argument "x" to "replace" has incompatible type "str"; expected "Array"


def retag(o: Left | Right) -> Left | Right:
    return o.replace(tag="t")  # E: pyright@3.13,basedpyright@3.13 reportCallIssue  # E: ty@3.13 unknown-argument  # E: pyrefly@3.13 unexpected-keyword  # E: mypy@3.13 call-arg  # E: mypy-plugin call-arg: Unexpected keyword argument "tag" for "replace" of "PyTreeNode"


shifted = [shift(Left(jnp.zeros(1))), shift_each(Right(jnp.zeros(1))), shift_method(Right(jnp.zeros(1)))]
mixed = shift_mixed(Plain(jnp.zeros(1)))
renumbered = renumber(Left(jnp.zeros(1)))
