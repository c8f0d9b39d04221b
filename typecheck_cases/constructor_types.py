"""Constructor: argument types are checked against the field annotations (Static unwrapped)."""

import jax
import jax.numpy as jnp
from typing_extensions import assert_type

from jaxdc import Static, pytree_dataclass


@pytree_dataclass
class Layer:
    w: jax.Array
    name: Static[str]
    width: Static[int] = 4


layer = Layer(jnp.zeros(3), "dense")
assert_type(layer.name, str)
assert_type(layer.width, int)
Layer(jnp.zeros(3), 7)  # E: pyright,basedpyright reportArgumentType  # E: ty invalid-argument-type  # E: pyrefly bad-argument-type  # E: zuban,mypy,mypy-plugin arg-type
Layer(jnp.zeros(3), "dense", width="wide")  # E: pyright,basedpyright reportArgumentType  # E: ty invalid-argument-type  # E: pyrefly bad-argument-type  # E: zuban,mypy,mypy-plugin arg-type
