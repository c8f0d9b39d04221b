"""PyTreeNode.replace: a misspelt or mistyped keyword (the plugin; from 3.13 each checker with `__replace__`)."""

import jax
import jax.numpy as jnp

from jaxdc import PyTreeNode, Static


class Layer(PyTreeNode):
    w: jax.Array
    width: Static[int] = 4


layer = Layer(jnp.zeros(3))
layer.replace(widht=8)  # E: pyright@3.13,basedpyright@3.13 reportCallIssue  # E: ty@3.13 unknown-argument  # E: pyrefly@3.13 unexpected-keyword  # E: mypy@3.13,mypy-plugin call-arg  # runtime: raises TypeError
layer.replace(width="8")  # E: pyright@3.13,basedpyright@3.13 reportArgumentType  # E: ty@3.13 invalid-argument-type  # E: pyrefly@3.13 bad-argument-type  # E: mypy@3.13,mypy-plugin arg-type
