"""@dataclasses.dataclass stacked with jaxdc, in either order or on a PyTreeNode subclass, is reported."""

import dataclasses

import jax
from jaxdc import PyTreeNode, pytree_dataclass


@pytree_dataclass  # runtime: raises TypeError
@dataclasses.dataclass(frozen=True)  # E: mypy-plugin jaxdc-decorator: class 'Under' is decorated with @jaxdc.pytree_dataclass and with @dataclasses.dataclass; jaxdc makes the class a frozen dataclass itself, and dataclasses cannot process a class twice. Fix: drop @dataclass (pass any dataclass options as @jaxdc.pytree_dataclass(...)).
class Under:
    x: jax.Array


@dataclasses.dataclass(frozen=True)  # E: mypy-plugin jaxdc-decorator: class 'Over' is decorated with @jaxdc.pytree_dataclass and with @dataclasses.dataclass; jaxdc makes the class a frozen dataclass itself, and dataclasses cannot process a class twice. Fix: drop @dataclass (pass any dataclass options as @jaxdc.pytree_dataclass(...)).
@pytree_dataclass
class Over:
    x: jax.Array


@dataclasses.dataclass(frozen=True)  # E: mypy-plugin jaxdc-decorator: class 'Node' subclasses jaxdc.PyTreeNode and with @dataclasses.dataclass; jaxdc makes the class a frozen dataclass itself, and dataclasses cannot process a class twice. Fix: drop @dataclass (pass any dataclass options as class keywords).
class Node(PyTreeNode):
    x: jax.Array
