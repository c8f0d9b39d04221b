"""jaxdc_mypy's `jaxdc-shape`: jaxtyping shape strings that are never valid.

The misuse is a case (typecheck_cases/plugin/shapes_misuse.py, every message pinned); here,
no false alarm is checked on every valid string of the grammar tests' corpus (jaxtyping is
their oracle), written as fields of one class.
"""

from __future__ import annotations

from checkers import Project
from test_shapes_grammar import JAXTYPING_EXAMPLES, corpus_verdicts


def test_no_false_alarm_on_any_valid_shape_string(project: Project) -> None:
    accepted = [s for s, valid in corpus_verdicts().items() if valid]
    valid = sorted({*JAXTYPING_EXAMPLES, *accepted})
    assert len(valid) > 600
    fields = "".join(f"    f{i}: Float[Array, {s!r}]\n" for i, s in enumerate(valid))
    source = (
        "from jaxtyping import Array, Float\nimport jaxdc as jdc\n\n\n"
        f"@jdc.pytree_dataclass\nclass Every:\n{fields}"
    )
    project.write({"every_shape.py": source})
    run = project.mypy().check()
    assert run.exit_code == 0, run.stdout + run.stderr
    assert run.errors == []
