"""Static[...] rejects a bytearray: `bytearray`."""

from jaxdc import Static, pytree_dataclass


@pytree_dataclass  # runtime: raises TypeError
class Model:
    config: Static[bytearray]  # E: pyright reportInvalidTypeForm  # E: mypy type-var  # E: mypy jaxdc-static
