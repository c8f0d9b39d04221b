"""Field annotations the plugin tells apart without looking names up, next to ones it must
look up (an alias; every annotation of a class in a function, where mypy expands aliases
where they are used). All of it is correct code: no checker reports anything."""

from __future__ import annotations

from typing import Optional, Union

import jax
import jax.numpy as jnp
from typing_extensions import TypeAlias

import jaxdc as jdc

Label: TypeAlias = jdc.Static[str]


@jdc.pytree_dataclass
class Leaf:
    w: jax.Array
    bias: Optional[jax.Array] = None
    extra: jax.Array | None = None
    label: Label = "leaf"


@jdc.pytree_dataclass
class Tree:
    leaves: tuple[Leaf, ...]
    by_name: dict[str, jax.Array]
    first: Union[Leaf, None] = None
    depth: jdc.Static[int] = 0


def build() -> int:

    @jdc.pytree_dataclass
    class Local:
        xs: tuple[jax.Array, ...]
        name: jdc.Static[str] = "local"
        scale: Optional[jax.Array] = None

    local = Local((jnp.ones(2),))
    moved: Local = jdc.replace(local, name="moved")
    tree = Tree((Leaf(jnp.zeros(2)),), {"a": jnp.ones(1)})
    return len(moved.xs) + tree.depth + len(tree.leaves[0].label)
