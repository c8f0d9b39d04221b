"""`from __future__ import annotations`: an unhashable Static is still rejected."""

from __future__ import annotations

import jax

import jaxdc as jdc


@jdc.pytree_dataclass  # runtime: raises TypeError
class Model:
    w: jax.Array
    sizes: jdc.Static[list[int]]  # E: pyright reportInvalidTypeForm  # E: mypy type-var  # E: mypy jaxdc-static
