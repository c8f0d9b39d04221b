"""The first step never breaks: on the migration path (`jaxdc.compat.*`) what jaxdc's own
decorator rejects is a `jaxdc.MigrationWarning` (once per class and field, at the class's
definition, with the error's text), and the code runs as on the original library; on
jaxdc's own path (`jaxdc.pytree_dataclass`, `jaxdc.PyTreeNode`) it stays an error."""

from __future__ import annotations

import contextlib
import dataclasses
import inspect
import linecache
import os
import pickle
import subprocess
import sys
import warnings
from collections.abc import Callable, Iterator
from typing import Any

import jax
import jax.numpy as jnp
import jaxdc
import numpy as np
import pytest
from jaxdc.compat import chex_dataclass, flax_struct as struct, jax_dataclasses as jdc_compat


@contextlib.contextmanager
def migration_warnings() -> Iterator[list[warnings.WarningMessage]]:
    """Every MigrationWarning raised inside (all of them, whatever the outer filters)."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        found: list[warnings.WarningMessage] = []
        yield found
    found += [w for w in caught if issubclass(w.category, jaxdc.MigrationWarning)]


def _next_line() -> int:
    """The line a warning about the caller's next class points at: its decorator's line,
    or on Python 3.10, which runs a decorator call at the class statement's line, that."""
    frame = inspect.currentframe()
    assert frame is not None and frame.f_back is not None
    line = frame.f_back.f_lineno + 1
    while not linecache.getline(__file__, line).strip() or (
        sys.version_info < (3, 11) and linecache.getline(__file__, line).lstrip()[:1] == "@"
    ):
        line += 1
    return line


# navix's pattern: flax.struct classes with a dict and an array in static fields, used
# under jit by passing the same objects again.
with warnings.catch_warnings():  # defining these warns; the tests below check the rest
    warnings.simplefilter("ignore", jaxdc.MigrationWarning)

    @struct.dataclass
    class Grid:
        walls: jax.Array
        colors: dict[str, int] = struct.field(pytree_node=False)
        lookup: Any = struct.field(pytree_node=False, default=None)


COLORS = {"red": 0, "green": 1}
LOOKUP = np.arange(4)


def _grid(colors: dict[str, int] = COLORS, lookup: Any = LOOKUP) -> Grid:
    return Grid(jnp.zeros((2, 2)), colors, lookup)


def test_a_class_warns_once_per_field_at_its_definition_never_per_use() -> None:
    with migration_warnings() as found:
        line = _next_line()

        @struct.dataclass
        class Env:
            pos: jax.Array
            cfg: dict[str, int] = struct.field(pytree_node=False)  # warns at definition
            table: Any = struct.field(pytree_node=False)  # warns at first construction

        envs = [Env(jnp.ones(2), {"a": 1}, np.arange(3)) for _ in range(3)]
        jax.jit(lambda e: e.pos * 2)(envs[0])
        jax.vmap(lambda e: e.pos)(jax.tree.map(lambda x: jnp.stack([x, x]), envs[1]))
        assert envs[2].replace(pos=jnp.zeros(2)).cfg == {"a": 1}
    assert [str(w.message).split(" has ")[0].split(" got ")[0] for w in found] == [
        "static field 'cfg' of class 'Env'",
        "static field 'table' of class 'Env'",
    ]
    assert {(w.filename, w.lineno) for w in found} == {(__file__, line)}


def test_a_pytree_node_subclass_warns_at_its_class_statement() -> None:
    with migration_warnings() as found:
        line = _next_line()

        class Node(struct.PyTreeNode):
            cfg: dict[str, int] = struct.field(pytree_node=False)

    assert [(w.filename, w.lineno) for w in found] == [(__file__, line)]
    assert "_flax_dataclass" in vars(Node) and Node({"a": 1}).replace(cfg={}).cfg == {}


def test_a_warnings_filter_makes_the_migration_path_strict() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error", jaxdc.MigrationWarning)
        with pytest.raises(jaxdc.MigrationWarning, match=r"static field 'cfg' of class 'Bad'"):

            @struct.dataclass
            class Bad:
                cfg: dict[str, int] = struct.field(pytree_node=False)

        @struct.dataclass
        class Loose:
            table: Any = struct.field(pytree_node=False)

        for _ in range(2):  # raised again: a warning turned into an error is never "done"
            with pytest.raises(jaxdc.MigrationWarning, match=r"field 'table' of class 'Loose'"):
                Loose(np.arange(3))
    assert Loose((1, 2)).table == (1, 2)


def test_python_dash_w_error_makes_the_migration_path_strict() -> None:
    code = (
        "from jaxdc.compat import flax_struct as struct\n"
        "@struct.dataclass\n"
        "class Bad:\n"
        "    cfg: dict = struct.field(pytree_node=False)\n"
    )
    strict = [sys.executable, "-W", "error::jaxdc.MigrationWarning", "-c", code]
    out = subprocess.run(strict, capture_output=True, text=True, check=False)
    assert out.returncode == 1 and "jaxdc.MigrationWarning: static field 'cfg'" in out.stderr
    lenient = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert lenient.returncode == 0 and "MigrationWarning: static field 'cfg'" in lenient.stderr
    env = {**os.environ, "PYTHONWARNINGS": "error::jaxdc.MigrationWarning"}
    by_env = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
    assert by_env.returncode == 1 and "jaxdc.MigrationWarning: static field" in by_env.stderr


def _native_dict_static() -> None:
    @jaxdc.pytree_dataclass
    class C:
        cfg: dict[str, int] = jaxdc.field(static=True)


def _compat_dict_static() -> None:
    @struct.dataclass
    class C:
        cfg: dict[str, int] = struct.field(pytree_node=False)


def _native_array_static() -> None:
    @jaxdc.pytree_dataclass
    class C:
        table: Any = jaxdc.field(static=True)

    C(jnp.arange(2))


def _compat_array_static() -> None:
    @jdc_compat.pytree_dataclass
    class C:
        table: Any = jdc_compat.field(static=True)

    C(jnp.arange(2))


def _native_subclass() -> None:
    @jaxdc.pytree_dataclass
    class C:
        x: jax.Array

    class D(C):
        pass

    D(jnp.ones(1))


def _compat_subclass() -> None:
    @chex_dataclass.dataclass(frozen=True)
    class C:
        x: jax.Array

    class D(C):
        pass

    D(jnp.ones(1))


def _native_assignment() -> None:
    @jaxdc.pytree_dataclass
    class C:
        x: jax.Array

    C(jnp.ones(1)).x = jnp.zeros(1)  # type: ignore[misc]


def _compat_assignment() -> None:
    @chex_dataclass.dataclass
    class C:
        x: jax.Array

    C(jnp.ones(1)).x = jnp.zeros(1)


SAME_TEXT = {
    "unhashable static type": (_native_dict_static, _compat_dict_static, TypeError),
    "array in a static field": (_native_array_static, _compat_array_static, TypeError),
    "undecorated subclass": (_native_subclass, _compat_subclass, TypeError),
    "assignment": (_native_assignment, _compat_assignment, dataclasses.FrozenInstanceError),
}


@pytest.mark.parametrize("case", SAME_TEXT, ids=list(SAME_TEXT))
def test_jaxdcs_own_path_raises_what_the_migration_path_warns(case: str) -> None:
    native, compat, error = SAME_TEXT[case]
    with pytest.raises(error) as raised:
        native()
    with migration_warnings() as found:
        compat()
    assert [str(w.message) for w in found] == [str(raised.value)]


def test_frozen_false_warns_with_the_fix_and_gives_a_mutable_class() -> None:
    with pytest.raises(TypeError, match=r"pytree_dataclass\(frozen=False\)") as raised:
        jaxdc.pytree_dataclass(frozen=False)
    with migration_warnings() as found:

        @struct.dataclass(frozen=False)
        class Counter:
            n: jax.Array

    (warning,) = found
    fix = str(raised.value).split("Fix: ")[1]
    assert "flax_struct.dataclass(frozen=False)" in str(warning.message)
    assert str(warning.message).endswith(fix)
    counter = Counter(jnp.int32(0))
    with migration_warnings():
        counter.n = counter.n + 1
    assert int(jax.jit(lambda c: c.n)(counter)) == 1


def test_dict_static_works_under_transforms_and_jit_caches_by_equality() -> None:
    traces: list[None] = []

    @jax.jit
    def total(g: Grid) -> jax.Array:
        traces.append(None)
        return g.walls.sum() + g.colors["green"]

    with migration_warnings():
        assert float(total(_grid())) == 1.0
        assert float(total(_grid(dict(COLORS)))) == 1.0  # an equal copy: the same cache entry
        assert len(traces) == 1
        assert float(total(_grid({"red": 0, "green": 5}))) == 5.0
        assert len(traces) == 2
        grid = _grid()
        mapped = jax.tree.map(lambda x: x + 1, grid)
        assert mapped.colors is COLORS and float(mapped.walls.sum()) == 4.0
        batched = jax.vmap(lambda w: _grid().replace(walls=w))(jnp.ones((3, 2, 2)))
        assert batched.walls.shape == (3, 2, 2) and batched.colors is COLORS
        restored = pickle.loads(pickle.dumps(_grid(lookup=(1, 2))))
        assert restored.colors == COLORS and restored.lookup == (1, 2)
        assert float(jax.jit(lambda g: g.walls.sum() + g.lookup[1])(restored)) == 2.0


def _jaxdcs_part(error: BaseException) -> str:
    """jaxdc's TypeError: JAX raises its "Exception raised while checking equality of
    metadata fields" from it (or, on a jaxlib that does not wrap it, it is the error)."""
    if isinstance(error, ValueError):
        assert "metadata" in str(error)
        return str(error.__cause__)
    return str(error)


def test_an_array_static_works_by_identity_and_an_equal_copy_names_the_field() -> None:
    @jax.jit
    def walls(g: Grid) -> jax.Array:
        return g.walls

    with migration_warnings():
        walls(_grid())
        walls(_grid())  # the same array object again: found by identity
        with pytest.raises((ValueError, TypeError)) as raised:
            walls(_grid(lookup=np.arange(4)))  # equal, not identical
    cause = _jaxdcs_part(raised.value)
    assert cause.startswith("static field 'lookup' of class 'Grid' holds a value of type ")
    assert "Fix: make 'lookup' a data field, or hold a hashable value" in cause


def test_rlax_pattern_assigning_a_field_of_a_mutable_chex_instance() -> None:
    @chex_dataclass.dataclass
    class Output:
        loss: jax.Array
        extra: jax.Array

    @jax.jit
    def step(x: jax.Array) -> Output:
        out = Output(loss=x, extra=x)
        out.loss = out.loss * 2  # rlax fills in fields after construction
        return out

    with migration_warnings() as found:
        out = step(jnp.float32(3.0))
        out.extra = jnp.float32(7.0)
        out.extra = jnp.float32(8.0)
    assert float(out.loss) == 6.0 and jax.tree.leaves(out)[1] == 8.0
    assert [str(w.message).split(":")[0] for w in found] == [
        "cannot assign to field 'loss' of 'Output'",
        "cannot assign to field 'extra' of 'Output'",
    ]
    assert out["extra"] == 8.0  # chex's Mapping interface sees it too


def test_a_non_field_attribute_set_in_post_init_warns_on_the_migration_path() -> None:
    # A mutable chex class may set an attribute that is not a field while it is built;
    # jaxdc's own decorator rejects it (the value is not in the pytree, so it is gone after
    # jit), the migration line warns with that text and keeps the value on the instance.
    @chex_dataclass.dataclass
    class Stats:
        values: jax.Array

        def __post_init__(self) -> None:
            self.count = int(self.values.shape[0])

    with migration_warnings() as found:
        stats = Stats(values=jnp.ones(3))
    assert stats.count == 3
    assert [str(w.message) for w in found] == [
        "attribute 'count' of class 'Stats' is not a field, so a value set during "
        "construction would be lost after jit/vmap/tree_map/replace (jaxdc never re-runs "
        "__init__/__post_init__ on unflatten). Fix: declare it as a field "
        "(`count: T = jaxdc.field(init=False)`), or compute it in a property."
    ]


def test_a_data_descriptor_field_warns_on_the_migration_path_and_runs_as_before() -> None:
    # The stdlib's descriptor-typed field: jaxdc's own decorator refuses it (every unflatten
    # would run the descriptor's __set__); the migration line warns once, at the class, with
    # that text, and the descriptor keeps storing the field, as under flax.
    sets: list[float] = []

    class Positive:
        def __set_name__(self, owner: type, name: str) -> None:
            self.slot = "_" + name

        def __get__(self, obj: object, owner: type | None = None) -> Any:
            return 1.0 if obj is None else obj.__dict__[self.slot]

        def __set__(self, obj: object, value: Any) -> None:
            sets.append(value)
            obj.__dict__[self.slot] = value

    with migration_warnings() as found:

        @struct.dataclass
        class Scale:
            factor: float = Positive()  # type: ignore[assignment]

        out = jax.tree.map(lambda v: v * 3.0, Scale(2.0))
    assert out.factor == 6.0 and sets == [2.0, 6.0]  # __init__, then unflatten
    assert [str(w.message) for w in found] == [
        "field 'factor' of class 'Scale' has a data descriptor as its class attribute "
        "(an instance of 'Positive', which defines __set__ or __delete__): "
        "jit/vmap/tree_map/replace rebuild instances by storing each field, which would run "
        "that descriptor's code behind your back, and skipping it would lose the value it "
        "keeps. Fix: make 'factor' a plain field (`factor: T = default`); convert or check "
        "values with `jaxdc.field(converter=...)` or in __post_init__, and give other "
        "behaviour a property of another name that reads the field."
    ]


def test_an_undecorated_subclass_on_the_migration_path_is_a_leaf_as_in_flax() -> None:
    @struct.dataclass
    class Base:
        x: jax.Array

    line = _next_line()

    class Sub(Base):
        def double(self) -> jax.Array:
            return self.x * 2

    with migration_warnings() as found:
        subs = [Sub(jnp.ones(2)) for _ in range(2)]
    assert len(found) == 1 and "class 'Sub' subclasses the pytree dataclass" in str(found[0])
    assert (found[0].filename, found[0].lineno) == (__file__, line)
    assert jax.tree.leaves(subs[0]) == [subs[0]]  # a leaf, as flax and chex make it
    assert float(subs[1].double().sum()) == 4.0


def test_jax_dataclasses_migration_module_is_lenient_and_jaxdc_is_strict() -> None:
    def define(decorator: Any) -> Any:
        @decorator
        class Config:
            sizes: jaxdc.Static[list[int]]

        return Config

    with migration_warnings() as found:
        config = define(jdc_compat.pytree_dataclass)
    assert len(found) == 1 and config([1, 2]).sizes == [1, 2]
    with pytest.raises(TypeError) as raised:
        define(jaxdc.pytree_dataclass)
    assert str(raised.value) == str(found[0].message)


MODULE_NAMES: dict[str, Callable[[], object]] = {
    "jax_dataclasses": lambda: jdc_compat.pytree_dataclass,
    "flax_struct": lambda: struct.dataclass,
    "chex_dataclass": lambda: chex_dataclass.dataclass,
}


@pytest.mark.parametrize("name", MODULE_NAMES)
def test_each_migration_decorator_is_on_the_migration_path(name: str) -> None:
    decorator: Any = MODULE_NAMES[name]()

    class Loose:
        table: Any = jaxdc.field(static=True)

    with migration_warnings() as found:
        loose = decorator(Loose)(jnp.arange(2))
    assert len(found) == 1 and found[0].lineno > 1
    assert jax.tree.structure(loose) == jax.tree.structure(loose)


def test_jaxdc_jit_names_the_class_and_field_of_a_value_it_cannot_trace() -> None:
    @struct.dataclass
    class Agent:
        w: jax.Array
        act: Callable[[jax.Array], jax.Array]  # flax lets a function be a data field

    def relu(x: jax.Array) -> jax.Array:
        return jnp.maximum(x, 0)

    agents = [Agent(jnp.ones(2), relu)]
    assert jax.tree.map(lambda x: x, agents)[0].act is relu  # tree_map is fine
    with pytest.raises(TypeError) as raised:
        jaxdc.jit(lambda population: population[0].w)(population=agents)
    assert str(raised.value).startswith(
        "data field 'act' of class 'Agent' holds a value of type 'function' "
        "(at population[0].act), which jit cannot trace"
    )
    assert "Fix: make 'act' a static field" in str(raised.value)


# navix's pattern: a space (a flax.struct class holding arrays) in a static field of the
# environment, passed to jitted functions as the same object again and again.
with warnings.catch_warnings():  # defining these warns; the tests below check the rest
    warnings.simplefilter("ignore", jaxdc.MigrationWarning)

    @struct.dataclass
    class Space:
        minimum: jax.Array
        maximum: jax.Array

    @struct.dataclass
    class Environment:
        height: int = struct.field(pytree_node=False)
        observation_space: Space = struct.field(pytree_node=False, default=None)


def test_navix_pattern_a_static_space_holding_arrays_runs_under_jit() -> None:
    with migration_warnings() as found:
        env = Environment(3, Space(jnp.zeros(3), jnp.ones(3)))

        @jax.jit
        def clip(env: Environment, x: jax.Array) -> jax.Array:
            space = env.observation_space
            return jnp.clip(x * env.height, space.minimum, space.maximum)

        assert clip(env, jnp.full(3, 0.1)).tolist() == pytest.approx([0.3] * 3)
        moved = env.replace(height=4)  # the same space object: found again by identity
        assert clip(moved, jnp.full(3, 0.1)).tolist() == pytest.approx([0.4] * 3)
        copy = Environment(3, Space(jnp.zeros(3), jnp.ones(3)))  # equal, not identical
        assert clip(copy, jnp.full(3, 2.0)).tolist() == [1.0] * 3  # jaxdc's == compares them
    assert found == []  # warned once, when the class was defined (at import), never per use


def test_a_mutable_chex_class_may_derive_from_a_plain_dataclass_as_in_chex() -> None:
    @dataclasses.dataclass
    class Base:
        step: int = 0

    @chex_dataclass.dataclass
    class State(Base):
        x: jax.Array = dataclasses.field(default_factory=lambda: jnp.zeros(1))

    state = State()
    with migration_warnings():
        state.step = 2
    assert jax.tree.leaves(state)[0] == 2
    with pytest.raises(TypeError, match=r"derives from the non-frozen dataclass 'Base'"):
        jaxdc.pytree_dataclass(type("Frozen", (Base,), {"__annotations__": {}}))


def test_a_numpy_default_warns_and_then_behaves_as_in_flax() -> None:
    def define(decorator: Any) -> Any:
        @decorator
        class Cfg:
            table: np.ndarray = np.zeros(3)

        return Cfg

    with pytest.raises(TypeError) as raised:
        define(jaxdc.pytree_dataclass)
    with migration_warnings() as found:
        if sys.version_info >= (3, 11):  # dataclasses refuses the mutable default, as for flax
            with pytest.raises(ValueError, match="mutable default"):
                define(struct.dataclass)
        else:
            assert define(struct.dataclass)().table.shape == (3,)
    assert [str(w.message) for w in found] == [str(raised.value)]
