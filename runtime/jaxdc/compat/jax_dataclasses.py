"""`jax_dataclasses` on jaxdc: the migration line for its users.

    import jaxdc.compat.jax_dataclasses as jdc   # was: import jax_dataclasses as jdc

Every public name of jax_dataclasses 1.6.3 (`pytree_dataclass`, `Static`, `field`,
`static_field`, `copy_and_mutate`, `jit`, `replace`, `EnforcedAnnotationsMixin`, `asdict`,
`astuple`, `fields`, `is_dataclass`). `pytree_dataclass` makes jaxdc classes on the
migration path: every class and value jax_dataclasses accepts is accepted, and what
`jaxdc.pytree_dataclass` rejects (an unhashable static type or value, arrays in static
fields) warns once per class and field with `jaxdc.MigrationWarning`, naming the fix
(docs/migrating.md). The other names are jaxdc's own. `import jaxdc as jdc` is the strict
path the fixes lead to. Never imports jax_dataclasses.
"""

from __future__ import annotations

from dataclasses import asdict, astuple, fields, is_dataclass
from typing import Any

from jaxdc._annotations import caller_scope
from jaxdc._copy_and_mutate import copy_and_mutate
from jaxdc._dataclass import check_options, process
from jaxdc._field import field, static_field
from jaxdc._jit import jit
from jaxdc._replace import replace
from jaxdc._shapes import EnforcedAnnotationsMixin
from jaxdc._static import Static

__all__ = [
    "EnforcedAnnotationsMixin",
    "Static",
    "asdict",
    "astuple",
    "copy_and_mutate",
    "field",
    "fields",
    "is_dataclass",
    "jit",
    "pytree_dataclass",
    "replace",
    "static_field",
]

_WHERE = "jaxdc.compat.jax_dataclasses.pytree_dataclass"


def pytree_dataclass(cls: Any = None, /, **options: Any) -> Any:
    """`jax_dataclasses.pytree_dataclass` (bare or with dataclass options) on the migration
    path."""
    check_options(options, _WHERE, lenient=True)
    if cls is None:
        return lambda klass: _decorate(klass, options)
    return _decorate(cls, options)


def _decorate(cls: Any, options: dict[str, Any]) -> Any:
    return process(cls, options, caller_scope(), _WHERE, lenient=True)
