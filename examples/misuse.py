"""Deliberate misuse of jaxdc. `make demo` type-checks this file (it is never run) and
shows which layer catches each mistake: pyright, mypy, the jaxdc_mypy plugin."""

from __future__ import annotations

import dataclasses

import jax
import jax.numpy as jnp
import jaxdc as jdc
import numpy as np


@dataclasses.dataclass
class Config:  # not frozen: its instances are unhashable
    depth: int


@jdc.pytree_dataclass
class Model:
    w: jax.Array
    b: jax.Array
    layers: jdc.Static[list[int]]  # unhashable static: a stale jit cache waiting to happen
    table: jdc.Static[np.ndarray]  # arrays cannot be static
    config: jdc.Static[Config]  # a non-frozen dataclass cannot be static either
    name: str  # a data field that is not an array: jit would fail on it


model = Model(jnp.ones(3), jnp.zeros(3), [32, 32], np.ones(2), Config(2), "mlp")
model.w = jnp.zeros(3)  # instances are frozen
Model(jnp.ones(3))  # missing constructor arguments
jdc.replace(model, wieght=jnp.ones(3))  # unknown field


@jdc.jit
def forward(m: Model, x: jax.Array, cfg: jdc.Static[Config]) -> jax.Array:
    return m.w * x  # `cfg` above is an unhashable jit static parameter
