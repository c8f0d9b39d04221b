"""Static[...] rejects a class defining __eq__ without __hash__: `Tag`."""

from jaxdc import Static, pytree_dataclass


class Tag:
    def __eq__(self, other: object) -> bool:
        return isinstance(other, Tag)


@pytree_dataclass  # runtime: raises TypeError
class Model:
    config: Static[Tag]  # E: pyright reportInvalidTypeForm  # E: mypy jaxdc-static
