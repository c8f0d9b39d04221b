"""copy_and_mutate on an object typed by a union of jaxdc classes: its copy is assigned as one of a single class is."""

import jax
import jax.numpy as jnp

import jaxdc
from jaxdc import PyTreeNode, field


class Left(PyTreeNode):
    x: jax.Array
    cache: int = field(pytree=False, default=0)


class Right(PyTreeNode):
    x: jax.Array
    cache: int = field(pytree=False, default=0)


def shift(o: Left | Right) -> Left | Right:
    with jaxdc.copy_and_mutate(o) as new:
        new.x = o.x + 1
    return new


def forget(o: Left | Right) -> None:
    with jaxdc.copy_and_mutate(o) as new:
        new.cache = 1  # E: mypy-plugin jaxdc-mutation: cannot assign 'cache' in copy_and_mutate: class 'Left' has no pytree field 'cache' (fields: x, cache; fields left out of the pytree keep their defaults).
    o.x = new.x  # E: pyright,basedpyright reportAttributeAccessIssue  # E: pyright,basedpyright reportAttributeAccessIssue  # E: ty invalid-assignment  # E: pyrefly read-only  # E: zuban,mypy,mypy-plugin misc  # E: zuban,mypy,mypy-plugin misc


shifted = [shift(Left(jnp.zeros(1))), shift(Right(jnp.ones(1)))]
