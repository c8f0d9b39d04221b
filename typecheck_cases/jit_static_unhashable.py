"""jit: a Static parameter of an unhashable type (a jit cache key must be hashable)."""

import jax
import jax.numpy as jnp

import jaxdc
from jaxdc import Static


@jaxdc.jit
def pad(x: jax.Array, widths: Static[list[int]]) -> jax.Array:  # E: pyright,basedpyright reportInvalidTypeForm  # E: ty invalid-type-arguments  # E: pyrefly bad-specialization  # E: zuban,mypy type-var  # E: mypy-plugin jaxdc-static: static parameter 'widths' of jitted function 'pad' has unhashable type 'list[int]': 'list' is mutable and not hashable. Static arguments are used as jit cache keys, so they must be hashable. Fix: use an immutable type such as tuple[...] or frozenset[...], or drop Static[...] from 'widths'.
    return jnp.pad(x, widths)


pad(jnp.zeros(2), [1, 1])  # runtime: raises TypeError
