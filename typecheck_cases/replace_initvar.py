"""replace passes InitVars to __post_init__ again: one without a default must be given, and of its type."""

import dataclasses

import jax
import jax.numpy as jnp

import jaxdc


@jaxdc.pytree_dataclass
class Scaled:
    x: jax.Array
    factor: dataclasses.InitVar[float]

    def __post_init__(self, factor: float) -> None:
        jaxdc.attr(self, lambda s: s.x).set(self.x * float(factor))


scaled = Scaled(jnp.ones(2), 2.0)
rescaled = jaxdc.replace(scaled, x=jnp.ones(2), factor=3.0)
jaxdc.replace(scaled, factor="3")  # E: pyright@3.13,basedpyright@3.13 reportArgumentType  # E: ty@3.13 invalid-argument-type  # E: pyrefly@3.13 bad-argument-type  # E: mypy@3.13,mypy-plugin arg-type
jaxdc.replace(scaled, x=jnp.ones(2))  # E: pyrefly@3.13 missing-argument  # E: mypy@3.13,mypy-plugin call-arg  # runtime: raises ValueError
