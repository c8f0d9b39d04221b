"""replace: unknown keywords and wrong value types (the plugin derives replace's signature; from 3.13 each checker with `__replace__` too)."""

import jax
import jax.numpy as jnp
import jaxdc
from jaxdc import PyTreeNode, Static, field, pytree_dataclass
from typing_extensions import Self


@pytree_dataclass
class State:
    params: jax.Array
    step: Static[int] = 0
    cache: int = field(pytree=False, default=0)  # replace refuses it: it would revert


class Node(PyTreeNode):
    value: jax.Array


state = State(jnp.zeros(3))
jaxdc.replace(state, parms=jnp.ones(3))  # E: pyright@3.13,basedpyright@3.13 reportCallIssue  # E: ty@3.13 unknown-argument  # E: pyrefly@3.13 unexpected-keyword  # E: mypy@3.13,mypy-plugin call-arg  # runtime: raises TypeError
jaxdc.replace(state, step="one")  # E: pyright@3.13,basedpyright@3.13 reportArgumentType  # E: ty@3.13 invalid-argument-type  # E: pyrefly@3.13 bad-argument-type  # E: mypy@3.13,mypy-plugin arg-type
jaxdc.replace(state, cache=1)  # E: mypy-plugin call-arg
Node(jnp.zeros(2)).replace(valu=jnp.ones(2))  # E: pyright@3.13,basedpyright@3.13 reportCallIssue  # E: ty@3.13 unknown-argument  # E: pyrefly@3.13 unexpected-keyword  # E: mypy@3.13,mypy-plugin call-arg
Node(jnp.zeros(2)).replace(value="x")  # E: pyright@3.13,basedpyright@3.13 reportArgumentType  # E: ty@3.13 invalid-argument-type  # E: pyrefly@3.13 bad-argument-type  # E: mypy@3.13,mypy-plugin arg-type


class Counter(PyTreeNode):
    count: jax.Array

    def bump(self) -> Self:
        return self.replace(cont=self.count + 1)  # E: pyright@3.13,basedpyright@3.13 reportCallIssue  # E: pyrefly@3.13 unexpected-keyword  # E: mypy@3.13,mypy-plugin@3.13 call-arg  # E: mypy@3.13 return-value

    def reset(self) -> Self:
        return jaxdc.replace(self, count="0")  # E: pyright@3.13,basedpyright@3.13 reportArgumentType  # E: pyrefly@3.13 bad-argument-type  # E: mypy@3.13,mypy-plugin arg-type  # E: mypy@3.13 return-value
