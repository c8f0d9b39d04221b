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
jaxdc.attr(net.layers[0], lambda layer: layer.w).set(jnp.ones(2))  # E: mypy jaxdc-mutation  # runtime: raises FrozenInstanceError
