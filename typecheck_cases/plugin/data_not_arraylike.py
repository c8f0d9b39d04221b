"""Data field whose type is not array-like (str, callable, plain class, list of str)."""

from collections.abc import Callable

import jax
import jax.numpy as jnp

from jaxdc import Static, pytree_dataclass


class Plain:
    pass


@pytree_dataclass
class Model:
    w: jax.Array
    name: str  # E: mypy jaxdc-data
    fn: Callable[[int], int]  # E: mypy jaxdc-data
    other: Plain  # E: mypy jaxdc-data
    names: list[str]  # E: mypy jaxdc-data
    label: Static[str] = "ok"


Model(jnp.zeros(2), "m", abs, Plain(), ["a"])
