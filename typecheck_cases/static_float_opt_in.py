"""Float and complex statics, reported with the plugin's opt-in `warn_float_statics`."""

# jaxdc-mypy: warn_float_statics = true

import dataclasses
from typing import Optional

import jax
import jax.numpy as jnp

import jaxdc
from jaxdc import Static, field, static_field
from jaxdc.compat import flax_struct as struct


@jaxdc.pytree_dataclass
class Opt:
    w: jax.Array
    lr: Static[float]  # E: mypy-plugin jaxdc-float-static: static field 'lr' of class 'Opt' has type 'float': a float static recompiles on every new value (each value is a new jit cache key, so jit traces and compiles again). Fix: make 'lr' a data field: jax.Array.
    phase: Static[complex]  # E: mypy-plugin jaxdc-float-static: static field 'phase' of class 'Opt' has type 'complex': a complex static recompiles on every new value (each value is a new jit cache key, so jit traces and compiles again). Fix: make 'phase' a data field: jax.Array.
    decay: Static[Optional[float]] = None  # E: mypy-plugin jaxdc-float-static: static field 'decay' of class 'Opt' has type 'float | None': a float static recompiles on every new value (each value is a new jit cache key, so jit traces and compiles again). Fix: make 'decay' a data field: jax.Array.
    steps: Static[int] = 1
    scale: float = 1.0  # data: traced, no recompile


class Schedule(jaxdc.PyTreeNode):
    warmup: float = static_field(default=0.1)  # E: mypy-plugin jaxdc-float-static: static field 'warmup' of class 'Schedule' has type 'float': a float static recompiles on every new value (each value is a new jit cache key, so jit traces and compiles again). Fix: make 'warmup' a data field: jax.Array.
    floor: float = field(static=True, default=0.0)  # E: mypy-plugin jaxdc-float-static: static field 'floor' of class 'Schedule' has type 'float': a float static recompiles on every new value (each value is a new jit cache key, so jit traces and compiles again). Fix: make 'floor' a data field: jax.Array.
    peak: float = dataclasses.field(default=1.0, metadata={"static": True})  # E: mypy-plugin jaxdc-float-static: static field 'peak' of class 'Schedule' has type 'float': a float static recompiles on every new value (each value is a new jit cache key, so jit traces and compiles again). Fix: make 'peak' a data field: jax.Array.
    name: str = static_field(default="cosine")


@struct.dataclass
class FlaxOpt:
    momentum: float = struct.field(pytree_node=False, default=0.9)  # E: mypy-plugin jaxdc-float-static: static field 'momentum' of class 'FlaxOpt' has type 'float': a float static recompiles on every new value (each value is a new jit cache key, so jit traces and compiles again). Fix: make 'momentum' a data field: jax.Array.


@jaxdc.jit
def step(opt: Opt, lr: Static[float], n: Static[int]) -> jax.Array:  # E: mypy-plugin jaxdc-float-static: static parameter 'lr' of jitted function 'step' has type 'float': a float static recompiles on every new value (each value is a new jit cache key, so jit traces and compiles again). Fix: make 'lr' a data parameter (drop Static[...]) and pass a jax.Array.
    return opt.w * lr * n


step(Opt(jnp.ones(2), 0.1, 1j), 0.2, 3)
Schedule()
FlaxOpt()
