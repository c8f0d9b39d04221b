"""jax.tree.static(): JAX's field specifier makes a static field; its keywords act as in field()."""

import jax
import jax.numpy as jnp
from typing_extensions import assert_type

import jaxdc as jdc
from jaxdc.compat import chex_dataclass, flax_struct


@jdc.pytree_dataclass
class Op:
    x: jax.Array
    op: str = jax.tree.static()


@jdc.pytree_dataclass
class Options:
    x: jax.Array
    name: str = jax.tree.static(default="add")
    sizes: tuple[int, ...] = jax.tree.static(default_factory=tuple)
    steps: int = jax.tree.static(init=False, default=0)
    scale: float = jax.tree.static(kw_only=True, default=1.0)
    label: str = jax.tree.static(default="", metadata={"doc": "shown in logs"}, repr=False)
    bad: int = jax.tree.static(default="zero")  # E: pyright,basedpyright reportAssignmentType  # E: ty invalid-assignment  # E: pyrefly bad-assignment  # E: zuban arg-type  # E: mypy,mypy-plugin assignment


class Node(jdc.PyTreeNode):
    x: jax.Array
    op: str = jax.tree.static()


@flax_struct.dataclass
class FlaxOp:
    x: jax.Array
    op: str = jax.tree.static()


@chex_dataclass.dataclass
class ChexOp:
    x: jax.Array
    op: str = jax.tree.static()


op = Op(jnp.ones(2), "add")
assert_type(op.op, str)
options = Options(jnp.ones(2), "mul", (1, 2), scale=2.0)
assert_type(options.sizes, tuple[int, ...])
Options(jnp.ones(2))
Node(jnp.ones(2), op="sub")
FlaxOp(jnp.ones(2), "add")
ChexOp(jnp.ones(2), "add")
moved: Op = jdc.replace(op, op="sub")


def misuse() -> None:
    Options(jnp.ones(2), "mul", (1, 2), "l", 3, 2.0)  # E: pyright,basedpyright reportCallIssue  # E: ty too-many-positional-arguments  # E: pyrefly bad-argument-count  # E: zuban,mypy,mypy-plugin call-arg
    Options(jnp.ones(2), steps=1)  # E: pyright,basedpyright reportCallIssue  # E: ty unknown-argument  # E: pyrefly unexpected-keyword  # E: zuban,mypy,mypy-plugin call-arg
    Options(jnp.ones(2), name=1)  # E: pyright,basedpyright reportArgumentType  # E: ty invalid-argument-type  # E: pyrefly bad-argument-type  # E: zuban,mypy,mypy-plugin arg-type
    Node(jnp.ones(2))  # E: pyright,basedpyright reportCallIssue  # E: ty missing-argument  # E: pyrefly missing-argument  # E: zuban,mypy,mypy-plugin call-arg
    FlaxOp(jnp.ones(2))  # E: pyright,basedpyright reportCallIssue  # E: ty missing-argument  # E: pyrefly missing-argument  # E: zuban,mypy,mypy-plugin call-arg
    ChexOp(jnp.ones(2))  # E: pyright,basedpyright reportCallIssue  # E: ty missing-argument  # E: pyrefly missing-argument  # E: zuban,mypy,mypy-plugin call-arg
    jdc.replace(op, op=1)  # E: mypy-plugin arg-type


Op(jnp.ones(2))  # E: pyright,basedpyright reportCallIssue  # E: ty missing-argument  # E: pyrefly missing-argument  # E: zuban,mypy,mypy-plugin call-arg  # runtime: raises TypeError
