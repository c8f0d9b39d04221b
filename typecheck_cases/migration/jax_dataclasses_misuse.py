"""jax_dataclasses' migration line: what the runtime warns about, checkers report.

`import jaxdc.compat.jax_dataclasses as jdc` replaces `import jax_dataclasses as jdc`.

The class is made inside a function: on the migration line the runtime accepts it with a
`jaxdc.MigrationWarning` (tested with the runtime); this case is about the checkers, which
read the compat module's names as jaxdc's own.
"""

import jax

import jaxdc.compat.jax_dataclasses as jdc


def migrated() -> None:
    @jdc.pytree_dataclass
    class Config:
        layout: dict[str, int] = jdc.field(static=True)  # E: mypy-plugin jaxdc-static: static field 'layout' of class 'Config' has unhashable type 'dict[str, int]': 'dict' is mutable and not hashable. Static values are part of the treedef and used as jit cache keys, so they must be hashable. Fix: use an immutable type such as tuple[...] or frozenset[...], or make 'layout' a data field.
        w: jax.Array

    config = Config({"a": 1}, jax.numpy.zeros(2))
    moved = jdc.replace(config, w=config.w + 1)
    del moved
