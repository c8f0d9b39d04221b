"""jax.jit does not read Static[...]: a parameter it is not told is static is reported (use jaxdc.jit)."""

from functools import partial

import jax
import jax.numpy as jnp

from jaxdc import Static


@jax.jit
def scale(x: jax.Array, factor: Static[int]) -> jax.Array:  # E: mypy-plugin jaxdc-jit: parameter 'factor' of 'scale' is annotated Static[...], but jax.jit does not read that annotation: it traces 'factor' like an array argument. Fix: decorate 'scale' with @jaxdc.jit, which makes Static[...] parameters static, or pass static_argnames=('factor',) to jax.jit.
    return x * factor


@jax.jit(static_argnames="factor")
def named(x: jax.Array, factor: Static[int]) -> jax.Array:
    return x * factor


@jax.jit(static_argnums=(1,))
def numbered(x: jax.Array, factor: Static[int], bias: Static[float]) -> jax.Array:  # E: mypy-plugin jaxdc-jit: parameter 'bias' of 'numbered' is annotated Static[...], but jax.jit does not read that annotation: it traces 'bias' like an array argument. Fix: decorate 'numbered' with @jaxdc.jit, which makes Static[...] parameters static, or pass static_argnames=('bias',) to jax.jit.
    return x * factor + bias


@partial(jax.jit, static_argnames=("factor",))
def partially(x: jax.Array, factor: Static[int]) -> jax.Array:
    return x * factor


@jax.jit
def plain(x: jax.Array, factor: int) -> jax.Array:
    return x * factor


named(jnp.ones(2), 2)
partially(jnp.ones(2), 2)
plain(jnp.ones(2), 2)
scale(jnp.ones(2), 2)
