"""replace: an unknown field name is rejected (at runtime, by the mypy plugin, and from 3.13 by each checker with `__replace__`)."""

import jax
import jax.numpy as jnp

import jaxdc
from jaxdc import pytree_dataclass


@pytree_dataclass
class State:
    params: jax.Array


jaxdc.replace(State(jnp.zeros(3)), parms=jnp.ones(3))  # E: pyright@3.13,basedpyright@3.13 reportCallIssue  # E: ty@3.13 unknown-argument  # E: pyrefly@3.13 unexpected-keyword  # E: mypy@3.13,mypy-plugin call-arg  # runtime: raises TypeError
