"""An attribute that is not a field, set on self while constructing: the pytree would not carry it, so it is refused."""

import jax
import jax.numpy as jnp

import jaxdc


@jaxdc.pytree_dataclass
class Stats:
    values: jax.Array
    count: int = jaxdc.field(default=0, init=False)

    def __post_init__(self) -> None:
        jaxdc.attr(self, lambda s: s.count).set(int(self.values.shape[0]))
        self.mean = self.values.mean()  # E: pyright,basedpyright reportAttributeAccessIssue  # E: ty invalid-assignment  # E: mypy-plugin jaxdc-mutation: attribute 'mean' of class 'Stats' is not a field, so a value set during construction would be lost after jit/vmap/tree_map/replace (jaxdc never re-runs __init__/__post_init__ on unflatten). Fix: declare it as a field (`mean: T = jaxdc.field(init=False)`), or compute it in a property.


class Node(jaxdc.PyTreeNode):
    x: jax.Array

    def __init__(self, x: jax.Array) -> None:
        jaxdc.attr(self, lambda s: s.x).set(x)
        self.norm = jnp.abs(x).max()  # E: pyright,basedpyright reportAttributeAccessIssue  # E: ty invalid-assignment  # E: mypy-plugin jaxdc-mutation: attribute 'norm' of class 'Node' is not a field, so a value set during construction would be lost after jit/vmap/tree_map/replace (jaxdc never re-runs __init__/__post_init__ on unflatten). Fix: declare it as a field (`norm: T = jaxdc.field(init=False)`), or compute it in a property.  # runtime: raises TypeError


node = Node(jnp.ones(2))
stats = Stats(jnp.ones(3))
