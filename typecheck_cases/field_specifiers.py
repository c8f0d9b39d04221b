"""field(): defaults are checked against the annotation; pytree=False and init=False."""

import jax
import jax.numpy as jnp
from typing_extensions import assert_type

from jaxdc import field, pytree_dataclass, static_field


@pytree_dataclass
class Model:
    w: jax.Array
    sizes: tuple[int, ...] = field(static=True, default=(1, 2))
    names: tuple[str, ...] = static_field(default_factory=tuple)
    cache: dict[str, int] = field(pytree=False, default_factory=dict)
    step: int = field(init=False, default=0)
    bad: int = field(default="zero")  # E: pyright reportAssignmentType  # E: mypy assignment
    bad_factory: str = field(default_factory=list)  # E: pyright reportAssignmentType  # E: mypy assignment  # E: mypy jaxdc-data


model = Model(jnp.zeros(2))
assert_type(model.sizes, tuple[int, ...])
Model(jnp.zeros(2), step=1)  # E: pyright reportCallIssue  # E: mypy call-arg  # runtime: raises TypeError
