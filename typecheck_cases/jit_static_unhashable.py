"""jit: a Static parameter of an unhashable type (a jit cache key must be hashable)."""

import jax
import jax.numpy as jnp

import jaxdc
from jaxdc import Static


@jaxdc.jit
def pad(x: jax.Array, widths: Static[list[int]]) -> jax.Array:  # E: pyright reportInvalidTypeForm  # E: mypy type-var  # E: mypy jaxdc-static
    return jnp.pad(x, widths)


pad(jnp.zeros(2), [1, 1])  # runtime: raises TypeError
