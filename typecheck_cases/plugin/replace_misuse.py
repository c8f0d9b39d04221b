"""replace: unknown keywords and wrong value types (the plugin derives replace's signature)."""

import jax
import jax.numpy as jnp
import jaxdc
from jaxdc import PyTreeNode, Static, field, pytree_dataclass


@pytree_dataclass
class State:
    params: jax.Array
    step: Static[int] = 0
    cache: int = field(pytree=False, default=0)  # replace refuses it: it would revert


class Node(PyTreeNode):
    value: jax.Array


state = State(jnp.zeros(3))
jaxdc.replace(state, parms=jnp.ones(3))  # E: mypy-plugin call-arg  # runtime: raises TypeError
jaxdc.replace(state, step="one")  # E: mypy-plugin arg-type
jaxdc.replace(state, cache=1)  # E: mypy-plugin call-arg
Node(jnp.zeros(2)).replace(valu=jnp.ones(2))  # E: mypy-plugin call-arg
Node(jnp.zeros(2)).replace(value="x")  # E: mypy-plugin arg-type
