"""Custom __init__/__post_init__: `jaxdc.attr(self, ...).set(...)` sets fields, checked and clean."""

import jax
import jax.numpy as jnp

import jaxdc
from jaxdc import Static, field, pytree_dataclass


@pytree_dataclass
class Linear:
    w: jax.Array
    b: jax.Array
    name: Static[str]

    def __init__(self, n_in: int, n_out: int, name: str = "linear") -> None:
        jaxdc.attr(self, lambda s: s.w).set(jnp.zeros((n_in, n_out)))
        jaxdc.attr(self, lambda s: s.b).set(jnp.zeros(n_out))
        jaxdc.attr(self, lambda s: s.name).set(name)


@pytree_dataclass
class Stats:
    xs: jax.Array
    mean: jax.Array = field(init=False, pytree=True)

    def __post_init__(self) -> None:
        jaxdc.attr(self, lambda s: s.mean).set(self.xs.mean())


@pytree_dataclass
class Legacy:
    """The jax_dataclasses spelling also type-checks (unchecked names and values)."""

    xs: jax.Array
    total: jax.Array = field(init=False, pytree=True)

    def __post_init__(self) -> None:
        object.__setattr__(self, "total", self.xs.sum())


layer = Linear(2, 3)
assert layer.w.shape == (2, 3)
assert jax.tree_util.tree_map(lambda x: x + 1, layer).name == "linear"
assert float(Stats(jnp.arange(3.0)).mean) == 1.0
assert float(Legacy(jnp.arange(3.0)).total) == 3.0
