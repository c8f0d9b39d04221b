"""chex.dataclass API: a field holding another chex class (a pytree) is data, as in jaxmarl."""

from typing import TYPE_CHECKING, Optional

import jax
import jax.numpy as jnp

import jaxdc
from jaxdc.compat import chex_dataclass as chex
from jaxdc.compat import flax_struct as struct

from .chex_parts import Position

if TYPE_CHECKING:
    from .chex_parts import Velocity


@chex.dataclass
class Agent:
    pos: Position
    vel: Optional["Velocity"] = None


@chex.dataclass(frozen=True)
class World:
    agent: Agent
    agents: tuple[Agent, ...]
    later: Optional["Goal"]
    step: jax.Array


@chex.dataclass
class Goal:
    at: Position


@struct.dataclass
class EnvState:  # jaxmarl mixes the two libraries
    world: World
    goal: Goal


class Runner(jaxdc.PyTreeNode):
    env: EnvState
    agent: Agent


agent = Agent(pos=Position(xy=jnp.zeros(2)))
world = World(agent=agent, agents=(agent,), later=None, step=jnp.zeros(()))
moved: Agent = jaxdc.replace(agent, pos=Position(xy=jnp.ones(2)))
runner = Runner(EnvState(world, Goal(at=agent.pos)), agent)
