"""Why each difference between the baseline run and the jaxdc run is what it is.

Every test that fails only with jaxdc, and every diagnostic that only the jaxdc run
reports, needs an entry here. An entry names exactly one thing and the exact text it
explains: one test id (`tests.test_x::test_y`, as pytest's report names it) and that
test's first error line, or one diagnostic place (`pkg.module:line [code]`) and that
diagnostic's message. Both are compared for equality, never searched, so an entry can
never explain a second test, another line, or the same test failing for another reason.
`run.py` exits non-zero while a difference has no entry, and while an entry matches
nothing (the difference it explained is gone: delete it). Kinds:

- MISTAKE: a real mistake in the project that jaxdc reports (e.g. an unhashable static).
- DIFFERENCE: a documented behaviour difference (docs/migrating.md), not a bug.
- DELIBERATE: misuse a test makes on purpose to see the runtime refuse it; a checker that
  reports it is right.
- open(owner): a jaxdc gap, with the branch or area that owns its fix. The page lists it
  under its owner, and it still fails the run: a gap is never explained away.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = [
    "DELIBERATE",
    "DIFFERENCE",
    "MISTAKE",
    "TRIAGE",
    "Verdict",
    "explain",
    "is_open",
    "open_in",
]

MISTAKE = "real mistake in the project"
DIFFERENCE = "documented difference"
DELIBERATE = "deliberate misuse in a test"
_OPEN = "open, owned by "

# One test: `dotted.module::name`, with an optional class and parameters
# (`tests.test_x::TestY::test_z[a-b]`); a collection error is `::dotted.module`.
_TEST_ID = re.compile(r"^[\w.]*::\S+$")
# One diagnostic: `dotted.module:line [code]`.
_PLACE = re.compile(r"^[\w.]+:\d+ \[[\w-]+\]$")


def open_in(owner: str) -> str:
    return _OPEN + owner


def is_open(kind: str) -> bool:
    return kind.startswith(_OPEN)


@dataclass(frozen=True)
class Verdict:
    package: str
    subject: str  # one test id, or one diagnostic's `module:line [code]`
    text: str  # the exact failure text: the test's first error line, or the message
    kind: str
    reason: str

    def __post_init__(self) -> None:
        if not (_TEST_ID.match(self.subject) or _PLACE.match(self.subject)):
            raise ValueError(
                f"triage entry {self.subject!r}: name one test id (`pkg.module::test`) or "
                "one diagnostic place (`pkg.module:line [code]`)"
            )
        if not self.text:
            raise ValueError(f"triage entry {self.subject!r}: give the exact text it explains")


def _each(package: str, kind: str, reason: str, *cases: tuple[str, str]) -> tuple[Verdict, ...]:
    """One entry per (subject, text), for differences that share one reason."""
    return tuple(Verdict(package, subject, text, kind, reason) for subject, text in cases)


_GYMNAX_REPLACE = (
    "gymnax annotates `EnvState` fields as `int`/`bool` and stores jax Arrays in them "
    "(every step under `jit` computes arrays); mypy already reports the same mismatch at "
    "`EnvState(...)` calls in both runs (e.g. `catch:105`). The plugin now types `.replace` "
    'on `@struct.dataclass` classes, so each baseline error `"EnvState" has no attribute '
    '"replace"` is gone and the values passed to it are checked; the return-value lines are '
    "baseline errors whose `Any` (from the unknown `.replace`) now reads `EnvState`"
)

_JDC_FROZEN = (
    "`obj.array = ...` on a frozen instance, inside `pytest.raises(FrozenInstanceError)`: the "
    "test checks that the runtime refuses it, and the checkers now refuse it too "
    "(jax_dataclasses' stubs declared its classes mutable, so the baseline is silent). "
    "Assignments inside `copy_and_mutate` blocks are clean in both checkers"
)
_JDC_UNHASHABLE = (
    "`child: jdc.Static[Inner]` with a non-frozen dataclass `Inner` (unhashable): the same "
    "mistake the runtime rejects (`test_copy_and_mutate_static`); pyright names the rule in "
    'its message (`Could not specialize type "type[StaticTypeMustBeHashable@Static]"`)'
)
_NAVIX_SPACES = (
    "`observation_space`/`action_space`/`reward_space` are static fields holding a `Space` "
    "with jax Array fields (unhashable): the plugin reports at the field what the runtime "
    "rejects (jaxdc's own path) or warns about (the migration path)"
)
_NAVIX_FUNCTIONS = (
    "`Task.reward_fn`/`termination_fn` are *data* fields holding functions: a function is "
    "not a JAX type, so a `Task` passed to a jitted function fails; they want "
    "`struct.field(pytree_node=False)` as `value_fn` next to them has"
)

_FLAX_DICT_STATIC = "TypeError: static field 'meta' of class 'Point' got a value of type 'dict', which is not hashable (unhashable type: 'dict'). Static values are jit cache keys. Fix: pass an immutable value (a tuple instead of a list, a frozenset instead of a set), or make 'meta' a data field."
_FLAX_FROZEN = (
    "`frozen=False` (a mutable flax struct): jaxdc classes are always frozen and the "
    "compat decorator raises an error naming the fix (docs/migrating.md, From "
    "`flax.struct`); the checkers report the non-frozen subclass of a frozen class"
)

_RLAX_FROZEN = "dataclasses.FrozenInstanceError: cannot assign to field 'memory' of 'IntrinsicRewardState': jaxdc instances are frozen, like JAX arrays; fields can be set only on `self` in __init__/__post_init__ or inside `with jaxdc.copy_and_mutate(...)`. Fix: jaxdc.replace(obj, memory=...), or `with jaxdc.copy_an"

_NAVIX_IMPORT = "TypeError: static field 'observation_space' of class 'Environment' has unhashable type 'Space': frozen dataclass 'Space' has field 'minimum' of unhashable type 'jax.Array' (arrays are not hashable). Static values are part of the treedef and used as jit cache keys, so they must be hashable. Fix: make"

TRIAGE: tuple[Verdict, ...] = (
    # --- jax_dataclasses 1.6.3's own tests ------------------------------------------------
    Verdict(
        "jax_dataclasses",
        "tests.test_vmap::test_vmap",
        "Failed: DID NOT RAISE AssertionError",
        DIFFERENCE,
        "the test expects the shape check to fail *inside* `jax.vmap` (jax_dataclasses re-runs "
        "`__post_init__` on every unflatten); jaxdc checks at construction only, never on "
        "unflatten (issue 10, docs/migrating.md)",
    ),
    Verdict(
        "jax_dataclasses",
        "tests.test_copy_and_mutate::test_copy_and_mutate",
        "Failed: DID NOT RAISE AssertionError",
        DIFFERENCE,
        "a shape/dtype change under `validate=True` raises jaxdc's ValueError naming the "
        "path when the block ends; the test expects jax_dataclasses' AssertionError at "
        "the assignment (docs/migrating.md, copy_and_mutate)",
    ),
    *_each(
        "jax_dataclasses",
        DELIBERATE,
        _JDC_FROZEN,
        ("tests.test_copy_and_mutate:30 [misc]", 'Property "array" defined in "Bar" is read-only'),
        ("tests.test_copy_and_mutate:54 [misc]", 'Property "array" defined in "Bar" is read-only'),
        ("tests.test_copy_and_mutate:78 [misc]", 'Property "child" defined in "Foo" is read-only'),
        (
            "tests.test_copy_and_mutate:30 [reportAttributeAccessIssue]",
            'Cannot assign to attribute "array" for class "Bar"',
        ),
        (
            "tests.test_copy_and_mutate:78 [reportAttributeAccessIssue]",
            'Cannot assign to attribute "child" for class "Foo"',
        ),
    ),
    *_each(
        "jax_dataclasses",
        MISTAKE,
        _JDC_UNHASHABLE,
        (
            "tests.test_copy_and_mutate:72 [jaxdc-static]",
            "static field 'child' of class 'Foo' has unhashable type 'Inner': dataclass 'Inner' is not frozen. Static values are part of the treedef and used as jit cache keys, so they must be hashable. Fix: declare 'Inner' with @dataclass(frozen=True).",
        ),
        (
            "tests.test_copy_and_mutate:72 [reportInvalidTypeForm]",
            'Could not specialize type "type[StaticTypeMustBeHashable@Static]"',
        ),
    ),
    # --- gymnax 1.0.1 -----------------------------------------------------------------------
    *_each(
        "gymnax",
        MISTAKE,
        _GYMNAX_REPLACE,
        (
            "gymnax.environments.bsuite.catch:78 [arg-type]",
            'Argument "paddle_x" to "replace" of "EnvState" has incompatible type "Array"; expected "int"',
        ),
        (
            "gymnax.environments.bsuite.catch:79 [arg-type]",
            'Argument "paddle_y" to "replace" of "EnvState" has incompatible type "Array"; expected "int"',
        ),
        (
            "gymnax.environments.bsuite.deep_sea:127 [arg-type]",
            'Argument "column" to "replace" of "EnvState" has incompatible type "Array"; expected "int"',
        ),
        (
            "gymnax.environments.bsuite.deep_sea:128 [arg-type]",
            'Argument "bad_episode" to "replace" of "EnvState" has incompatible type "Array"; expected "bool"',
        ),
        (
            "gymnax.environments.bsuite.deep_sea:129 [arg-type]",
            'Argument "denoised_return" to "replace" of "EnvState" has incompatible type "Array"; expected "int"',
        ),
        (
            "gymnax.environments.bsuite.deep_sea:136 [arg-type]",
            'Argument "total_bad_episodes" to "replace" of "EnvState" has incompatible type "Array"; expected "int"',
        ),
        (
            "gymnax.environments.minatar.asterix:98 [arg-type]",
            'Argument "spawn_timer" to "replace" of "EnvState" has incompatible type "Array"; expected "int"',
        ),
        (
            "gymnax.environments.minatar.asterix:218 [arg-type]",
            'Argument "player_x" to "replace" of "EnvState" has incompatible type "Array"; expected "int"',
        ),
        (
            "gymnax.environments.minatar.asterix:218 [arg-type]",
            'Argument "player_y" to "replace" of "EnvState" has incompatible type "Array"; expected "int"',
        ),
        (
            "gymnax.environments.minatar.asterix:329 [arg-type]",
            'Argument "move_timer" to "replace" of "EnvState" has incompatible type "Array"; expected "int"',
        ),
        (
            "gymnax.environments.minatar.asterix:364 [arg-type]",
            'Argument "ramp_timer" to "replace" of "EnvState" has incompatible type "Array"; expected "int"',
        ),
        (
            "gymnax.environments.minatar.asterix:365 [arg-type]",
            'Argument "move_speed" to "replace" of "EnvState" has incompatible type "Array"; expected "int"',
        ),
        (
            "gymnax.environments.minatar.asterix:366 [arg-type]",
            'Argument "spawn_speed" to "replace" of "EnvState" has incompatible type "Array"; expected "int"',
        ),
        (
            "gymnax.environments.minatar.asterix:367 [arg-type]",
            'Argument "ramp_index" to "replace" of "EnvState" has incompatible type "Array"; expected "int"',
        ),
        (
            "gymnax.environments.minatar.breakout:87 [arg-type]",
            'Argument "terminal" to "replace" of "EnvState" has incompatible type "Array"; expected "bool"',
        ),
        (
            "gymnax.environments.minatar.breakout:206 [arg-type]",
            'Argument "pos" to "replace" of "EnvState" has incompatible type "Array"; expected "int"',
        ),
        (
            "gymnax.environments.minatar.breakout:270 [return-value]",
            'Incompatible return value type (got "tuple[EnvState, int]", expected "tuple[EnvState, Array]")',
        ),
        (
            "gymnax.environments.minatar.breakout:274 [arg-type]",
            'Argument "strike" to "replace" of "EnvState" has incompatible type "Array"; expected "bool"',
        ),
        (
            "gymnax.environments.minatar.breakout:277 [arg-type]",
            'Argument "terminal" to "replace" of "EnvState" has incompatible type "Array"; expected "bool"',
        ),
        (
            "gymnax.environments.minatar.freeway:96 [arg-type]",
            'Argument "terminal" to "replace" of "EnvState" has incompatible type "Array"; expected "bool"',
        ),
        (
            "gymnax.environments.minatar.freeway:204 [arg-type]",
            'Argument "move_timer" to "replace" of "EnvState" has incompatible type "Array"; expected "int"',
        ),
        (
            "gymnax.environments.minatar.freeway:204 [arg-type]",
            'Argument "pos" to "replace" of "EnvState" has incompatible type "Array"; expected "int"',
        ),
        (
            "gymnax.environments.minatar.freeway:204 [return-value]",
            'Incompatible return value type (got "tuple[EnvState, Array, Array]", expected "tuple[EnvState, Array, bool]")',
        ),
        (
            "gymnax.environments.minatar.space_invaders:123 [arg-type]",
            'Argument "enemy_move_interval" to "replace" of "EnvState" has incompatible type "Array"; expected "int"',
        ),
        (
            "gymnax.environments.minatar.space_invaders:124 [arg-type]",
            'Argument "ramp_index" to "replace" of "EnvState" has incompatible type "Array"; expected "int"',
        ),
        (
            "gymnax.environments.minatar.space_invaders:127 [arg-type]",
            'Argument "terminal" to "replace" of "EnvState" has incompatible type "Array"; expected "bool"',
        ),
        (
            "gymnax.environments.minatar.space_invaders:245 [arg-type]",
            'Argument "pos" to "replace" of "EnvState" has incompatible type "Array"; expected "int"',
        ),
        (
            "gymnax.environments.minatar.space_invaders:248 [arg-type]",
            'Argument "shot_timer" to "replace" of "EnvState" has incompatible type "Array"; expected "int"',
        ),
        (
            "gymnax.environments.minatar.space_invaders:249 [arg-type]",
            'Argument "terminal" to "replace" of "EnvState" has incompatible type "Array"; expected "bool"',
        ),
        (
            "gymnax.environments.minatar.space_invaders:287 [arg-type]",
            'Argument "alien_move_timer" to "replace" of "EnvState" has incompatible type "Array"; expected "int"',
        ),
        (
            "gymnax.environments.minatar.space_invaders:288 [arg-type]",
            'Argument "alien_dir" to "replace" of "EnvState" has incompatible type "Array"; expected "int"',
        ),
        (
            "gymnax.environments.minatar.space_invaders:290 [arg-type]",
            'Argument "terminal" to "replace" of "EnvState" has incompatible type "Array"; expected "bool"',
        ),
        (
            "gymnax.environments.minatar.space_invaders:319 [return-value]",
            'Incompatible return value type (got "tuple[EnvState, int]", expected "tuple[EnvState, Array]")',
        ),
        (
            "gymnax.environments.minatar.space_invaders:321 [arg-type]",
            'Argument "alien_shot_timer" to "replace" of "EnvState" has incompatible type "Array"; expected "int"',
        ),
    ),
    # --- navix 0.7.4 ------------------------------------------------------------------------
    *_each(
        "navix",
        open_in("branch adopt (lenient migration path)"),
        "`Environment.observation_space: Space = struct.field(pytree_node=False)` holds a "
        "`Space` with jax Array fields: unhashable, a real latent bug (an equal copy passed "
        "to a jitted function fails), but navix runs today because JAX compares static "
        "metadata by identity first. jaxdc rejects the class at definition, so each test "
        "module fails to import (its tests then do not run: each is listed as not run on "
        "jaxdc). The migration path must warn with the fix instead (issue 16 §1)",
        ("::tests.test_actions", _NAVIX_IMPORT),
        ("::tests.test_environments", _NAVIX_IMPORT),
        ("::tests.test_grid", _NAVIX_IMPORT),
        ("::tests.test_issues", _NAVIX_IMPORT),
        ("::tests.test_observations", _NAVIX_IMPORT),
        ("::tests.test_tasks", _NAVIX_IMPORT),
        ("::tests.test_terminations", _NAVIX_IMPORT),
    ),
    *_each(
        "navix",
        MISTAKE,
        _NAVIX_SPACES,
        (
            "navix.environments.environment:83 [jaxdc-static]",
            "static field 'observation_space' of class 'Environment' has unhashable type 'Space': frozen dataclass 'Space' has field 'minimum' of unhashable type 'jax.Array' (arrays are not hashable). Static values are part of the treedef and used as jit cache keys, so they must be hashable. Fix: make 'observation_space' a data field, or give 'Space.minimum' a hashable type.",
        ),
        (
            "navix.environments.environment:84 [jaxdc-static]",
            "static field 'action_space' of class 'Environment' has unhashable type 'Space': frozen dataclass 'Space' has field 'minimum' of unhashable type 'jax.Array' (arrays are not hashable). Static values are part of the treedef and used as jit cache keys, so they must be hashable. Fix: make 'action_space' a data field, or give 'Space.minimum' a hashable type.",
        ),
        (
            "navix.environments.environment:85 [jaxdc-static]",
            "static field 'reward_space' of class 'Environment' has unhashable type 'Space': frozen dataclass 'Space' has field 'minimum' of unhashable type 'jax.Array' (arrays are not hashable). Static values are part of the treedef and used as jit cache keys, so they must be hashable. Fix: make 'reward_space' a data field, or give 'Space.minimum' a hashable type.",
        ),
    ),
    *_each(
        "navix",
        MISTAKE,
        _NAVIX_FUNCTIONS,
        (
            "navix.tasks:12 [jaxdc-data]",
            "data field 'reward_fn' of class 'Task' has type 'Callable[[State, Array, State], Array]', which is not array-like: a callable is not an array. Data fields are pytree children that JAX traces as arrays. Fix: declare it Static[Callable[[State, Array, State], Array]] (functions are hashable).",
        ),
        (
            "navix.tasks:13 [jaxdc-data]",
            "data field 'termination_fn' of class 'Task' has type 'Callable[[State, Array, State], Array]', which is not array-like: a callable is not an array. Data fields are pytree children that JAX traces as arrays. Fix: declare it Static[Callable[[State, Array, State], Array]] (functions are hashable).",
        ),
    ),
    # --- flax 0.12.8's own struct tests ---------------------------------------------------
    *_each(
        "flax",
        open_in("branch adopt (lenient migration path)"),
        "`meta: Any = struct.field(pytree_node=False)` holds a `dict`: flax accepts it (JAX "
        "compares static metadata with `==`, so a dict static caches correctly); jaxdc's "
        "migration path must accept it with a warning naming the fix (issue 16 §1), not "
        "raise at construction",
        ("tests.struct_test.StructTest::test_keypath_error", _FLAX_DICT_STATIC),
        ("tests.struct_test.StructTest::test_mutation", _FLAX_DICT_STATIC),
        ("tests.struct_test.StructTest::test_no_extra_fields", _FLAX_DICT_STATIC),
        ("tests.struct_test.StructTest::test_pytree_nodes", _FLAX_DICT_STATIC),
    ),
    *_each(
        "flax",
        DIFFERENCE,
        _FLAX_FROZEN,
        (
            "tests.struct_test.StructTest::test_mutable0",
            "TypeError: jaxdc.compat.flax_struct.dataclass(frozen=False): jaxdc classes are always frozen, like JAX arrays (a mutable pytree node breaks jit caching and tracing). Fix: drop frozen=False; edit instances with jaxdc.replace(...) or jaxdc.copy_and_mutate(...).",
        ),
        (
            "tests.struct_test.StructTest::test_slots",
            "TypeError: jaxdc.compat.flax_struct.dataclass(frozen=False): jaxdc classes are always frozen, like JAX arrays (a mutable pytree node breaks jit caching and tracing). Fix: drop frozen=False; edit instances with jaxdc.replace(...) or jaxdc.copy_and_mutate(...).",
        ),
        (
            "tests.struct_test.StructTest::test_mutable1",
            "TypeError: class B(PyTreeNode)(frozen=False): jaxdc classes are always frozen, like JAX arrays (a mutable pytree node breaks jit caching and tracing). Fix: drop frozen=False; edit instances with jaxdc.replace(...) or jaxdc.copy_and_mutate(...).",
        ),
        (
            "tests.struct_test:148 [misc]",
            "Non-frozen dataclass cannot inherit from a frozen dataclass",
        ),
        (
            "tests.struct_test:148 [reportGeneralTypeIssues]",
            "A non-frozen class cannot inherit from a class that is frozen",
        ),
    ),
    Verdict(
        "flax",
        "tests.struct_test.StructTest::test_double_wrap_no_op",
        "AssertionError: False is not true",
        open_in("branch adopt (jaxdc.compat.flax_struct)"),
        "the test checks that decorating twice is a no-op through flax's marker attribute "
        "`_flax_dataclass`, which `jaxdc.compat.flax_struct.dataclass` does not set (the "
        "double wrap itself is a no-op): set the marker, or document the difference",
    ),
    *_each(
        "flax",
        open_in("the mypy plugin (typed `.replace` of compat classes; no branch owns it)"),
        "false alarm: `@struct.dataclass class A` then `class B(A, struct.PyTreeNode)` runs "
        "(`B(b=2).replace(a=3)` works), but the plugin types the decorated class's "
        "`.replace` with A's fields only, which mypy finds incompatible with "
        "`PyTreeNode.replace` (the test redefines `A` in two branches, and mypy keeps the "
        "decorated one)",
        (
            "tests.struct_test:109 [misc]",
            'Definition of "replace" in base class "A" is incompatible with definition in base class "PyTreeNode"',
        ),
        (
            "tests.struct_test:122 [misc]",
            'Definition of "replace" in base class "A" is incompatible with definition in base class "PyTreeNode"',
        ),
    ),
    *_each(
        "flax",
        DELIBERATE,
        "an assignment to a field of a frozen instance inside "
        "`assertRaises(FrozenInstanceError)`: the test checks that the runtime refuses it; "
        "pyright now reads the class as frozen (flax's decorator is not a "
        "`dataclass_transform` with `frozen_default`)",
        (
            "tests.struct_test:48 [reportAttributeAccessIssue]",
            'Cannot assign to attribute "y" for class "Point"',
        ),
        (
            "tests.struct_test:153 [reportAttributeAccessIssue]",
            'Cannot assign to attribute "a" for class "A"',
        ),
    ),
    # --- rlax 0.1.9 --------------------------------------------------------------------------
    *_each(
        "rlax",
        open_in("branch adopt (lenient migration path)"),
        "`IntrinsicRewardState` is a `@chex.dataclass` without `frozen=True` (mutable in "
        "chex), and `episodic_memory_intrinsic_rewards` assigns `state.memory = ...` on the "
        "instance it just built (module rlax._src.exploration, line 221). The compat decorator "
        "freezes it (docs/migrating.md lists that as a difference), so the migration line "
        "breaks a test that passed: the first step must not (issue 16: a warning with the "
        "fix on the migration path)",
        (
            "rlax._src.exploration_test.EMIntrinsicRewardTest::test_novelty_reward__with_device",
            _RLAX_FROZEN,
        ),
        (
            "rlax._src.exploration_test.EMIntrinsicRewardTest::test_novelty_reward__with_jit",
            _RLAX_FROZEN,
        ),
        (
            "rlax._src.exploration_test.EMIntrinsicRewardTest::test_novelty_reward__without_device",
            _RLAX_FROZEN,
        ),
        (
            "rlax._src.exploration_test.EMIntrinsicRewardTest::test_novelty_reward__without_jit",
            _RLAX_FROZEN,
        ),
    ),
    *_each(
        "rlax",
        DIFFERENCE,
        "`intrinsic_reward_state.memory = ...` on a chex dataclass instance (the tests "
        "above): jaxdc classes are always frozen (docs/migrating.md, From `chex.dataclass`: "
        "`obj.x = v` becomes `obj = obj.replace(x=v)`), and the checkers report the "
        "assignment from the first step",
        (
            "rlax._src.exploration:221 [misc]",
            'Property "memory" defined in "IntrinsicRewardState" is read-only',
        ),
        (
            "rlax._src.exploration:221 [reportAttributeAccessIssue]",
            'Cannot assign to attribute "memory" for class "IntrinsicRewardState"',
        ),
    ),
    # --- evojax 0.2.17 -----------------------------------------------------------------------
    Verdict(
        "evojax",
        "evojax.task.base:118 [return-value]",
        'Incompatible return value type (got "type[Never]", expected "T")',
        MISTAKE,
        "`get_extended_task_state_def(self, task_state_def: T) -> T` returns a *class* "
        "(`dataclass(dataclasses.make_dataclass(...))`) where its signature promises an "
        'instance of `T`: mypy reports the same line in both runs, as `got "type"` as '
        'published and `got "type[Never]"` through the compat `dataclass`\'s typed '
        "signature (`type[T] -> type[T]`, given the untyped `type` make_dataclass returns)",
    ),
    # --- jaxmarl 0.2.0 ----------------------------------------------------------------------
    *_each(
        "jaxmarl",
        MISTAKE,
        "the plugin now types `.replace` on `@struct.dataclass` states (it was unknown, "
        "so `Any`), and the values passed to it disagree with the fields' annotations: "
        "jax Arrays into fields annotated `int`/`bool` (jaxnav, storm_2p), Python "
        "`int`/`bool` into fields annotated `Array` (overcooked_v2); the return-value line "
        "is a baseline mismatch (`tuple[State, int]`) whose `Any` now reads `State`",
        (
            "jaxmarl.environments.hanabi.hanabi_game:491 [return-value]",
            'Incompatible return value type (got "tuple[State, int]", expected "tuple[State, Array]")',
        ),
        (
            "jaxmarl.environments.jaxnav.jaxnav_env:321 [arg-type]",
            'Argument "ep_done" to "replace" of "State" has incompatible type "Array"; expected "bool"',
        ),
        (
            "jaxmarl.environments.overcooked_v2.overcooked:322 [arg-type]",
            'Argument "step" to "replace" of "State" has incompatible type "int"; expected "Array"',
        ),
        (
            "jaxmarl.environments.overcooked_v2.overcooked:323 [arg-type]",
            'Argument "done" to "replace" of "State" has incompatible type "bool"; expected "Array"',
        ),
        (
            "jaxmarl.environments.overcooked_v2.overcooked:324 [arg-type]",
            'Argument "new_correct_delivery" to "replace" of "State" has incompatible type "bool"; expected "Array"',
        ),
        (
            "jaxmarl.environments.storm.storm_2p:690 [arg-type]",
            'Argument "freeze" to "replace" of "State" has incompatible type "Array"; expected "int"',
        ),
        (
            "jaxmarl.environments.storm.storm_2p:695 [arg-type]",
            'Argument "freeze" to "replace" of "State" has incompatible type "Array"; expected "int"',
        ),
    ),
    Verdict(
        "jaxmarl",
        "jaxmarl.environments.overcooked_v2.overcooked:65 [jaxdc-data]",
        "data field 'agents' of class 'State' has type 'Agent', which is not array-like: 'Agent' is not an array type or a pytree class. Data fields are pytree children that JAX traces as arrays. Fix: declare it Static[Agent] if it is configuration, or list 'Agent' under extra_pytree_bases or extra_array_types in [tool.jaxdc-mypy] if JAX can trace it.",
        open_in("branch adopt (the plugin on chex_dataclass compat classes)"),
        "false alarm: `Agent` is a `@chex_dataclass.dataclass` class (migrated from "
        "`@chex.dataclass`), a pytree, but the plugin does not know compat chex classes as "
        "jaxdc classes yet, so a field holding one reads as a non-array data field",
    ),
    # --- mctx 0.0.71 --------------------------------------------------------------------------
    Verdict(
        "mctx",
        "mctx._src.tree:116 [reportArgumentType]",
        'Argument of type "int" cannot be assigned to parameter "qvalues" of type "Array" in function "__init__"',
        MISTAKE,
        "`_unbatched_qvalues(tree, index) -> int` is annotated as returning an int but returns "
        "an array, which ends up in `SearchSummary(qvalues=...)`; pyright sees it now because "
        "it reads the real `__init__` of a jaxdc class (chex's decorator hid it). mctx "
        "silences pytype on the same call (`# pytype: disable=wrong-arg-types`)",
    ),
)


def explain(package: str, subject: str, text: str) -> Verdict | None:
    """The entry for exactly this test id or diagnostic place and this text, if any."""
    for verdict in TRIAGE:
        if (verdict.package, verdict.subject, verdict.text) == (package, subject, text):
            return verdict
    return None
