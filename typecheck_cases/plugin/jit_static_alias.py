"""jit: a Static parameter written through an import alias (`jdc.Static`) is checked too."""

import dataclasses

import jax
import jax.numpy as jnp

import jaxdc as jdc


@dataclasses.dataclass
class Settings:
    depth: int


@jdc.jit
def forward(x: jax.Array, settings: jdc.Static[Settings]) -> jax.Array:  # E: pyright,basedpyright reportInvalidTypeForm  # E: ty invalid-type-arguments  # E: pyrefly bad-specialization  # E: zuban type-var  # E: mypy-plugin jaxdc-static: static parameter 'settings' of jitted function 'forward' has unhashable type 'Settings': dataclass 'Settings' is not frozen. Static arguments are used as jit cache keys, so they must be hashable. Fix: declare 'Settings' with @dataclass(frozen=True).
    return x * settings.depth


forward(jnp.ones(2), Settings(2))  # runtime: raises TypeError
