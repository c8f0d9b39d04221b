"""Types JAX registers by decorator (register_static, register_dataclass, ...) are valid data fields."""

import dataclasses

import jax
import jax.numpy as jnp

import jaxdc as jdc


@jax.tree_util.register_static
class Mode(str):
    pass


@jax.tree_util.register_dataclass
@dataclasses.dataclass(frozen=True)
class Inner:
    y: jax.Array
    name: str = dataclasses.field(default="inner", metadata={"static": True})


@jax.tree_util.register_pytree_node_class
class Pair:
    def __init__(self, a: jax.Array, b: jax.Array) -> None:
        self.a, self.b = a, b

    def tree_flatten(self) -> tuple[tuple[jax.Array, jax.Array], None]:
        return (self.a, self.b), None

    @classmethod
    def tree_unflatten(cls, aux: None, children: tuple[jax.Array, jax.Array]) -> "Pair":
        return cls(*children)


class Plain:
    pass


@jdc.pytree_dataclass
class Op:
    x: jax.Array
    mode: Mode
    inner: Inner
    pair: Pair


@jdc.pytree_dataclass
class Loose:
    plain: Plain  # E: mypy-plugin jaxdc-data: data field 'plain' of class 'Loose' has type 'Plain', which is not array-like: 'Plain' is not an array type or a pytree class. Data fields are pytree children that JAX traces as arrays. Fix: declare it Static[Plain] if it is configuration, or list 'Plain' under extra_pytree_bases or extra_array_types in [tool.jaxdc-mypy] if JAX can trace it.


op = Op(jnp.ones(2), Mode("add"), Inner(jnp.ones(1)), Pair(jnp.ones(1), jnp.zeros(1)))
assert jax.tree.leaves(op.mode) == [] and len(jax.tree.leaves(op)) == 4
assert jax.jit(lambda o: o)(op).mode == "add"
