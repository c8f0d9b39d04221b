"""jit: a Static parameter written through an import alias (`jdc.Static`) is checked too."""

import dataclasses

import jax
import jax.numpy as jnp

import jaxdc as jdc


@dataclasses.dataclass
class Settings:
    depth: int


@jdc.jit
def forward(x: jax.Array, settings: jdc.Static[Settings]) -> jax.Array:  # E: pyright reportInvalidTypeForm  # E: mypy jaxdc-static
    return x * settings.depth


forward(jnp.ones(2), Settings(2))  # runtime: raises TypeError
