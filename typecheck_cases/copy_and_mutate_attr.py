"""copy_and_mutate: nested edits through `jaxdc.attr(new, ...)`, checked and clean."""

import jax
import jax.numpy as jnp
from typing_extensions import assert_type

import jaxdc
from jaxdc import Static, pytree_dataclass


@pytree_dataclass
class Inner:
    x: jax.Array


@pytree_dataclass
class Outer:
    inner: Inner
    name: Static[str] = "o"


obj = Outer(Inner(jnp.zeros(2)))
with jaxdc.copy_and_mutate(obj) as new:
    assert_type(new, Outer)
    jaxdc.attr(new, lambda n: n.inner.x).set(jnp.ones(2))
with jaxdc.copy_and_mutate(obj, validate=False) as renamed:
    jaxdc.attr(renamed, lambda n: n.name).set("p")
assert float(new.inner.x.sum()) == 2.0 and float(obj.inner.x.sum()) == 0.0
assert renamed.name == "p"
