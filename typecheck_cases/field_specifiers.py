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
    bad: int = field(default="zero")  # E: pyright,basedpyright reportAssignmentType  # E: ty invalid-assignment  # E: pyrefly bad-assignment  # E: zuban arg-type  # E: mypy,mypy-plugin assignment
    bad_factory: str = field(default_factory=list)  # E: pyright,basedpyright reportAssignmentType  # E: ty no-matching-overload  # E: pyrefly bad-assignment  # E: zuban arg-type  # E: mypy,mypy-plugin assignment  # E: mypy-plugin jaxdc-data: data field 'bad_factory' of class 'Model' has type 'str', which is not array-like: 'str' is not an array type. Data fields are pytree children that JAX traces as arrays. Fix: declare it Static[str] if it is configuration.


model = Model(jnp.zeros(2))
assert_type(model.sizes, tuple[int, ...])
Model(jnp.zeros(2), step=1)  # E: pyright,basedpyright reportCallIssue  # E: ty unknown-argument  # E: pyrefly unexpected-keyword  # E: zuban,mypy,mypy-plugin call-arg  # runtime: raises TypeError
