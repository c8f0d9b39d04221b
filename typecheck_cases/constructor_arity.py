"""Constructor: too many, too few or unknown arguments are rejected."""

import jax
import jax.numpy as jnp

from jaxdc import Static, pytree_dataclass


@pytree_dataclass
class Point:
    x: jax.Array
    y: jax.Array
    label: Static[str] = "p"


Point(jnp.zeros(2), jnp.ones(2))
Point(jnp.zeros(2), jnp.ones(2), "q")
Point(jnp.zeros(2))  # E: pyright,basedpyright reportCallIssue  # E: ty,pyrefly missing-argument  # E: zuban,mypy,mypy-plugin call-arg  # runtime: raises TypeError
Point(jnp.zeros(2), jnp.ones(2), "q", 4)  # E: pyright,basedpyright reportCallIssue  # E: ty too-many-positional-arguments  # E: pyrefly bad-argument-count  # E: zuban,mypy,mypy-plugin call-arg
Point(jnp.zeros(2), jnp.ones(2), colour="red")  # E: pyright,basedpyright reportCallIssue  # E: ty unknown-argument  # E: pyrefly unexpected-keyword  # E: zuban,mypy,mypy-plugin call-arg
