"""flax.struct API: a class deriving from a `@struct.dataclass` class and `struct.PyTreeNode`."""

import jax
import jax.numpy as jnp

import jaxdc
from jaxdc.compat import flax_struct as struct


# As in flax's own tests (tests/struct_test.py): both bases declare `replace`.
@struct.dataclass
class Base:
    x: jax.Array


class Derived(Base, struct.PyTreeNode, kw_only=True):
    y: jax.Array


derived = Derived(x=jnp.ones(1), y=jnp.ones(2))
moved: Derived = derived.replace(y=jnp.zeros(2))
base: Base = jaxdc.replace(Base(jnp.ones(1)), x=jnp.zeros(1))


def misuse() -> None:
    derived.replace(y="far")  # E: pyright@3.13,basedpyright@3.13 reportArgumentType  # E: ty@3.13 invalid-argument-type  # E: pyrefly@3.13 bad-argument-type  # E: mypy@3.13,mypy-plugin arg-type
