"""dataclasses.field(): a field specifier; metadata={"static": True} (or dict(static=True)) is static."""

import dataclasses

import jax
import jax.numpy as jnp
from typing_extensions import assert_type

import jaxdc as jdc


@jdc.pytree_dataclass
class Op:
    x: jax.Array
    op: str = dataclasses.field(metadata={"static": True})
    mode: str = dataclasses.field(metadata=dict(static=True), default="fast")
    steps: int = dataclasses.field(init=False, default=0, metadata=dict(static=True))


class Node(jdc.PyTreeNode):
    x: jax.Array
    op: str = dataclasses.field(metadata=dict(static=True))


op = Op(jnp.ones(2), "add")
assert_type(op.mode, str)
Node(jnp.ones(2), "sub")


def misuse() -> None:
    Op(jnp.ones(2), "add", "slow", 3)  # E: pyright,basedpyright reportCallIssue  # E: ty too-many-positional-arguments  # E: pyrefly bad-argument-count  # E: zuban,mypy,mypy-plugin call-arg
    Node(jnp.ones(2))  # E: pyright,basedpyright reportCallIssue  # E: ty missing-argument  # E: pyrefly missing-argument  # E: zuban,mypy,mypy-plugin call-arg


Op(jnp.ones(2))  # E: pyright,basedpyright reportCallIssue  # E: ty missing-argument  # E: pyrefly missing-argument  # E: zuban,mypy,mypy-plugin call-arg  # runtime: raises TypeError
