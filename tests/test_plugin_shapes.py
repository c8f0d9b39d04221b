"""jaxdc_mypy's `jaxdc-shape`: jaxtyping shape strings that are never valid.

Expected diagnostics are `# E: <code>` comments, compared exactly as (file, line, code).
No false alarm is checked on every valid string of the grammar tests' corpus (jaxtyping
is their oracle), written as fields of one class.
"""

from __future__ import annotations

from test_plugin_support import Project, project, warm_cache  # noqa: F401
from test_shapes_grammar import JAXTYPING_EXAMPLES, _corpus, jaxtyping_accepts

MISUSE = """
from __future__ import annotations

from typing import Annotated, Optional

import jax
import jaxtyping
import jaxtyping as jt
from jaxtyping import Array, Float, PyTree
from jaxtyping import Int as I

import jaxdc as jdc


@jdc.pytree_dataclass(check_shapes=True)
class Model:
    ok: Float[Array, "b n"]
    two_variadic: Float[Array, "*a *b"]  # E: jaxdc-shape
    unbalanced: jt.Float[Array, "n+("]  # E: jaxdc-shape
    commas: jaxtyping.Shaped[Array, "a,b"]  # E: jaxdc-shape
    aliased: I[Array, "##n"]  # E: jaxdc-shape
    quoted: "Float[Array, '_foo+bar']"  # E: jaxdc-shape
    nested: Float[Float[Array, "a"], "b}"]  # E: jaxdc-shape
    plain_annotated: Annotated[jax.Array, "*a *b"]
    tree: PyTree[Float[Array, "n"], "T"]
    optional: Optional[Float[Array, "... ..."]] = None  # E: jaxdc-shape
    union: Float[Array, "n"] | Float[Array, "*4"] | None = None  # E: jaxdc-shape


class Node(jdc.PyTreeNode):
    x: Float[Array, "n#"]  # E: jaxdc-shape


def build() -> type:
    from jaxtyping import Bool

    @jdc.pytree_dataclass
    class Local:
        mask: Bool[Array, "{n"]  # E: jaxdc-shape

    return Local
"""

NOT_JAXTYPING = """
import jax
from typing import Annotated as Float

import jaxdc as jdc


@jdc.pytree_dataclass
class Doc:
    x: Float[jax.Array, "*free *form"]
"""


def test_malformed_shapes_are_reported(project: Project) -> None:
    project.write({"shapes_misuse.py": MISUSE})
    run = project.mypy()
    assert run.diagnostics == project.expected(), run.stdout
    assert run.messages("jaxdc-shape")[0] == (
        "field 'two_variadic' of class 'Model': shape \"*a *b\" is malformed: '*a' and '*b' "
        "both match any number of axes; a shape can have at most one variadic dimension "
        "(... or *name). Fix: write space-separated dimensions: sizes (3), names (n), "
        "expressions (n+1), and at most one *name or ... for any number of axes."
    )


def test_no_false_alarm_on_any_valid_shape_string(project: Project) -> None:
    valid = sorted({*JAXTYPING_EXAMPLES, *filter(jaxtyping_accepts, _corpus(3000))})
    assert len(valid) > 600
    fields = "".join(f"    f{i}: Float[Array, {s!r}]\n" for i, s in enumerate(valid))
    source = (
        "from jaxtyping import Array, Float\nimport jaxdc as jdc\n\n\n"
        f"@jdc.pytree_dataclass\nclass Every:\n{fields}"
    )
    project.write({"every_shape.py": source, "not_jaxtyping.py": NOT_JAXTYPING})
    run = project.mypy()
    assert run.exit_code == 0, run.stdout + run.stderr
    assert run.errors == []
