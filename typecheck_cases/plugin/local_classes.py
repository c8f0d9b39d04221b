"""PyTreeNode subclasses defined in functions and methods are checked like module-level ones."""

import jax

import jaxdc


class Outer(jaxdc.PyTreeNode):
    w: jax.Array

    def make(self) -> jaxdc.PyTreeNode:
        class InMethod(jaxdc.PyTreeNode):
            label: str  # E: mypy-plugin jaxdc-data: data field 'label' of class 'InMethod' has type 'str', which is not array-like: 'str' is not an array type. Data fields are pytree children that JAX traces as arrays. Fix: declare it Static[str] if it is configuration.

        return InMethod("x")


def factory() -> jaxdc.PyTreeNode:
    def inner() -> jaxdc.PyTreeNode:
        class Nested(jaxdc.PyTreeNode):
            name: str  # E: mypy-plugin jaxdc-data: data field 'name' of class 'Nested' has type 'str', which is not array-like: 'str' is not an array type. Data fields are pytree children that JAX traces as arrays. Fix: declare it Static[str] if it is configuration.

        return Nested("n")

    class InFunction(jaxdc.PyTreeNode):
        w: jax.Array
        sizes: jaxdc.Static[int]

    return inner()


factory()
