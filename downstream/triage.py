"""Why each difference between the baseline run and the jaxdc run is what it is.

Every test that fails only with jaxdc, and every diagnostic that only the jaxdc run
reports, needs an entry here: a `pattern` (a regular expression searched in the test's
node id, or in `file:line [code] message` of a diagnostic), a `kind` and the reason.
`run.py` exits non-zero while a difference has none, so the table in docs/downstream.md
never shows an unexplained line. Kinds:

- MISTAKE: a real mistake in the project that jaxdc reports (e.g. an unhashable static).
- DIFFERENCE: a documented behaviour difference (docs/migrating.md), not a bug.
- open(area): a jaxdc gap, owned by that area of the project; it stays listed until fixed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["DIFFERENCE", "MISTAKE", "TRIAGE", "Verdict", "explain", "open_in"]

MISTAKE = "real mistake in the project"
DIFFERENCE = "documented difference"


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
        r"tests\.test_(annotated_arrays|vmap)\b",
        open_in("shapes (issue 10)"),
        "the module uses `jdc.EnforcedAnnotationsMixin`, which jaxdc does not have yet, so "
        "it fails at import",
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
        r"test_dataclass::test_no_init$",
        open_in("rules (issue 8 §2: init=False fields carried in the pytree)"),
        "`field3: jdc.Static[bool] = jdc.field(init=False)` set in `__post_init__`: jaxdc "
        "still requires a default for init=False fields; the decided change (carry them in "
        "the pytree) makes this pass",
    ),
    # --- navix 0.7.4 ------------------------------------------------------------------------
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
)


def explain(package: str, subject: str) -> Verdict | None:
    """The entry explaining `subject` (a test node id or a rendered diagnostic), if any."""
    for verdict in TRIAGE:
        if verdict.package == package and re.search(verdict.pattern, subject):
            return verdict
    return None
