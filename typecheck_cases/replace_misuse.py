"""replace: returns the same type; a positional change is rejected."""

import jax
import jax.numpy as jnp
from typing_extensions import assert_type

import jaxdc
from jaxdc import PyTreeNode, Static, pytree_dataclass


@pytree_dataclass
class State:
    params: jax.Array
    step: Static[int] = 0


class Node(PyTreeNode):
    value: jax.Array


state = State(jnp.zeros(3))
assert_type(jaxdc.replace(state, step=1), State)
assert_type(Node(jnp.zeros(2)).replace(value=jnp.ones(2)), Node)
jaxdc.replace(state, 1)  # E: pyright,basedpyright reportCallIssue  # E: ty too-many-positional-arguments  # E: pyrefly bad-argument-count  # E: zuban,mypy,mypy-plugin call-arg  # E: mypy@3.13 arg-type  # runtime: raises TypeError
