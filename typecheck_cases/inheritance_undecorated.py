"""Inheritance: an undecorated subclass (it would be a pytree leaf) is rejected when used."""

import jax
import jax.numpy as jnp

from jaxdc import pytree_dataclass


@pytree_dataclass
class Base:
    w: jax.Array


class Child(Base):
    extra: int = 0


Child(jnp.zeros(2))  # runtime: raises TypeError
