"""`weakref_slot=True` (Python 3.11+) is a decorator option, as in dataclasses and flax.struct."""

import sys
import weakref

import jax
import jax.numpy as jnp

import jaxdc
from jaxdc.compat import flax_struct as struct

if sys.version_info >= (3, 11):

    @jaxdc.pytree_dataclass(slots=True, weakref_slot=True)
    class Params:
        w: jax.Array
        name: jaxdc.Static[str] = "p"

    @struct.dataclass(slots=True, weakref_slot=True)
    class Env:
        pos: jax.Array

    params = Params(jnp.zeros(2))
    moved: Params = jaxdc.replace(params, w=params.w + 1)
    ref: weakref.ref[Params] = weakref.ref(moved)
    env: Env = jaxdc.replace(Env(jnp.ones(2)), pos=jnp.zeros(2))
    width: int = moved.w.shape[0] + env.pos.shape[0]
