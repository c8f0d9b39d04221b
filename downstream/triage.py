"""Why each difference between the baseline run and the jaxdc run is what it is.

Every test that fails only with jaxdc, and every diagnostic that only the jaxdc run
reports, needs an entry here: a `pattern` (a regular expression searched in the test's
node id, or in `module:line [code] message` of a diagnostic), a `kind` and the reason.
`run.py` exits non-zero while a difference has none, so the table in docs/downstream.md
never shows an unexplained line. Kinds:

- MISTAKE: a real mistake in the project that jaxdc reports (e.g. an unhashable static).
- DIFFERENCE: a documented behaviour difference (docs/migrating.md), not a bug.
- DELIBERATE: misuse a test makes on purpose to see the runtime refuse it; a checker that
  reports it is right.
- open(area): a jaxdc gap, owned by that area of the project; it stays listed until fixed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["DELIBERATE", "DIFFERENCE", "MISTAKE", "TRIAGE", "Verdict", "explain", "open_in"]

MISTAKE = "real mistake in the project"
DIFFERENCE = "documented difference"
DELIBERATE = "deliberate misuse in a test"


def open_in(area: str) -> str:
    return f"open, owned by {area}"


@dataclass(frozen=True)
class Verdict:
    package: str
    pattern: str
    kind: str
    reason: str


TRIAGE: tuple[Verdict, ...] = (
    # --- jax_dataclasses 1.6.3's own tests ------------------------------------------------
    Verdict(
        "jax_dataclasses",
        r"test_vmap::test_vmap$",
        DIFFERENCE,
        "the test expects the shape check to fail *inside* `jax.vmap` (jax_dataclasses re-runs "
        "`__post_init__` on every unflatten); jaxdc checks at construction only, never on "
        "unflatten (issue 10, docs/migrating.md)",
    ),
    Verdict(
        "jax_dataclasses",
        r"test_copy_and_mutate::test_copy_and_mutate$",
        DIFFERENCE,
        "a shape/dtype change under `validate=True` raises jaxdc's ValueError naming the "
        "path when the block ends; the test expects jax_dataclasses' AssertionError at "
        "the assignment (docs/migrating.md, copy_and_mutate)",
    ),
    Verdict(
        "jax_dataclasses",
        r"test_copy_and_mutate::test_copy_and_mutate_static$",
        MISTAKE,
        "`child: jdc.Static[Inner]` where `Inner` is a non-frozen `@dataclasses.dataclass`: "
        "its instances are unhashable, and JAX requires static values to be hashable (jit "
        "cache keys); jaxdc rejects the class definition with an error naming the fix "
        "(`frozen=True`). The test then mutates the static in place, which is what the rule "
        "prevents",
    ),
    Verdict(
        "jax_dataclasses",
        r"^tests\.test_copy_and_mutate:(30|54|78) \[(misc|reportAttributeAccessIssue)\] "
        r"(Property \"(array|child)\" defined in \"(Bar|Foo)\" is read-only"
        r"|Cannot assign to attribute)",
        DELIBERATE,
        "`obj.array = ...` on a frozen instance, inside `pytest.raises(FrozenInstanceError)`: "
        "the test checks that the runtime refuses it, and the checkers now refuse it too "
        "(jax_dataclasses' stubs declared its classes mutable, so the baseline is silent). "
        "Assignments inside `copy_and_mutate` blocks are clean in both checkers",
    ),
    Verdict(
        "jax_dataclasses",
        r"^tests\.test_copy_and_mutate:\d+ \[(jaxdc-static|reportInvalidTypeForm)\]",
        MISTAKE,
        "`child: jdc.Static[Inner]` with a non-frozen dataclass `Inner` (unhashable): the same "
        "mistake the runtime rejects (see the test above); pyright names the rule in its "
        'message (`Could not specialize type "type[StaticTypeMustBeHashable@Static]"`)',
    ),
    # --- gymnax 1.0.1 -----------------------------------------------------------------------
    Verdict(
        "gymnax",
        r"^gymnax\.environments\.\w+\.\w+:\d+ (\[arg-type\] Argument \"\w+\" to \"replace\" of "
        r"\"EnvState\"|\[return-value\] Incompatible return value type \(got \"tuple\[EnvState,)",
        MISTAKE,
        "gymnax annotates `EnvState` fields as `int`/`bool` and stores jax Arrays in them "
        "(every step under `jit` computes arrays); mypy already reports the same mismatch at "
        "`EnvState(...)` calls in both runs (e.g. `catch:105`). The plugin now types "
        '`.replace` on `@struct.dataclass` classes, so each baseline error `"EnvState" has '
        'no attribute "replace"` is gone and the values passed to it are checked; the '
        "return-value lines are baseline errors whose `Any` (from the unknown `.replace`) now "
        "reads `EnvState`",
    ),
    # --- navix 0.7.4 ------------------------------------------------------------------------
    Verdict(
        "navix",
        r"^navix\.environments\.environment:8[345] \[jaxdc-static\]",
        MISTAKE,
        "`observation_space`/`action_space`/`reward_space` are static fields holding a `Space` "
        "with jax Array fields (unhashable): the plugin reports at the field what the runtime "
        "rejects at class definition (the tests table above)",
    ),
    Verdict(
        "navix",
        r"^navix\.tasks:1[23] \[jaxdc-data\]",
        MISTAKE,
        "`Task.reward_fn`/`termination_fn` are *data* fields holding functions: a function is "
        "not a JAX type, so a `Task` passed to a jitted function fails; they want "
        "`struct.field(pytree_node=False)` as `value_fn` next to them has",
    ),
    Verdict(
        "navix",
        r"tests\.test_(actions|environments|grid|issues|observations|tasks|terminations)\b",
        MISTAKE,
        "`Environment.observation_space: Space = struct.field(pytree_node=False)` holds a "
        "`Space`, whose `minimum`/`maximum` fields are jax Arrays (navix's own docstring says "
        "they should not be). A static value must be hashable (JAX hashes the treedef of every "
        "pytree argument of `jit`), and this one is not: passing an `Environment` to a jitted "
        "function fails. jaxdc rejects the class at definition with the field, the offending "
        "`Space.minimum` and the fix, so every module importing navix fails to import",
    ),
    # --- mctx 0.0.71 --------------------------------------------------------------------------
    Verdict(
        "mctx",
        r"^mctx\._src\.tree:116 \[reportArgumentType\] Argument of type \"int\" cannot be "
        r"assigned to parameter \"qvalues\"",
        MISTAKE,
        "`_unbatched_qvalues(tree, index) -> int` is annotated as returning an int but returns "
        "an array, which ends up in `SearchSummary(qvalues=...)`; pyright sees it now because "
        "it reads the real `__init__` of a jaxdc class (chex's decorator hid it). mctx "
        "silences pytype on the same call (`# pytype: disable=wrong-arg-types`)",
    ),
)


def explain(package: str, subject: str) -> Verdict | None:
    """The entry explaining `subject` (a test node id or a rendered diagnostic), if any."""
    for verdict in TRIAGE:
        if verdict.package == package and re.search(verdict.pattern, subject):
            return verdict
    return None
