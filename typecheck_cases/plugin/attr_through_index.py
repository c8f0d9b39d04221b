"""jaxdc.attr on a node reached through a list inside its copy_and_mutate block is fine."""

import jax
import jax.numpy as jnp

import jaxdc


@jaxdc.pytree_dataclass
class Layer:
    w: jax.Array


@jaxdc.pytree_dataclass
class Net:
    layers: list[Layer]


net = Net([Layer(jnp.zeros(2)), Layer(jnp.zeros(2))])
with jaxdc.copy_and_mutate(net) as new:
    jaxdc.attr(new.layers[1], lambda layer: layer.w).set(jnp.ones(2))
assert float(new.layers[1].w.sum()) == 2.0 and float(net.layers[1].w.sum()) == 0.0
jaxdc.attr(net.layers[0], lambda layer: layer.w).set(jnp.ones(2))  # E: mypy-plugin jaxdc-mutation: cannot assign to field 'w' of 'Layer': jaxdc instances are frozen, like JAX arrays; fields can be set only on `self` in __init__/__post_init__ or inside `with jaxdc.copy_and_mutate(...)`. Fix: jaxdc.replace(obj, w=...), or `with jaxdc.copy_and_mutate(obj) as new: new.w = ...` (spelled `jaxdc.attr(new, lambda n: n.w).set(...)` where type checkers must accept it).  # runtime: raises FrozenInstanceError
jaxdc.attr(net, lambda n: n.layers[1].w).set(jnp.ones(2))  # E: mypy-plugin jaxdc-mutation: cannot assign to field 'layers[1].w' of 'Net': jaxdc instances are frozen, like JAX arrays; fields can be set only on `self` in __init__/__post_init__ or inside `with jaxdc.copy_and_mutate(...)`. Fix: jaxdc.replace(obj, layers=...), or `with jaxdc.copy_and_mutate(obj) as new: new.layers[1].w = ...` (spelled `jaxdc.attr(new, lambda n: n.layers[1].w).set(...)` where type checkers must accept it).
