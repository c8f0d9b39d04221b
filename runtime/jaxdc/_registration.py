"""Registering a finished class with JAX's pytree registry.

Flatten is `operator.attrgetter("_jaxdc_flat_")`: C code reading the `(children,
statics)` pair each instance stores when it is created, so flattening runs no Python
frame per node. Unflatten and flatten-with-keys are generated (see `_codegen`).
The class is also handed to `_flax` for flax.serialization support.
"""

from __future__ import annotations

import operator

import jax

from jaxdc._codegen import make_flatten, make_flatten_with_keys, make_unflatten
from jaxdc._flax import on_new_class
from jaxdc._spec import CACHE_ATTR, ClassSpec

__all__ = ["register"]


def register(spec: ClassSpec) -> None:
    flatten = operator.attrgetter(CACHE_ATTR) if spec.cached else make_flatten(spec)
    jax.tree_util.register_pytree_with_keys(
        spec.cls, make_flatten_with_keys(spec), make_unflatten(spec), flatten
    )
    on_new_class(spec.cls)  # flax.serialization, now or once it is imported
