# runtime: raises TypeError
"""Static[...] rejects a JAX array: `jax.Array`."""

import jax

from jaxdc import Static, pytree_dataclass


@pytree_dataclass
class Model:
    config: Static[jax.Array]  # E: pyright reportInvalidTypeForm  # E: mypy jaxdc-static
