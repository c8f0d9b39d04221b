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
        jaxdc.attr(self, lambda s: s.name).set(n)  # E: pyright,basedpyright reportArgumentType  # E: ty invalid-argument-type  # E: pyrefly bad-argument-type  # E: zuban,mypy,mypy-plugin arg-type
        jaxdc.attr(self, lambda s: s.nmae).set("x")  # E: pyright,basedpyright reportAttributeAccessIssue  # E: ty,pyrefly missing-attribute  # E: zuban,mypy,mypy-plugin attr-defined  # runtime: raises TypeError
        jaxdc.attr(self, lambda s: s.name).set("linear")
        out = jaxdc.attr(self, lambda s: s.w).set(jnp.ones(n))  # E: zuban,mypy,mypy-plugin func-returns-value
        jaxdc.attr(self, lambda s: len(s.name))  # E: mypy-plugin jaxdc-mutation: jaxdc.attr() expects a function returning an attribute path of its argument, such as `lambda o: o.a.b` or `lambda o: o.layers[0].w`


Linear(2)
