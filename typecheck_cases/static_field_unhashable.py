"""field(static=True) with an unhashable type (no Static[...] for the checkers to see)."""

import jax

from jaxdc import field, pytree_dataclass, static_field


@pytree_dataclass  # runtime: raises TypeError
class Model:
    w: jax.Array
    sizes: list[int] = field(static=True, default_factory=list)  # E: mypy jaxdc-static
    names: list[str] = static_field(default_factory=list)  # E: mypy jaxdc-static
