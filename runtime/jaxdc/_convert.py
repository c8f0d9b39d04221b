"""`as_array`: the converter for the common case, array-likes to `jax.Array`.

`x: jax.Array = jaxdc.field(converter=jaxdc.as_array)` lets callers pass a number, a NumPy
array or any other `ArrayLike` while the field always holds a `jax.Array`; its parameter is typed
`ArrayLike` (stubs), so every checker types that `__init__` parameter, where an untyped
converter (a lambda) would make it `Any`.
"""

import jax
import jax.numpy as jnp
from jax.typing import ArrayLike

__all__ = ["as_array"]


# Evaluated annotations (no `from __future__ import annotations`): a generated `__init__`
# copies `ArrayLike` as its parameter's annotation, which must mean the same in any module.
def as_array(value: ArrayLike, /) -> jax.Array:
    """`jnp.asarray(value)`: a `jax.Array` (or the tracer under a transformation) as is,
    anything array-like converted."""
    return jnp.asarray(value)
