"""jax.tree.static() with an unhashable type (no Static[...] for the checkers to see)."""

import jax

from jaxdc import pytree_dataclass


@pytree_dataclass  # runtime: raises TypeError
class Model:
    w: jax.Array
    sizes: list[int] = jax.tree.static(default_factory=list)  # E: mypy-plugin jaxdc-static: static field 'sizes' of class 'Model' has unhashable type 'list[int]': 'list' is mutable and not hashable. Static values are part of the treedef and used as jit cache keys, so they must be hashable. Fix: use an immutable type such as tuple[...] or frozenset[...], or make 'sizes' a data field.
