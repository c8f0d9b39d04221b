"""Frozen: deleting a field of an instance is rejected."""

import jax
import jax.numpy as jnp

from jaxdc import pytree_dataclass


@pytree_dataclass
class State:
    params: jax.Array


state = State(jnp.zeros(3))
del state.params  # E: pyright,basedpyright reportAttributeAccessIssue  # E: ty invalid-assignment  # E: pyrefly read-only  # runtime: raises FrozenInstanceError
