"""copy_and_mutate: plain `new.a.b = x` runs, but checkers see frozen classes (use jaxdc.attr)."""

import jax
import jax.numpy as jnp

import jaxdc
from jaxdc import pytree_dataclass


@pytree_dataclass
class Inner:
    x: jax.Array


@pytree_dataclass
class Outer:
    inner: Inner


with jaxdc.copy_and_mutate(Outer(Inner(jnp.zeros(2)))) as new:
    new.inner.x = jnp.ones(2)  # E: pyright reportAttributeAccessIssue  # E: mypy misc
assert float(new.inner.x.sum()) == 2.0
