"""A data field typed Any is accepted (jaxdc-any is off unless check_any = true)."""

from typing import Any

import jax.numpy as jnp

from jaxdc import pytree_dataclass


@pytree_dataclass
class Model:
    anything: Any


Model(jnp.zeros(2))
