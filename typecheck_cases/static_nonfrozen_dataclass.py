"""Static[...] rejects a non-frozen dataclass: `Settings`."""

import dataclasses

from jaxdc import Static, pytree_dataclass


@dataclasses.dataclass
class Settings:
    depth: int


@pytree_dataclass  # runtime: raises TypeError
class Model:
    config: Static[Settings]  # E: pyright reportInvalidTypeForm  # E: mypy jaxdc-static
