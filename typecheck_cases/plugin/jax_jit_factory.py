"""jax.jit as a decorator factory (`@jax.jit(static_argnums=...)`, newer jax): a Static[...] parameter it is not told is static is reported."""

import jax
import jax.numpy as jnp

from jaxdc import Static


@jax.jit(static_argnames="factor")
def named(x: jax.Array, factor: Static[int]) -> jax.Array:
    return x * factor


@jax.jit(static_argnums=(1,))
def numbered(x: jax.Array, factor: Static[int], bias: Static[float]) -> jax.Array:  # E: mypy-plugin jaxdc-jit: parameter 'bias' of 'numbered' is annotated Static[...], but jax.jit does not read that annotation: it traces 'bias' like an array argument. Fix: decorate 'numbered' with @jaxdc.jit, which makes Static[...] parameters static, or pass static_argnames=('bias',) to jax.jit.
    return x * factor + bias


named(jnp.ones(2), 2)
numbered(jnp.ones(2), 2, 0.5)
