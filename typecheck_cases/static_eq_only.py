# runtime: raises TypeError
"""Static[...] rejects a class defining __eq__ without __hash__: `Tag`."""

from jaxdc import Static, pytree_dataclass


class Tag:
    def __eq__(self, other: object) -> bool:
        return isinstance(other, Tag)


@pytree_dataclass
class Model:
    config: Static[Tag]  # E: pyright reportInvalidTypeForm  # E: mypy jaxdc-static
