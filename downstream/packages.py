"""The downstream packages: pinned releases of real projects and how to run their tests.

Each entry is a release on PyPI whose pytrees are built with one of the libraries jaxdc
replaces, and whose source distribution ships tests that run on CPU in a few minutes.
`run.py fetch` downloads exactly these sdists (the bootstrap, with network); `run.py run`
works offline from the downloaded copies. Versions are pinned so the table in
docs/downstream.md only changes when jaxdc does.
"""

from __future__ import annotations

from dataclasses import dataclass, field

__all__ = ["PACKAGES", "Package"]

JAX_DATACLASSES = "jax_dataclasses"
FLAX_STRUCT = "flax.struct"
CHEX = "chex.dataclass"


@dataclass(frozen=True)
class Package:
    name: str  # distribution name on PyPI
    version: str
    family: str  # which library its pytrees come from (JAX_DATACLASSES, FLAX_STRUCT, CHEX)
    tests: tuple[str, ...]  # pytest arguments, relative to the unpacked sdist
    sources: tuple[str, ...]  # what the type checkers read (package sources, not tests)
    deselect: tuple[tuple[str, str], ...] = ()  # (node id prefix, why) left out of both runs
    helpers: tuple[tuple[str, str], ...] = ()  # (file in downstream/helpers, where it goes)
    budget_s: int = 300  # wall-clock limit of one pytest run
    cwd: str = "."  # where pytest runs, relative to the unpacked sdist
    why: str = ""  # what this package exercises
    extra_pytest: tuple[str, ...] = field(default=())

    @property
    def sdist(self) -> str:
        return f"{self.name}=={self.version}"


PACKAGES: tuple[Package, ...] = (
    Package(
        name="jax_dataclasses",
        version="1.6.3",
        family=JAX_DATACLASSES,
        tests=("tests",),
        sources=("tests",),  # its sources are what jaxdc replaces; its tests are user code
        deselect=(
            (
                "tests/test_variadic_generic_py312.py",
                "Python 3.12 syntax (`class A[*T]`); the suite runs on the project's 3.11",
            ),
        ),
        why="the library's own tests: every public name used as its users use it",
    ),
    Package(
        name="jaxlie",
        version="1.5.0",
        family=JAX_DATACLASSES,
        tests=("tests",),
        sources=("jaxlie",),
        helpers=(("jaxlie_test_utils.py", "tests/utils.py"),),
        deselect=(
            (
                "tests/test_autodiff.py",
                "numerical-vs-autodiff Jacobians: most of the package's CPU time, through the "
                "same jitted methods the other files call",
            ),
            ("tests/test_jac_left.py", "numerical Jacobians, as above"),
            ("tests/test_jlog.py", "numerical Jacobians, and a wall-clock race (flaky)"),
            (
                "tests/test_manifold.py::test_sgd",
                "an optimisation loop: a third of the remaining time, nothing the other "
                "manifold tests do not reach",
            ),
        ),
        budget_s=420,  # group-parametrised tests, each compiling jitted methods anew
        why="jdc.jit on every method from a class decorator, Static method parameters, "
        "flax serialization of jaxdc classes",
    ),
    Package(
        name="gymnax",
        version="1.0.1",
        family=FLAX_STRUCT,
        tests=("tests",),
        sources=("gymnax",),
        deselect=(
            (
                "tests/test_reproduction_matrix.py",
                "compares against bsuite/MinAtar/gym reference environments, which are not "
                "installed (heavy, unrelated to pytrees)",
            ),
            ("tests/test_visualizer.py", "renders animations with matplotlib (no pytrees)"),
        ),
        why="@struct.dataclass env states and params through jit/vmap/scan; .replace",
    ),
    Package(
        name="navix",
        version="0.7.4",
        family=FLAX_STRUCT,
        tests=("tests",),
        sources=("navix",),
        deselect=(
            (
                "tests/test_observations.py::test_rgb_first_person",
                "compares with the `minigrid` reference package, which is not installed",
            ),
        ),
        why="struct.PyTreeNode subclasses, struct.field(pytree_node=False), default_factory fields",
    ),
    Package(
        name="mctx",
        version="0.0.71",
        family=CHEX,
        tests=("_src/tests",),
        sources=("mctx",),
        cwd="mctx",  # its tests open test data at '../mctx/_src/tests/test_data'
        budget_s=420,  # 24 searches, each compiling a while_loop over the tree
        why="@chex.dataclass(frozen=True) search trees through jit/vmap/while_loop; .replace",
    ),
    Package(
        name="flashbax",
        version="0.1.3",
        family=CHEX,
        tests=(
            "flashbax/buffers/flat_buffer_test.py",
            "flashbax/buffers/item_buffer_test.py",
            "flashbax/buffers/prioritised_flat_buffer_test.py",
            "flashbax/buffers/prioritised_item_buffer_test.py",
            "flashbax/buffers/sum_tree_test.py",
            "flashbax/buffers/mixer_test.py",
        ),
        sources=("flashbax",),
        budget_s=150,  # its tests compile large buffers: ~20 s each here
        # Not run (time budget): the trajectory buffer/queue test files (~550 parametrised
        # cases, ~20 s each here); the buffers above are built on the same trajectory buffer
        # code. vault_test writes checkpoints with tensorstore (no pytree rules).
        why="chex dataclasses imported under the `if TYPE_CHECKING: from dataclasses import "
        "dataclass` workaround; `Cls(**state, ...)` on a chex instance (the Mapping "
        "interface); generic buffer states; functions as fields",
    ),
)
