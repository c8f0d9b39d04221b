"""`as_array`: the converter for the common case, array-likes to `jax.Array`.

`x: jax.Array = jaxdc.field(converter=jaxdc.as_array)` lets callers pass a list, a number
or a NumPy array while the field always holds a `jax.Array`; its parameter is typed
`ArrayLike` (stubs), so every checker types that `__init__` parameter, where an untyped
converter (a lambda) would make it `Any`.
"""

from __future__ import annotations

from typing import Any

import jax
import jax.numpy as jnp

__all__ = ["as_array"]


def as_array(value: Any, /) -> jax.Array:
    """`jnp.asarray(value)`: a `jax.Array` (or the tracer under a transformation) as is,
    anything array-like converted."""
    return jnp.asarray(value)
