"""jaxtyping shape strings that are never valid (jaxdc-shape); valid ones, PyTree and plain Annotated are not reported."""

from __future__ import annotations

from typing import Annotated, Optional

import jax
import jaxtyping
import jaxtyping as jt
from jaxtyping import Array, Float, PyTree
from jaxtyping import Int as I

import jaxdc as jdc


@jdc.pytree_dataclass(check_shapes=True)  # runtime: raises TypeError
class Model:
    ok: Float[Array, "b n"]
    two_variadic: Float[Array, "*a *b"]  # E: mypy-plugin jaxdc-shape: field 'two_variadic' of class 'Model': shape "*a *b" is malformed: '*a' and '*b' both match any number of axes; a shape can have at most one variadic dimension (... or *name). Fix: write space-separated dimensions: sizes (3), names (n), expressions (n+1), and at most one *name or ... for any number of axes.
    unbalanced: jt.Float[Array, "n+("]  # E: mypy-plugin jaxdc-shape: field 'unbalanced' of class 'Model': shape "n+(" is malformed: 'n+(' is not a valid expression ('(' was never closed). Fix: write space-separated dimensions: sizes (3), names (n), expressions (n+1), and at most one *name or ... for any number of axes.
    commas: jaxtyping.Shaped[Array, "a,b"]  # E: mypy-plugin jaxdc-shape: field 'commas' of class 'Model': shape "a,b" is malformed: separate dimensions with spaces, not commas. Fix: write space-separated dimensions: sizes (3), names (n), expressions (n+1), and at most one *name or ... for any number of axes.
    aliased: I[Array, "##n"]  # E: mypy-plugin jaxdc-shape: field 'aliased' of class 'Model': shape "##n" is malformed: '##n': the broadcastable marker # is repeated (##n is not allowed). Fix: write space-separated dimensions: sizes (3), names (n), expressions (n+1), and at most one *name or ... for any number of axes.
    quoted: "Float[Array, '_foo+bar']"  # E: mypy-plugin jaxdc-shape: field 'quoted' of class 'Model': shape "_foo+bar" is malformed: '_foo+bar': a symbolic dimension cannot be anonymous. Fix: write space-separated dimensions: sizes (3), names (n), expressions (n+1), and at most one *name or ... for any number of axes.
    nested: Float[Float[Array, "a"], "b}"]  # E: mypy-plugin jaxdc-shape: field 'nested' of class 'Model': shape "b}" is malformed: 'b}' is not a valid expression (a '}' closes no '{'). Fix: write space-separated dimensions: sizes (3), names (n), expressions (n+1), and at most one *name or ... for any number of axes.
    plain_annotated: Annotated[jax.Array, "*a *b"]
    tree: PyTree[Float[Array, "n"], "T"]  # E: pyright,basedpyright reportUndefinedVariable  # E: pyrefly unknown-name  # E: zuban misc  # E: zuban name-defined
    optional: Optional[Float[Array, "... ..."]] = None  # E: mypy-plugin jaxdc-shape: field 'optional' of class 'Model': shape "... ..." is malformed: '...' and '...' both match any number of axes; a shape can have at most one variadic dimension (... or *name). Fix: write space-separated dimensions: sizes (3), names (n), expressions (n+1), and at most one *name or ... for any number of axes.
    union: Float[Array, "n"] | Float[Array, "*4"] | None = None  # E: mypy-plugin jaxdc-shape: field 'union' of class 'Model': shape "*4" is malformed: '*4': a fixed size cannot match several axes. Fix: write space-separated dimensions: sizes (3), names (n), expressions (n+1), and at most one *name or ... for any number of axes.


class Node(jdc.PyTreeNode):
    x: Float[Array, "n#"]  # E: mypy-plugin jaxdc-shape: field 'x' of class 'Node': shape "n#" is malformed: 'n#': write the broadcast marker # first (#n). Fix: write space-separated dimensions: sizes (3), names (n), expressions (n+1), and at most one *name or ... for any number of axes.


def build() -> type:
    from jaxtyping import Bool

    @jdc.pytree_dataclass
    class Local:
        mask: Bool[Array, "{n"]  # E: mypy-plugin jaxdc-shape: field 'mask' of class 'Local': shape "{n" is malformed: '{n' is not a valid expression (a '{' is never closed). Fix: write space-separated dimensions: sizes (3), names (n), expressions (n+1), and at most one *name or ... for any number of axes.

    return Local
