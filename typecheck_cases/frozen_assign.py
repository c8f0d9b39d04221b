"""Frozen: assigning a field of an instance is rejected."""

import jax
import jax.numpy as jnp

from jaxdc import Static, pytree_dataclass


@pytree_dataclass
class State:
    params: jax.Array
    step: Static[int] = 0


state = State(jnp.zeros(3))
state.params = jnp.ones(3)  # E: pyright,basedpyright reportAttributeAccessIssue  # E: ty invalid-assignment  # E: pyrefly read-only  # E: zuban,mypy,mypy-plugin misc  # runtime: raises FrozenInstanceError
state.step += 1  # E: pyright,basedpyright reportAttributeAccessIssue  # E: ty invalid-assignment  # E: pyrefly read-only  # E: zuban,mypy,mypy-plugin misc
