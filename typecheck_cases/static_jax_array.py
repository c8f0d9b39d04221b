"""Static[...] rejects a JAX array: `jax.Array`."""

import jax

from jaxdc import Static, pytree_dataclass


@pytree_dataclass  # runtime: raises TypeError
class Model:
    config: Static[jax.Array]  # E: pyright reportInvalidTypeForm  # E: mypy jaxdc-static
