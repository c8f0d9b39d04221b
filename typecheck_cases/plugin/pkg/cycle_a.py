"""An import cycle (this half): each module's classes use the other's types."""

from __future__ import annotations

from typing import TYPE_CHECKING

import jax
from jaxdc import Static, pytree_dataclass

if TYPE_CHECKING:
    from .cycle_b import Partner, Tag


class Mark:
    def __eq__(self, other: object) -> bool:
        return True


@pytree_dataclass
class Owner:
    tag: Static[Tag]  # E: pyright,basedpyright reportInvalidTypeForm  # E: ty invalid-type-arguments  # E: mypy-plugin jaxdc-static: static field 'tag' of class 'Owner' has unhashable type 'Tag': 'Tag' defines __eq__ but not __hash__. Static values are part of the treedef and used as jit cache keys, so they must be hashable. Fix: define __hash__ on 'Tag'.
    partner: Partner
    w: jax.Array
