"""jaxdc_mypy across program structure: modules, inheritance, generics, forward
references, import cycles and `from __future__ import annotations`.

Field kinds travel in class metadata, so a base checked in another module (or loaded from
mypy's cache) still tells its subclasses which fields are static.
"""

from __future__ import annotations

from test_plugin_support import Project, project, warm_cache  # noqa: F401

PACKAGE = {
    "pkg/__init__.py": "",
    # Bases: generic, static-ness declared here, checked through bounds.
    "pkg/base.py": """
        from collections.abc import Sequence
        from typing import Generic, TypeVar

        import jax
        from jaxdc import PyTreeNode, Static, pytree_dataclass

        T = TypeVar("T")
        ArrayT = TypeVar("ArrayT", bound=jax.Array)
        TextT = TypeVar("TextT", bound=str)


        class Base(PyTreeNode, Generic[T]):
            key: Static[T]
            value: T


        @pytree_dataclass
        class Bounded(Generic[ArrayT, TextT]):
            bad_static: Static[ArrayT]  # E: jaxdc-static
            bad_data: TextT  # E: jaxdc-data


        @pytree_dataclass
        class Keyed:
            sizes: Static[Sequence[int]]
        """,
    # Subclasses in another module: concrete type arguments, inherited static-ness.
    "pkg/child.py": """
        import jax
        from jaxdc import pytree_dataclass

        from pkg.base import Base, Keyed


        class Hashes(Base[int]):
            pass


        class Lists(Base[list[int]]):  # type: ignore[type-var]  # E: jaxdc-static
            pass


        class Texts(Base[str]):  # E: jaxdc-data
            pass


        @pytree_dataclass
        class Resized(Keyed):
            sizes: list[int]  # E: jaxdc-static
            extra: jax.Array
        """,
    # Forward references, with and without the __future__ import.
    "pkg/forward.py": """
        from __future__ import annotations

        from dataclasses import dataclass

        from jaxdc import PyTreeNode, Static


        class Early(PyTreeNode):
            later: Static[Later]  # E: jaxdc-static
            quoted: Static["Later"]  # E: jaxdc-static
            fine: Static[Frozen]


        @dataclass
        class Later:
            x: int


        @dataclass(frozen=True)
        class Frozen:
            x: int
        """,
    # An import cycle: each module's classes use the other's types.
    "pkg/cycle_a.py": """
        from __future__ import annotations

        from typing import TYPE_CHECKING

        import jax
        from jaxdc import Static, pytree_dataclass

        if TYPE_CHECKING:
            from pkg.cycle_b import Partner, Tag


        class Mark:
            def __eq__(self, other: object) -> bool:
                return True


        @pytree_dataclass
        class Owner:
            tag: Static[Tag]  # E: jaxdc-static
            partner: Partner
            w: jax.Array
        """,
    "pkg/cycle_b.py": """
        import jax
        from jaxdc import PyTreeNode, Static

        from pkg import cycle_a


        class Tag:
            def __eq__(self, other: object) -> bool:
                return True


        class Partner(PyTreeNode):
            owner: "cycle_a.Owner"
            mark: Static[cycle_a.Mark]  # E: jaxdc-static
            w: jax.Array
        """,
}


def test_modules_inheritance_generics_forward_refs_and_cycles(project: Project) -> None:
    project.write(PACKAGE)
    run = project.mypy("-p", "pkg")
    assert run.diagnostics == project.expected(), run.stdout


def test_inherited_field_reported_once_at_the_subclass_that_specialises_it(
    project: Project,
) -> None:
    project.write(PACKAGE)
    run = project.mypy("-p", "pkg")
    lists = [
        m
        for path, line, code, m in run.errors
        if (path, line, code) == ("pkg/child.py", 11, "jaxdc-static")
    ]
    assert lists == [
        "static field 'key' of class 'Lists' has unhashable type 'list[int]': 'list' is "
        "mutable and not hashable. Static values are part of the treedef and used as jit "
        "cache keys, so they must be hashable. Fix: use an immutable type such as "
        "tuple[...] or frozenset[...], or make 'key' a data field."
    ]
