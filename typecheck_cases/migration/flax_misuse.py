"""flax.struct API: what the runtime warns about on the migration line, checkers report.

The classes are made inside a function: on the migration line the runtime accepts them
with a `jaxdc.MigrationWarning` (tested with the runtime); this case is about the checkers.
"""

from collections.abc import Callable

import jax

from jaxdc.compat import flax_struct as struct


def migrated() -> None:
    @struct.dataclass
    class EnvParams:
        layout: dict[str, int] = struct.field(pytree_node=False)  # E: mypy-plugin jaxdc-static: static field 'layout' of class 'EnvParams' has unhashable type 'dict[str, int]': 'dict' is mutable and not hashable. Static values are part of the treedef and used as jit cache keys, so they must be hashable. Fix: use an immutable type such as tuple[...] or frozenset[...], or make 'layout' a data field.
        grid: jax.Array = struct.field(pytree_node=False)  # E: mypy-plugin jaxdc-static: static field 'grid' of class 'EnvParams' has unhashable type 'jax.Array': arrays are not hashable. Static values are part of the treedef and used as jit cache keys, so they must be hashable. Fix: make 'grid' a data field (drop Static[...] / static=True).
        reward_fn: Callable[[jax.Array], jax.Array]  # E: mypy-plugin jaxdc-data: data field 'reward_fn' of class 'EnvParams' has type 'Callable[[Array], Array]', which is not array-like: a callable is not an array. Data fields are pytree children that JAX traces as arrays. Fix: declare it Static[Callable[[Array], Array]] (functions are hashable).
        w: jax.Array

    class TrainState(struct.PyTreeNode):
        apply_fn: Callable[[jax.Array], jax.Array]  # E: mypy-plugin jaxdc-data: data field 'apply_fn' of class 'TrainState' has type 'Callable[[Array], Array]', which is not array-like: a callable is not an array. Data fields are pytree children that JAX traces as arrays. Fix: declare it Static[Callable[[Array], Array]] (functions are hashable).
        tags: list[str] = struct.field(False, default_factory=list)  # E: mypy-plugin jaxdc-static: static field 'tags' of class 'TrainState' has unhashable type 'list[str]': 'list' is mutable and not hashable. Static values are part of the treedef and used as jit cache keys, so they must be hashable. Fix: use an immutable type such as tuple[...] or frozenset[...], or make 'tags' a data field.

    del EnvParams, TrainState
