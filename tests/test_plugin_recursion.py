"""Recursive types never crash or hang mypy (or the runtime), and get the right verdict.

Each case runs in its own mypy subprocess under a timeout: a `RecursionError` shows up as
an internal error, a hang as the timeout. The runtime defines the same classes (a
`RecursionError` would fail the test) and must accept or reject them as the plugin does.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
import types

import checkers
import pytest
from checkers import Project

TIMEOUT = 120  # seconds; a warm run of one case takes about two

HEADER = """
import dataclasses
from typing import Generic, NamedTuple, Optional, TypedDict, TypeVar, Union

import jax
import jaxdc
from jaxdc import Static, pytree_dataclass
from typing_extensions import TypeAlias

T = TypeVar("T")
"""

# name -> (source, the runtime rejects it)
CASES = {
    "data_alias": (
        """
        Params: TypeAlias = Union[jax.Array, list["Params"]]

        @pytree_dataclass
        class Model:
            params: Params
        """,
        False,
    ),
    "static_alias_hashable": (
        """
        Shape: TypeAlias = Union[int, tuple["Shape", ...]]

        @pytree_dataclass
        class Model:
            shape: Static[Shape]
        """,
        False,
    ),
    "static_alias_unhashable": (
        """
        Tree: TypeAlias = Union[int, list["Tree"]]

        @pytree_dataclass
        class Model:
            tree: Static[Tree]  # type: ignore[type-var,unused-ignore]  # E: mypy-plugin jaxdc-static
        """,
        True,
    ),
    "namedtuple_data": (
        """
        class Node(NamedTuple):
            value: jax.Array
            children: tuple["Node", ...]

        @pytree_dataclass
        class Model:
            root: Node
        """,
        False,
    ),
    "namedtuple_static": (
        """
        class Cfg(NamedTuple):
            name: str
            sub: Optional["Cfg"]

        class Bad(NamedTuple):
            items: list[int]
            sub: Optional["Bad"]

        @pytree_dataclass
        class Model:
            cfg: Static[Cfg]
            bad: Static[Bad]  # E: mypy-plugin jaxdc-static
        """,
        True,
    ),
    "typeddict_data": (
        """
        class Tree(TypedDict):
            w: jax.Array
            children: list["Tree"]

        @pytree_dataclass
        class Model:
            tree: Tree
        """,
        False,
    ),
    "typeddict_static": (
        """
        class Tree(TypedDict):
            name: str
            children: list["Tree"]

        @pytree_dataclass
        class Model:
            tree: Static[Tree]  # E: mypy-plugin jaxdc-static
        """,
        True,
    ),
    "dataclass_static": (
        """
        @dataclasses.dataclass(frozen=True)
        class Node:
            name: str
            children: tuple["Node", ...]

        @pytree_dataclass
        class Model:
            root: Static[Node]
        """,
        False,
    ),
    # Each level of `Grow` has new type arguments; its fields are checked once per walk.
    "generic_dataclass_growing": (
        """
        @dataclasses.dataclass(frozen=True)
        class Grow(Generic[T]):
            value: T
            more: Optional["Grow[tuple[T, ...]]"]

        @pytree_dataclass
        class Model:
            grow: Static[Grow[int]]
            bad: Static[Grow[list[int]]]  # E: mypy-plugin jaxdc-static
        """,
        True,
    ),
    "jit_parameters": (
        """
        Shape: TypeAlias = Union[int, tuple["Shape", ...]]

        class Cfg(NamedTuple):
            name: str
            sub: Optional["Cfg"]

        class Tree(TypedDict):
            name: str
            children: list["Tree"]

        @jaxdc.jit
        def step(
            x: jax.Array,
            shape: Static[Shape],
            cfg: Static[Cfg],
            tree: Static[Tree],  # E: mypy-plugin jaxdc-static
        ) -> jax.Array:
            return x
        """,
        False,
    ),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_recursive_type_in_mypy(project: Project, name: str) -> None:
    source, _ = CASES[name]
    project.write({f"{name}.py": HEADER + textwrap.dedent(source)})
    try:
        run = checkers.run_mypy(
            project.root,
            ["--show-traceback", f"{name}.py"],
            cache_dir=project.cache_dir,
            timeout=TIMEOUT,
        )
    except subprocess.TimeoutExpired:
        pytest.fail(f"mypy did not finish within {TIMEOUT} s")
    # check(): a crash (a segfault or stack overflow prints neither "INTERNAL ERROR" nor
    # "RecursionError") is no result, never "no diagnostics".
    assert run.check().diagnostics == project.expected(), run.stdout
    assert "RecursionError" not in run.stdout + run.stderr


@pytest.mark.parametrize("name", sorted(CASES))
def test_recursive_type_at_runtime(name: str) -> None:
    source, rejected = CASES[name]
    module = types.ModuleType(f"jaxdc_recursion_{name}")
    sys.modules[module.__name__] = module
    code = compile(HEADER + textwrap.dedent(source), module.__name__, "exec", dont_inherit=True)
    try:
        if rejected:
            with pytest.raises(TypeError, match=r"^static field"):
                exec(code, module.__dict__)
        else:
            exec(code, module.__dict__)
    finally:
        del sys.modules[module.__name__]
