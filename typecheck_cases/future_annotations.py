"""`from __future__ import annotations`: Static found through a module alias and Optional."""

from __future__ import annotations

from typing import Optional

import jax
import jax.numpy as jnp
from typing_extensions import assert_type

import jaxdc as jdc


@jdc.pytree_dataclass
class Model:
    w: jax.Array
    name: jdc.Static[str]
    depth: jdc.Static[Optional[int]] = None


model = Model(jnp.zeros(2), "m")
assert_type(model.depth, Optional[int])
assert len(jax.tree_util.tree_leaves(model)) == 1
Model(jnp.zeros(2), 3)  # E: pyright,basedpyright reportArgumentType  # E: ty invalid-argument-type  # E: pyrefly bad-argument-type  # E: zuban,mypy,mypy-plugin arg-type
