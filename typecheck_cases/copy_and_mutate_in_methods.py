"""copy_and_mutate in methods (on self, returning Self) and a block rebinding the original's name: clean."""

import jax
import jax.numpy as jnp
from typing_extensions import Self

import jaxdc as jdc


@jdc.pytree_dataclass
class State:
    step: jax.Array

    def bump(self) -> Self:
        with jdc.copy_and_mutate(self) as new:
            new.step = new.step + 1
        return new


class Node(jdc.PyTreeNode):
    w: jax.Array

    def grow(self) -> "Node":
        with jdc.copy_and_mutate(self) as state:
            state.w = state.w * 2
        return state


state = State(jnp.zeros(()))
with jdc.copy_and_mutate(state) as state:
    state.step = state.step + 1
assert float(state.bump().step) == 2.0
assert float(Node(jnp.ones(2)).grow().w.sum()) == 4.0
