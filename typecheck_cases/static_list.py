"""Static[...] rejects a list: `list[int]`."""

from jaxdc import Static, pytree_dataclass


@pytree_dataclass  # runtime: raises TypeError
class Model:
    config: Static[list[int]]  # E: pyright reportInvalidTypeForm  # E: mypy type-var  # E: mypy jaxdc-static
