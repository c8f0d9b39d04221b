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
    name: str  # E: mypy-plugin jaxdc-data: data field 'name' of class 'Model' has type 'str', which is not array-like: 'str' is not an array type. Data fields are pytree children that JAX traces as arrays. Fix: declare it Static[str] if it is configuration.
    fn: Callable[[int], int]  # E: mypy-plugin jaxdc-data: data field 'fn' of class 'Model' has type 'Callable[[int], int]', which is not array-like: a callable is not an array. Data fields are pytree children that JAX traces as arrays. Fix: declare it Static[Callable[[int], int]] (functions are hashable).
    other: Plain  # E: mypy-plugin jaxdc-data: data field 'other' of class 'Model' has type 'Plain', which is not array-like: 'Plain' is not an array type or a pytree class. Data fields are pytree children that JAX traces as arrays. Fix: declare it Static[Plain] if it is configuration, or list 'Plain' under extra_pytree_bases or extra_array_types in [tool.jaxdc-mypy] if JAX can trace it.
    names: list[str]  # E: mypy-plugin jaxdc-data: data field 'names' of class 'Model' has type 'list[str]', which is not array-like: 'str' is not an array type. Data fields are pytree children that JAX traces as arrays. Fix: declare it Static[list[str]] if it is configuration.
    label: Static[str] = "ok"


Model(jnp.zeros(2), "m", abs, Plain(), ["a"])
