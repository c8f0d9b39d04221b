"""flax.struct API (`jaxdc.compat.flax_struct`): `field(pytree_node=False)` is static."""

from collections.abc import Callable

import jax
import jax.numpy as jnp

import jaxdc
from jaxdc.compat import flax_struct as struct


@struct.dataclass
class Env:
    pos: jax.Array
    step_fn: Callable[[jax.Array], jax.Array] = struct.field(pytree_node=False)
    label: str = struct.field(False, default="grid")
    title: str = jaxdc.field(pytree_node=False, default="env")
    vel: jax.Array = struct.field(default_factory=lambda: jnp.zeros(2))
    note: str = ""  # E: mypy-plugin jaxdc-data: data field 'note' of class 'Env' has type 'str', which is not array-like: 'str' is not an array type. Data fields are pytree children that JAX traces as arrays. Fix: declare it Static[str] if it is configuration.


@struct.dataclass(kw_only=True)
class Params:
    gain: jax.Array
    name: str = struct.field(pytree_node=False, default="p")
    tag: str = ""  # E: mypy-plugin jaxdc-data: data field 'tag' of class 'Params' has type 'str', which is not array-like: 'str' is not an array type. Data fields are pytree children that JAX traces as arrays. Fix: declare it Static[str] if it is configuration.


class Agent(struct.PyTreeNode):
    w: jax.Array
    env: Env
    params: Params
    lr: float = struct.field(pytree_node=False)
    mode: str = struct.field(pytree_node=False, default="train")


env = Env(jnp.ones(2), jnp.tanh)
agent = Agent(jnp.ones(3), env, Params(gain=jnp.ones(1)), 0.1)
moved: Agent = agent.replace(w=jnp.zeros(3), lr=0.2)
env2: Env = jaxdc.replace(env, label="maze")


def misuse() -> None:
    Agent(jnp.ones(3), env)  # E: pyright,basedpyright reportCallIssue  # E: ty missing-argument  # E: pyrefly missing-argument  # E: pyrefly missing-argument  # E: zuban,mypy,mypy-plugin call-arg
    agent.replace(lr="fast")  # E: pyright@3.13,basedpyright@3.13 reportArgumentType  # E: ty@3.13 invalid-argument-type  # E: pyrefly@3.13 bad-argument-type  # E: mypy@3.13,mypy-plugin arg-type


env.pos = jnp.zeros(2)  # E: pyright,basedpyright reportAttributeAccessIssue  # E: ty invalid-assignment  # E: pyrefly read-only  # E: zuban,mypy,mypy-plugin misc  # runtime: raises FrozenInstanceError
