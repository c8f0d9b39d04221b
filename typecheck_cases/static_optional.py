"""Static[...] rejects an Optional of an unhashable type: `Optional[list[int]]`."""

from typing import Optional

from jaxdc import Static, pytree_dataclass


@pytree_dataclass  # runtime: raises TypeError
class Model:
    config: Static[Optional[list[int]]]  # E: pyright reportInvalidTypeForm  # E: mypy type-var  # E: mypy jaxdc-static
