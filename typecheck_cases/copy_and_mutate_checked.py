"""copy_and_mutate: inside the block assignments are still checked; the original and the copy after the block stay frozen."""

import jax
import jax.numpy as jnp

import jaxdc
from jaxdc import Static, field, pytree_dataclass


@pytree_dataclass
class Inner:
    x: jax.Array


@pytree_dataclass
class Outer:
    inner: Inner
    name: Static[str] = "o"
    cache: int = field(pytree=False, default=0)


obj = Outer(Inner(jnp.zeros(2)))
with jaxdc.copy_and_mutate(obj) as new:
    new.inner.x = jnp.ones(2)
    new.name = 3  # E: mypy-plugin assignment
    new.nmae = "x"  # E: mypy-plugin attr-defined  # runtime: raises AttributeError
    new.cache = 1  # E: mypy-plugin jaxdc-mutation: cannot assign 'cache' in copy_and_mutate: class 'Outer' has no pytree field 'cache' (fields: inner, name, cache; fields left out of the pytree keep their defaults).
    obj.name = "original"  # E: pyright,basedpyright reportAttributeAccessIssue  # E: ty invalid-assignment  # E: pyrefly read-only  # E: zuban,mypy,mypy-plugin misc
new.name = "too late"  # E: mypy-plugin misc
