"""Static[...] rejects a non-frozen dataclass: `Settings`."""

import dataclasses

from jaxdc import Static, pytree_dataclass


@dataclasses.dataclass
class Settings:
    depth: int


@pytree_dataclass  # runtime: raises TypeError
class Model:
    config: Static[Settings]  # E: pyright,basedpyright reportInvalidTypeForm  # E: ty invalid-type-arguments  # E: pyrefly bad-specialization  # E: zuban type-var  # E: mypy-plugin jaxdc-static: static field 'config' of class 'Model' has unhashable type 'Settings': dataclass 'Settings' is not frozen. Static values are part of the treedef and used as jit cache keys, so they must be hashable. Fix: declare 'Settings' with @dataclass(frozen=True).
