"""Inheritance: a decorated subclass extends the fields; static-ness is inherited."""

import jax
import jax.numpy as jnp
from typing_extensions import assert_type

from jaxdc import Static, pytree_dataclass


@pytree_dataclass
class Base:
    w: jax.Array
    name: Static[str]


@pytree_dataclass
class Child(Base):
    b: jax.Array


child = Child(jnp.zeros(2), "c", jnp.ones(2))
assert_type(child.name, str)
base: Base = child
Child(jnp.zeros(2), "c")  # E: pyright reportCallIssue  # E: mypy call-arg  # runtime: raises TypeError
Child(jnp.zeros(2), jnp.ones(2), "c")  # E: pyright reportArgumentType  # E: mypy arg-type
child.b = jnp.ones(2)  # E: pyright reportAttributeAccessIssue  # E: mypy misc
