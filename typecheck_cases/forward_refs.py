"""Forward references: a field typed by a class defined later, and a recursive field."""

from typing import Optional

import jax
import jax.numpy as jnp
from typing_extensions import assert_type

from jaxdc import Static, pytree_dataclass


@pytree_dataclass
class Tree:
    value: jax.Array
    child: Optional["Tree"] = None
    meta: Static[Optional["Meta"]] = None


@pytree_dataclass
class Holder:
    leaf: "Leaf"


@pytree_dataclass
class Leaf:
    x: jax.Array


tree = Tree(jnp.zeros(1), Tree(jnp.ones(1)))
assert_type(tree.child, Optional[Tree])
holder = Holder(Leaf(jnp.zeros(2)))
assert_type(holder.leaf.x, jax.Array)
Holder(jnp.zeros(2))  # E: pyright,basedpyright reportArgumentType  # E: ty invalid-argument-type  # E: pyrefly bad-argument-type  # E: zuban,mypy,mypy-plugin arg-type


class Meta:
    pass
