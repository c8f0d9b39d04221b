# The migration line for jax_dataclasses users: the names of `jaxdc` it stands for. To type
# checkers (and the mypy plugin) these are jaxdc's own, so they report from the first step.
from dataclasses import (
    asdict as asdict,
    astuple as astuple,
    fields as fields,
    is_dataclass as is_dataclass,
)

from jaxdc._copy_and_mutate import copy_and_mutate as copy_and_mutate
from jaxdc._dataclass import pytree_dataclass as pytree_dataclass
from jaxdc._field import field as field, static_field as static_field
from jaxdc._jit import jit as jit
from jaxdc._replace import replace as replace
from jaxdc._shapes import EnforcedAnnotationsMixin as EnforcedAnnotationsMixin
from jaxdc._static import Static as Static

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
