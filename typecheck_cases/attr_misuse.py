"""jaxdc.attr: unknown attributes and wrong value types are caught; non-paths raise."""

import jax
import jax.numpy as jnp

import jaxdc
from jaxdc import Static, pytree_dataclass


@pytree_dataclass
class Linear:
    w: jax.Array
    name: Static[str]

    def __init__(self, n: int) -> None:
        jaxdc.attr(self, lambda s: s.w).set(jnp.zeros(n))
        jaxdc.attr(self, lambda s: s.name).set(n)  # E: pyright reportArgumentType  # E: mypy arg-type
        jaxdc.attr(self, lambda s: s.nmae).set("x")  # E: pyright reportAttributeAccessIssue  # E: mypy attr-defined
        jaxdc.attr(self, lambda s: s.name).set("linear")
        out = jaxdc.attr(self, lambda s: s.w).set(jnp.ones(n))  # E: mypy func-returns-value
        jaxdc.attr(self, lambda s: len(s.name))  # E: mypy jaxdc-mutation  # runtime: raises TypeError


Linear(2)
