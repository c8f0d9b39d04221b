"""PyTreeNode: subclassing decorates; class keywords and `.replace` are typed."""

import jax
import jax.numpy as jnp
from typing_extensions import assert_type

from jaxdc import PyTreeNode, Static, field


class Optimizer(PyTreeNode, kw_only=True):
    lr: float
    momentum: jax.Array = field(default_factory=lambda: jnp.zeros(3))
    name: Static[str] = "sgd"


class Adam(Optimizer):
    beta: float = 0.9


opt = Optimizer(lr=0.1)
assert_type(opt.replace(lr=0.2), Optimizer)
assert_type(Adam(lr=0.1, beta=0.8).replace(beta=0.7), Adam)
opt.lr = 0.3  # E: pyright,basedpyright reportAttributeAccessIssue  # E: ty invalid-assignment  # E: pyrefly read-only  # E: zuban,mypy,mypy-plugin misc  # runtime: raises FrozenInstanceError
Optimizer(0.1)  # E: pyright,basedpyright reportCallIssue  # E: ty missing-argument  # E: ty too-many-positional-arguments  # E: pyrefly unexpected-positional-argument  # E: zuban,mypy,mypy-plugin call-arg
