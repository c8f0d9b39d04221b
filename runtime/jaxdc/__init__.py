"""jaxdc: typed JAX pytree dataclasses whose misuse is caught before tracing.

import jaxdc as jdc

@jdc.pytree_dataclass
class State:
    params: jax.Array
    step: jax.Array
    name: jdc.Static[str]   # static: part of the treedef, must be hashable
"""

from dataclasses import asdict, astuple, fields, is_dataclass

from _jaxdc_rules import __version__ as __version__  # the one place the version is written

from jaxdc._copy_and_mutate import copy_and_mutate
from jaxdc._dataclass import PytreeDataclassDecorator, pytree_dataclass
from jaxdc._field import field, static_field
from jaxdc._jit import jit
from jaxdc._mutation import Attr, attr
from jaxdc._node import PyTreeNode
from jaxdc._policy import MigrationWarning, apply_warning_options
from jaxdc._replace import replace
from jaxdc._serialization import from_state_dict, to_state_dict
from jaxdc._shapes import EnforcedAnnotationsMixin, ShapeError, dims
from jaxdc._static import Static

__all__ = [
    "Attr",
    "EnforcedAnnotationsMixin",
    "MigrationWarning",
    "PyTreeNode",
    "PytreeDataclassDecorator",
    "ShapeError",
    "Static",
    "asdict",
    "astuple",
    "attr",
    "copy_and_mutate",
    "dims",
    "field",
    "fields",
    "from_state_dict",
    "is_dataclass",
    "jit",
    "pytree_dataclass",
    "replace",
    "static_field",
    "to_state_dict",
]

apply_warning_options()  # `python -W error::jaxdc.MigrationWarning`, which Python skips
