"""jax_dataclasses API: what the runtime warns about on the migration line, checkers report.

The runtime accepts these classes on the migration line: each unhashable static gets one
`jaxdc.MigrationWarning` in the same words (`-W error::jaxdc.MigrationWarning` makes the line
strict); a function in a data field is the runtime's to report once a value reaches jit.
"""

from collections.abc import Callable

import jax
import jax.numpy as jnp

import jaxdc.compat.jax_dataclasses as jdc


@jdc.pytree_dataclass
class Params:
    w: jax.Array
    depth: jdc.Static[int]


@jdc.jit
def scale(p: Params, k: jdc.Static[int]) -> jax.Array:
    return p.w * k * p.depth


params = Params(jnp.ones(2), 2)
moved: Params = jdc.replace(params, w=jnp.zeros(2))
with jdc.copy_and_mutate(params) as edited:
    edited.w = jnp.ones(2)
scale(params, 3)


@jdc.pytree_dataclass
class Config:
    sizes: jdc.Static[list[int]]  # E: pyright,basedpyright reportInvalidTypeForm  # E: ty invalid-type-arguments  # E: pyrefly bad-specialization  # E: zuban,mypy type-var  # E: mypy-plugin jaxdc-static: static field 'sizes' of class 'Config' has unhashable type 'list[int]': 'list' is mutable and not hashable. Static values are part of the treedef and used as jit cache keys, so they must be hashable. Fix: use an immutable type such as tuple[...] or frozenset[...], or make 'sizes' a data field.
    table: jdc.Static[jax.Array]  # E: pyright,basedpyright reportInvalidTypeForm  # E: ty invalid-type-arguments  # E: pyrefly bad-specialization  # E: zuban,mypy type-var  # E: mypy-plugin jaxdc-static: static field 'table' of class 'Config' has unhashable type 'jax.Array': arrays are not hashable. Static values are part of the treedef and used as jit cache keys, so they must be hashable. Fix: make 'table' a data field (drop Static[...] / static=True).
    act: Callable[[jax.Array], jax.Array]  # E: mypy-plugin jaxdc-data: data field 'act' of class 'Config' has type 'Callable[[Array], Array]', which is not array-like: a callable is not an array. Data fields are pytree children that JAX traces as arrays. Fix: declare it Static[Callable[[Array], Array]] (functions are hashable).
    names: list[str] = jdc.static_field(default_factory=list)  # E: mypy-plugin jaxdc-static: static field 'names' of class 'Config' has unhashable type 'list[str]': 'list' is mutable and not hashable. Static values are part of the treedef and used as jit cache keys, so they must be hashable. Fix: use an immutable type such as tuple[...] or frozenset[...], or make 'names' a data field.

@jdc.pytree_dataclass(kw_only=True)
class Keyed:
    by_name: dict[str, int] = jdc.field(static=True)  # E: mypy-plugin jaxdc-static: static field 'by_name' of class 'Keyed' has unhashable type 'dict[str, int]': 'dict' is mutable and not hashable. Static values are part of the treedef and used as jit cache keys, so they must be hashable. Fix: use an immutable type such as tuple[...] or frozenset[...], or make 'by_name' a data field.
