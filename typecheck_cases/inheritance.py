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
Child(jnp.zeros(2), "c")  # E: pyright,basedpyright reportCallIssue  # E: ty,pyrefly missing-argument  # E: zuban,mypy,mypy-plugin call-arg  # runtime: raises TypeError
Child(jnp.zeros(2), jnp.ones(2), "c")  # E: pyright,basedpyright reportArgumentType  # E: pyright,basedpyright reportArgumentType  # E: ty invalid-argument-type  # E: ty invalid-argument-type  # E: pyrefly bad-argument-type  # E: pyrefly bad-argument-type  # E: zuban,mypy,mypy-plugin arg-type  # E: zuban,mypy,mypy-plugin arg-type
child.b = jnp.ones(2)  # E: pyright,basedpyright reportAttributeAccessIssue  # E: ty invalid-assignment  # E: pyrefly read-only  # E: zuban,mypy,mypy-plugin misc
