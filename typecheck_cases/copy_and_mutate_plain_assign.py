"""copy_and_mutate: plain assignment inside the block (nested, through a list, in place) is clean."""

import jax
import jax.numpy as jnp

import jaxdc
from jaxdc import Static, pytree_dataclass


@pytree_dataclass
class Encoder:
    w: jax.Array
    b: jax.Array


@pytree_dataclass
class Params:
    encoder: Encoder
    layers: list[Encoder]


@pytree_dataclass
class State:
    params: Params
    step: jax.Array
    name: Static[str] = "state"


state = State(Params(Encoder(jnp.zeros(2), jnp.zeros(2)), [Encoder(jnp.zeros(2), jnp.zeros(2))]), jnp.zeros(()))
with jaxdc.copy_and_mutate(state) as new:
    new.params.encoder.w = jnp.ones(2)
    new.params.layers[0].b = new.params.layers[0].b + 1
    new.step = new.step + 1
    new.step += 1
    encoder = new.params.encoder
    encoder.b = jnp.ones(2)
    for layer in new.params.layers:
        layer.w = layer.w * 2
with jaxdc.copy_and_mutate(new, validate=False) as renamed:  # a static changes the treedef
    renamed.name = "edited"
assert float(new.params.encoder.w.sum()) == 2.0 and float(state.params.encoder.w.sum()) == 0.0
assert float(new.step) == 2.0 and renamed.name == "edited" and new.name == "state"
assert float(new.params.layers[0].b.sum()) == 2.0
