"""Static[...] rejects a dict: `dict[str, int]`."""

from jaxdc import Static, pytree_dataclass


@pytree_dataclass  # runtime: raises TypeError
class Model:
    config: Static[dict[str, int]]  # E: pyright reportInvalidTypeForm  # E: mypy type-var  # E: mypy jaxdc-static
