"""Data fields whose type is not array-like (jaxdc-any only with check_any = true)."""

from typing import Any, Callable, Optional

import jax
from jaxdc import PyTreeNode, pytree_dataclass


class Plain:
    pass


@pytree_dataclass
class Model:
    name: str  # E: mypy-plugin jaxdc-data: data field 'name' of class 'Model' has type 'str', which is not array-like: 'str' is not an array type. Data fields are pytree children that JAX traces as arrays. Fix: declare it Static[str] if it is configuration.
    blob: bytes  # E: mypy-plugin jaxdc-data: data field 'blob' of class 'Model' has type 'bytes', which is not array-like: 'bytes' is not an array type. Data fields are pytree children that JAX traces as arrays. Fix: declare it Static[bytes] if it is configuration.
    fn: Callable[[int], int]  # E: mypy-plugin jaxdc-data: data field 'fn' of class 'Model' has type 'Callable[[int], int]', which is not array-like: a callable is not an array. Data fields are pytree children that JAX traces as arrays. Fix: declare it Static[Callable[[int], int]] (functions are hashable).
    kind: type[int]  # E: mypy-plugin jaxdc-data: data field 'kind' of class 'Model' has type 'type[int]', which is not array-like: a class object is not an array. Data fields are pytree children that JAX traces as arrays. Fix: declare it Static[type[int]].
    other: Plain  # E: mypy-plugin jaxdc-data: data field 'other' of class 'Model' has type 'Plain', which is not array-like: 'Plain' is not an array type or a pytree class. Data fields are pytree children that JAX traces as arrays. Fix: declare it Static[Plain] if it is configuration, or list 'Plain' under extra_pytree_bases or extra_array_types in [tool.jaxdc-mypy] if JAX can trace it.
    maybe: Optional[str]  # E: mypy-plugin jaxdc-data: data field 'maybe' of class 'Model' has type 'str | None', which is not array-like: 'str' is not an array type. Data fields are pytree children that JAX traces as arrays. Fix: declare it Static[str | None] if it is configuration.
    names: list[str]  # E: mypy-plugin jaxdc-data: data field 'names' of class 'Model' has type 'list[str]', which is not array-like: 'str' is not an array type. Data fields are pytree children that JAX traces as arrays. Fix: declare it Static[list[str]] if it is configuration.
    table: dict[str, Plain]  # E: mypy-plugin jaxdc-data: data field 'table' of class 'Model' has type 'dict[str, Plain]', which is not array-like: 'Plain' is not an array type or a pytree class. Data fields are pytree children that JAX traces as arrays. Fix: declare it Static[dict[str, Plain]] if it is configuration, or list 'Plain' under extra_pytree_bases or extra_array_types in [tool.jaxdc-mypy] if JAX can trace it.
    pair: tuple[jax.Array, str]  # E: mypy-plugin jaxdc-data: data field 'pair' of class 'Model' has type 'tuple[jax.Array, str]', which is not array-like: 'str' is not an array type. Data fields are pytree children that JAX traces as arrays. Fix: declare it Static[tuple[jax.Array, str]] if it is configuration.
    loose: Any


class Sub(PyTreeNode):
    label: str  # E: mypy-plugin jaxdc-data: data field 'label' of class 'Sub' has type 'str', which is not array-like: 'str' is not an array type. Data fields are pytree children that JAX traces as arrays. Fix: declare it Static[str] if it is configuration.
    weights: jax.Array
