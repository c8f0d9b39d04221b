"""An import cycle (other half): each module's classes use the other's types."""

import jax
from jaxdc import PyTreeNode, Static

from . import cycle_a


class Tag:
    def __eq__(self, other: object) -> bool:
        return True


class Partner(PyTreeNode):  # runtime: raises TypeError
    owner: "cycle_a.Owner"
    mark: Static[cycle_a.Mark]  # E: pyright,basedpyright reportInvalidTypeForm  # E: ty invalid-type-arguments  # E: mypy-plugin jaxdc-static: static field 'mark' of class 'Partner' has unhashable type 'Mark': 'Mark' defines __eq__ but not __hash__. Static values are part of the treedef and used as jit cache keys, so they must be hashable. Fix: define __hash__ on 'Mark'.
    w: jax.Array
