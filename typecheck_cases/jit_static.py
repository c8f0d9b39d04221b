"""jit: Static parameters; the wrapped signature is kept for calls and `.lower`."""

import functools

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


def shift(model: Model, by: int) -> Model:
    return model.replace(w=model.w + by)


shifted = jaxdc.jit(shift, static_argnames="by", donate_argnums=0)  # options with the function


class Scaled(PyTreeNode):
    w: jax.Array

    @functools.partial(jaxdc.jit, static_argnames=("mode",))  # jax.jit's partial idiom
    def apply(self, x: jax.Array, mode: str = "mul") -> jax.Array:
        return self.w * x if mode == "mul" else self.w + x


model = Model(jnp.ones(2))
assert_type(shifted(Model(jnp.ones(2)), 2), Model)
Scaled(jnp.ones(2)).apply(jnp.ones(2), mode="add")
assert_type(scale(model, 2), Model)
assert_type(model.apply(jnp.ones(2)), jax.Array)
scale.lower(model, 3)
step(Model(jnp.ones(2)), 0.1)  # donates its argument
scale(model, 2.5)  # E: pyright,basedpyright reportArgumentType  # E: ty invalid-argument-type  # E: pyrefly bad-argument-type  # E: zuban,mypy,mypy-plugin arg-type
scale(model)  # E: pyright,basedpyright reportCallIssue  # E: ty,pyrefly missing-argument  # E: zuban,mypy,mypy-plugin call-arg  # runtime: raises TypeError
model.apply("x")  # E: pyright,basedpyright reportArgumentType  # E: ty invalid-argument-type  # E: pyrefly bad-argument-type  # E: zuban,mypy,mypy-plugin arg-type
scale.lower(model, "3")  # E: pyright,basedpyright reportArgumentType  # E: ty invalid-argument-type  # E: pyrefly bad-argument-type  # E: zuban,mypy,mypy-plugin arg-type
