"""Constructor: `kw_only=True` (decorator or field) rejects positional arguments."""

import jax
import jax.numpy as jnp

from jaxdc import field, pytree_dataclass


@pytree_dataclass(kw_only=True)
class Options:
    lr: float
    steps: int = 10


@pytree_dataclass
class Mixed:
    x: jax.Array
    scale: float = field(default=1.0, kw_only=True)


Options(lr=0.1, steps=3)
Mixed(jnp.zeros(2), scale=2.0)
Options(0.1)  # E: pyright,basedpyright reportCallIssue  # E: ty missing-argument  # E: ty too-many-positional-arguments  # E: pyrefly unexpected-positional-argument  # E: zuban,mypy,mypy-plugin call-arg  # runtime: raises TypeError
Mixed(jnp.zeros(2), 2.0)  # E: pyright,basedpyright reportCallIssue  # E: ty too-many-positional-arguments  # E: pyrefly bad-argument-count  # E: zuban,mypy,mypy-plugin call-arg
