"""The downstream packages: pinned releases of real projects and how to run their tests.

Each entry is a release on PyPI whose pytrees are built with one of the libraries jaxdc
replaces, and whose source distribution ships tests that run on CPU in a few minutes (or
a subset of them, pinned here for both runs, that reaches every pytree class).
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
    families: tuple[str, ...]  # the libraries its pytrees come from (JAX_DATACLASSES, ...)
    tests: tuple[str, ...]  # pytest arguments, relative to the unpacked sdist
    sources: tuple[str, ...]  # what the type checkers read (package sources, not tests)
    deselect: tuple[tuple[str, str], ...] = ()  # (node id prefix, why) left out of both runs
    helpers: tuple[tuple[str, str], ...] = ()  # (file in downstream/helpers, where it goes)
    # Wall-clock limit of one pytest run: set so the whole pinned suite finishes on 2 cores
    # shared with other work (measured: 3-5x the time on an idle machine; a cut run is not
    # compared test by test, report.py fails it). docs/downstream.md shows each run's time.
    budget_s: int = 600
    migrated: tuple[str, ...] = (".",)  # what the migration rewrites (default: everything)
    cwd: str = "."  # where pytest runs, relative to the unpacked sdist
    why: str = ""  # what this package exercises
    extra_pytest: tuple[str, ...] = field(default=())

    @property
    def family(self) -> str:
        return " + ".join(self.families)

    @property
    def sdist(self) -> str:
        return f"{self.name}=={self.version}"


PACKAGES: tuple[Package, ...] = (
    Package(
        name="jax_dataclasses",
        version="1.6.3",
        families=(JAX_DATACLASSES,),
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
        families=(JAX_DATACLASSES,),
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
        budget_s=1200,  # group-parametrised tests, each compiling jitted methods anew
        why="jdc.jit on every method from a class decorator, Static method parameters, "
        "flax serialization of jaxdc classes",
    ),
    Package(
        name="gymnax",
        version="1.0.1",
        families=(FLAX_STRUCT,),
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
        budget_s=1200,
        why="@struct.dataclass env states and params through jit/vmap/scan; .replace",
    ),
    Package(
        name="navix",
        version="0.7.4",
        families=(FLAX_STRUCT,),
        tests=("tests",),
        sources=("navix",),
        deselect=(
            (
                "tests/test_observations.py::test_rgb_first_person",
                "compares with the `minigrid` reference package, which is not installed",
            ),
        ),
        budget_s=1200,
        why="struct.PyTreeNode subclasses, struct.field(pytree_node=False) holding a frozen "
        "dataclass of arrays (an unhashable static), functions in data fields, default_factory "
        "fields",
    ),
    Package(
        name="mctx",
        version="0.0.71",
        families=(CHEX,),
        tests=("_src/tests",),
        sources=("mctx",),
        cwd="mctx",  # its tests open test data at '../mctx/_src/tests/test_data'
        budget_s=2400,  # 24 searches, each compiling a while_loop over the tree
        why="@chex.dataclass(frozen=True) search trees through jit/vmap/while_loop; .replace",
    ),
    Package(
        name="flashbax",
        version="0.1.3",
        families=(CHEX,),
        tests=(
            "flashbax/buffers/flat_buffer_test.py",
            "flashbax/buffers/prioritised_flat_buffer_test.py",
        ),
        sources=("flashbax",),
        # Pinned to two files so both runs finish (a cut run is not compared): the flat
        # buffer, and the prioritised one that builds its state with `Cls(**state, ...)`
        # (the Mapping interface). Not run (time): the item and prioritised item buffer,
        # sum tree and mixer test files, the trajectory buffer/queue files (~550
        # parametrised cases, ~20 s each here; the buffers above are built on the same
        # trajectory buffer code), vault_test (tensorstore
        # checkpoints, no pytree rules).
        budget_s=2400,  # its tests compile large buffers
        why="chex dataclasses imported under the `if TYPE_CHECKING: from dataclasses import "
        "dataclass` workaround; `Cls(**state, ...)` on a chex instance (the Mapping "
        "interface); generic buffer states; functions as fields",
    ),
    Package(
        name="flax",
        version="0.12.8",  # the flax downstream/requirements.txt installs
        families=(FLAX_STRUCT,),
        tests=("tests/struct_test.py",),
        sources=("tests/struct_test.py",),
        # flax's own modules import `struct` too (TrainState, ...): they are the library
        # being replaced, like jax_dataclasses' sources above, so only the test is migrated.
        migrated=("tests/struct_test.py",),
        why="flax.struct's own tests: generic `PyTreeNode[T]` subclasses, `__slots__`, "
        "`kw_only`, metadata pass-through, a double-wrapped class, `frozen=False`",
    ),
    Package(
        name="rlax",
        version="0.1.9",
        families=(CHEX,),
        tests=(
            "rlax/_src/episodic_memory_test.py",
            "rlax/_src/exploration_test.py",
            "rlax/_src/moving_averages_test.py",
            "rlax/_src/policy_targets_test.py",
            "rlax/_src/distributions_test.py",
        ),
        sources=("rlax",),
        # Not run: the other 18 test files (losses, value functions, ...) use no dataclass.
        budget_s=1500,  # chex variants: each function with and without jit/device
        why="`@chex.dataclass` without `frozen=True` (mutable in chex) holding scalars by "
        "default (`next_memory_index: Scalar = 0`), `Optional[...]` state arguments built "
        "on first call, chex.variants tests running each function with and without jit",
    ),
    Package(
        name="evojax",
        version="0.2.17",
        families=(FLAX_STRUCT,),
        tests=("tests",),
        sources=("evojax",),
        deselect=(
            (
                "tests/test_init_extra.py::TestTask::test_procgen",
                "needs the `procgen` package (not installed; it fails as published too)",
            ),
        ),
        budget_s=1200,
        why="`from flax.struct import dataclass` task and policy states built by each task, "
        "policy and algorithm the tests construct, and (read by the checkers) a state class "
        "made at run time, `dataclass(dataclasses.make_dataclass(...))`",
    ),
    Package(
        name="jaxmarl",
        version="0.2.0",
        families=(FLAX_STRUCT, CHEX),
        tests=(
            "tests/test_jaxmarl_api.py",
            "tests/test_envs_implement_base_api.py::test_envs[MPE_simple_v3]",
            "tests/test_envs_implement_base_api.py::test_envs[MPE_simple_crypto_v3]",
            "tests/test_envs_implement_base_api.py::test_envs[switch_riddle]",
            "tests/test_envs_implement_base_api.py::test_envs[overcooked]",
            "tests/test_envs_implement_base_api.py::test_envs[overcooked_v2]",
            "tests/test_envs_implement_base_api.py::test_envs[coin_game]",
        ),
        sources=("jaxmarl/environments",),
        # Pinned to six of the twenty environments so both runs finish on 2 shared cores
        # (each environment jits reset and step; tests/ whole took 12 min here): the
        # two MPE states (one a subclass with `Optional` fields), switch_riddle, both
        # overcooked versions (v2 nests `@chex.dataclass` items) and coin_game. Not run:
        # the module's per-check tests (test_inherits_base_env, ...), which make the same
        # five checks `test_envs` makes.
        budget_s=1200,
        why="both libraries in one project, both migrated: `@struct.dataclass` env states "
        "(`Optional[jax.Array] = None` fields, subclassed states) and `@chex.dataclass` "
        "(mutable in chex) item states nested in them; multi-agent environments through "
        "reset/step under jit",
    ),
)
