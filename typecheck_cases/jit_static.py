"""jit: Static parameters; the wrapped signature is kept for calls and `.lower`."""

import jax
import jax.numpy as jnp
from typing_extensions import assert_type

import jaxdc
from jaxdc import PyTreeNode, Static


class Model(PyTreeNode):
    w: jax.Array

    @jaxdc.jit
    def apply(self, x: jax.Array) -> jax.Array:
        return self.w * x


@jaxdc.jit
def scale(model: Model, factor: Static[int]) -> Model:
    return model.replace(w=model.w * factor)


@jaxdc.jit(donate_argnums=0)
def step(model: Model, lr: float) -> Model:
    return model.replace(w=model.w - lr)


model = Model(jnp.ones(2))
assert_type(scale(model, 2), Model)
assert_type(model.apply(jnp.ones(2)), jax.Array)
scale.lower(model, 3)
step(Model(jnp.ones(2)), 0.1)  # donates its argument
scale(model, 2.5)  # E: pyright,basedpyright reportArgumentType  # E: ty invalid-argument-type  # E: pyrefly bad-argument-type  # E: zuban,mypy,mypy-plugin arg-type
scale(model)  # E: pyright,basedpyright reportCallIssue  # E: ty,pyrefly missing-argument  # E: zuban,mypy,mypy-plugin call-arg  # runtime: raises TypeError
model.apply("x")  # E: pyright,basedpyright reportArgumentType  # E: ty invalid-argument-type  # E: pyrefly bad-argument-type  # E: zuban,mypy,mypy-plugin arg-type
scale.lower(model, "3")  # E: pyright,basedpyright reportArgumentType  # E: ty invalid-argument-type  # E: pyrefly bad-argument-type  # E: zuban,mypy,mypy-plugin arg-type
