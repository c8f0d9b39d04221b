"""Data fields holding what JAX traces are array-like to the plugin, with no configuration.

Abstract containers (`Sequence`, `Mapping`, `OrderedDict`, `defaultdict`, NewTypes of
them), recursive aliases, and other libraries' pytrees: equinox `Module`,
flax.struct classes and `PyTreeNode`, flax's `FrozenDict`, optax states (NamedTuples of
arrays). The libraries are real imports, and the same classes are run through `jit` to show
they are pytrees indeed. Configured class names that resolve to nothing get a warning.
"""

from __future__ import annotations

import fcntl
import shutil
import textwrap
from pathlib import Path

import checkers
import jax
import jax.numpy as jnp
import pytest
from _jaxdc_rules import messages
from _jaxdc_rules.messages import Problem
from checkers import Project

LIBRARIES = """
import equinox
import flax.core
import flax.struct
import optax
"""
PYPROJECT = (
    checkers.pyproject_toml(plugin=True)
    + "follow_untyped_imports = true  # optax ships no py.typed\n"
)
SHARED = checkers.REPO / ".mypy_cache" / "jaxdc-arraylike-tests"

# Correct code: no diagnostic allowed.
PYTREES = """
from collections import OrderedDict, defaultdict
from collections.abc import Mapping, Sequence
from typing import NamedTuple, NewType, Union

import equinox as eqx
import flax.struct
import jax
import optax
from flax.core import FrozenDict
from jaxdc import Static, pytree_dataclass

Params = Union[jax.Array, list["Params"]]
Layers = NewType("Layers", Sequence[jax.Array])


class MLP(eqx.Module):
    w: jax.Array


@flax.struct.dataclass
class FlaxState:
    w: jax.Array


class FlaxNode(flax.struct.PyTreeNode):
    w: jax.Array


class Moments(NamedTuple):
    mu: jax.Array
    nu: Sequence[jax.Array]


@pytree_dataclass
class State:
    mlp: MLP
    flax_state: FlaxState
    node: FlaxNode
    frozen: FrozenDict[str, jax.Array]
    opt_state: optax.OptState
    adam: optax.ScaleByAdamState
    moments: Moments
    seq: Sequence[jax.Array]
    mapping: Mapping[str, jax.Array]
    ordered: OrderedDict[str, jax.Array]
    default: defaultdict[str, jax.Array]
    layers: Layers
    params: Params
    name: Static[str]
"""

# Still wrong: not every container or NamedTuple is array-like. JAX flattens lists, tuples
# and dicts only: any other container is one leaf, which jit rejects (tests/
# test_rules_differential.py runs each through jit), `Iterable` and `Collection` included.
NOT_PYTREES = """
from collections import deque
from collections.abc import Collection, Iterable, Mapping, Sequence
from typing import Generic, NamedTuple, TypeVar

import jax
from jaxdc import pytree_dataclass


class Labelled(NamedTuple):
    w: jax.Array
    label: str


@pytree_dataclass
class State:
    names: Sequence[str]  # E: mypy-plugin jaxdc-data
    labels: Mapping[str, str]  # E: mypy-plugin jaxdc-data
    labelled: Labelled  # E: mypy-plugin jaxdc-data
    items: Iterable[jax.Array]  # E: mypy-plugin jaxdc-data
    group: Collection[jax.Array]  # E: mypy-plugin jaxdc-data
    tags: set[int]  # E: mypy-plugin jaxdc-data
    queue: deque[jax.Array]  # E: mypy-plugin jaxdc-data


NumberOrText = TypeVar("NumberOrText", int, str)


@pytree_dataclass
class Boxed(Generic[NumberOrText]):
    value: NumberOrText  # E: mypy-plugin jaxdc-data
"""


@pytest.fixture(scope="session")
def library_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A warm mypy cache holding jax, equinox, flax and optax (built once, then kept)."""
    SHARED.mkdir(parents=True, exist_ok=True)
    prelude = tmp_path_factory.mktemp("libraries")
    checkers.write_files(
        prelude, {"pyproject.toml": PYPROJECT, "prelude.py": checkers.PRELUDE + LIBRARIES}
    )
    mine = tmp_path_factory.mktemp("cache") / "libraries"
    with open(SHARED.with_suffix(".lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # pytest-xdist workers take turns
        run = checkers.run_mypy(prelude, ["prelude.py"], cache_dir=SHARED)
        assert run.exit_code == 0, run.stdout + run.stderr
        shutil.copytree(SHARED, mine)
    return mine


@pytest.fixture
def libraries(tmp_path: Path, library_cache: Path) -> Project:
    result = checkers.Project.create(tmp_path, library_cache)
    (result.root / "pyproject.toml").write_text(PYPROJECT)
    return result


def test_other_libraries_pytrees_and_abstract_containers_are_array_like(
    libraries: Project,
) -> None:
    libraries.write({"pytrees.py": PYTREES})
    run = libraries.mypy("--show-traceback", "pytrees.py").check()  # a crash is no result
    assert run.errors == [], run.stdout + run.stderr


def test_containers_and_namedtuples_of_other_things_are_still_reported(project: Project) -> None:
    project.write({"not_pytrees.py": NOT_PYTREES})
    run = project.mypy()
    assert run.diagnostics == project.expected(), run.stdout
    iterable = next(m for m in run.messages("jaxdc-data") if "'items'" in m)
    assert iterable == messages.data_not_arraylike(
        "items", "State", "Iterable[jax.Array]", Problem("container", "Iterable")
    )
    assert "so a 'Iterable' value would be one leaf, which jit rejects" in iterable


def test_the_same_classes_are_pytrees_at_runtime() -> None:
    """What the plugin accepts, JAX traces: each field's leaves go through jit."""
    import equinox as eqx
    import flax.struct
    import jaxdc
    import optax
    from flax.core import FrozenDict

    class MLP(eqx.Module):
        w: jax.Array

    @flax.struct.dataclass
    class FlaxState:
        w: jax.Array

    @jaxdc.pytree_dataclass
    class State:
        mlp: MLP
        flax_state: FlaxState
        frozen: FrozenDict
        adam: optax.OptState

    params = {"w": jnp.ones(2)}
    state = State(
        MLP(jnp.ones(3)),
        FlaxState(jnp.ones(4)),
        FrozenDict(params),
        optax.adam(1e-3).init(params),
    )
    doubled = jax.jit(lambda s: jax.tree.map(lambda x: x * 2, s))(state)
    assert float(doubled.mlp.w[0]) == 2.0 and float(doubled.flax_state.w[0]) == 2.0
    assert float(doubled.frozen["w"][0]) == 2.0
    # mlp.w, flax_state.w, frozen["w"], and adam: count, mu["w"], nu["w"]
    assert len(jax.tree.leaves(state)) == len(jax.tree.leaves(doubled)) == 6


def test_configured_names_that_resolve_to_nothing_get_a_warning(project: Project) -> None:
    (project.root / "pyproject.toml").write_text(
        checkers.pyproject_toml(plugin=True)
        + textwrap.dedent(
            """
            [tool.jaxdc-mypy]
            extra_pytree_bases = ["jax.NoSuchClass", "notinstalledpkg.Module"]
            extra_hashable_types = ["builtins.int"]
            """
        )
    )
    project.write(
        {
            "model.py": """
            import jax
            from jaxdc import pytree_dataclass

            @pytree_dataclass
            class Model:
                w: jax.Array
            """
        }
    )
    run = project.mypy()
    assert run.exit_code == 0 and run.errors == [], run.stdout
    warnings = sorted(line for line in run.stderr.splitlines() if "warning" in line)
    assert warnings == [
        "jaxdc_mypy: warning: [tool.jaxdc-mypy] extra_pytree_bases: 'jax.NoSuchClass' is "
        "not a class in module 'jax', so it has no effect. Fix: write the fully qualified "
        "name of a class, as you would import it (e.g. 'equinox.Module').",
        "jaxdc_mypy: warning: [tool.jaxdc-mypy] extra_pytree_bases: "
        "'notinstalledpkg.Module' names module 'notinstalledpkg', which is not installed, "
        "so it has no effect. Fix: write the fully qualified name of a class, as you would "
        "import it (e.g. 'equinox.Module').",
    ], run.stderr
