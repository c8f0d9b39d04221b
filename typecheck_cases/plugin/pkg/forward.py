"""Forward references, with and without the __future__ import."""

from __future__ import annotations

from dataclasses import dataclass

from jaxdc import PyTreeNode, Static


class Early(PyTreeNode):
    later: Static[Later]  # E: pyright,basedpyright reportInvalidTypeForm  # E: ty invalid-type-arguments  # E: pyrefly bad-specialization  # E: zuban type-var  # E: mypy-plugin jaxdc-static: static field 'later' of class 'Early' has unhashable type 'Later': dataclass 'Later' is not frozen. Static values are part of the treedef and used as jit cache keys, so they must be hashable. Fix: declare 'Later' with @dataclass(frozen=True).
    quoted: Static["Later"]  # E: pyright,basedpyright reportInvalidTypeForm  # E: ty invalid-type-arguments  # E: pyrefly bad-specialization  # E: zuban type-var  # E: mypy-plugin jaxdc-static: static field 'quoted' of class 'Early' has unhashable type 'Later': dataclass 'Later' is not frozen. Static values are part of the treedef and used as jit cache keys, so they must be hashable. Fix: declare 'Later' with @dataclass(frozen=True).
    fine: Static[Frozen]


@dataclass
class Later:
    x: int


@dataclass(frozen=True)
class Frozen:
    x: int
