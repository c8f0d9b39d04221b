"""copy_and_mutate: a change of shape is caught at runtime; a wrong value type by mypy + plugin (the copy is Any to the stubs)."""

import jax
import jax.numpy as jnp

import jaxdc
from jaxdc import pytree_dataclass


@pytree_dataclass
class Inner:
    x: jax.Array


with jaxdc.copy_and_mutate(Inner(jnp.zeros(2))) as new:  # runtime: raises ValueError
    jaxdc.attr(new, lambda n: n.x).set(jnp.ones(3))
    jaxdc.attr(new, lambda n: n.x).set("ones")  # E: mypy-plugin arg-type
