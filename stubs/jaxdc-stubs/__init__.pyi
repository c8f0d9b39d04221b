from dataclasses import (
    asdict as asdict,
    astuple as astuple,
    fields as fields,
    is_dataclass as is_dataclass,
)

from jaxdc._copy_and_mutate import copy_and_mutate as copy_and_mutate
from jaxdc._dataclass import (
    PytreeDataclassDecorator as PytreeDataclassDecorator,
    pytree_dataclass as pytree_dataclass,
)
from jaxdc._field import field as field, static_field as static_field
from jaxdc._jit import jit as jit
from jaxdc._mutation import Attr as Attr, attr as attr
from jaxdc._node import PyTreeNode as PyTreeNode
from jaxdc._policy import MigrationWarning as MigrationWarning
from jaxdc._replace import replace as replace
from jaxdc._serialization import from_state_dict as from_state_dict, to_state_dict as to_state_dict
from jaxdc._shapes import (
    EnforcedAnnotationsMixin as EnforcedAnnotationsMixin,
    ShapeError as ShapeError,
    dims as dims,
)
from jaxdc._static import Static as Static

__version__: str

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
