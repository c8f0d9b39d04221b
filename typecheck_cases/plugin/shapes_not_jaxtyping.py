"""A `Float` that is not jaxtyping's (an alias of Annotated): its strings are not shapes."""

import jax
from typing import Annotated as Float

import jaxdc as jdc


@jdc.pytree_dataclass
class Doc:
    x: Float[jax.Array, "*free *form"]
