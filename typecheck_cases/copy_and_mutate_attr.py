"""copy_and_mutate: nested edits through `jaxdc.attr(new, ...)`, attribute and index paths."""

import jax
import jax.numpy as jnp

import jaxdc
from jaxdc import Static, pytree_dataclass


@pytree_dataclass
class Inner:
    x: jax.Array


@pytree_dataclass
class Outer:
    inner: Inner
    layers: list[Inner]
    name: Static[str] = "o"


obj = Outer(Inner(jnp.zeros(2)), [Inner(jnp.zeros(2))])
with jaxdc.copy_and_mutate(obj) as new:
    jaxdc.attr(new, lambda n: n.inner.x).set(jnp.ones(2))
    jaxdc.attr(new.layers[0], lambda layer: layer.x).set(jnp.ones(2))
    jaxdc.attr(new, lambda n: n.layers[0].x).set(jnp.ones(2))
with jaxdc.copy_and_mutate(obj, validate=False) as renamed:
    jaxdc.attr(renamed, lambda n: n.name).set("p")
assert float(new.inner.x.sum()) == 2.0 and float(obj.inner.x.sum()) == 0.0
assert float(new.layers[0].x.sum()) == 2.0 and float(obj.layers[0].x.sum()) == 0.0
assert renamed.name == "p"
