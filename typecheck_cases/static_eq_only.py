"""Static[...] rejects a class defining __eq__ without __hash__: `Tag`."""

from jaxdc import Static, pytree_dataclass


class Tag:
    def __eq__(self, other: object) -> bool:
        return isinstance(other, Tag)


@pytree_dataclass  # runtime: raises TypeError
class Model:
    config: Static[Tag]  # E: pyright,basedpyright reportInvalidTypeForm  # E: ty invalid-type-arguments  # E: mypy-plugin jaxdc-static: static field 'config' of class 'Model' has unhashable type 'Tag': 'Tag' defines __eq__ but not __hash__. Static values are part of the treedef and used as jit cache keys, so they must be hashable. Fix: define __hash__ on 'Tag'.
