"""Static[...] rejects a set: `set[int]`."""

from jaxdc import Static, pytree_dataclass


@pytree_dataclass  # runtime: raises TypeError
class Model:
    config: Static[set[int]]  # E: pyright reportInvalidTypeForm  # E: mypy type-var  # E: mypy jaxdc-static
