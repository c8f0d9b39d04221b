"""tree_diff and the retrace switches: typed results, settable switches, a wrong type caught."""

import jax
import jax.numpy as jnp
from typing_extensions import assert_type

import jaxdc
from jaxdc import PyTreeNode, Static, TreeDifference


class Opt(PyTreeNode):
    w: jax.Array
    lr: Static[float]


old, new = Opt(jnp.ones(2), 0.1), Opt(jnp.ones(2), 0.2)
differences = jaxdc.tree_diff(old, new)
assert_type(differences, list[TreeDifference])
(first,) = differences
assert_type(first.path, str)
assert_type(first.field, str | None)
assert first.kind == "static" and first.field == "lr" and first.old == 0.1
assert_type(jaxdc.config, jaxdc.Config)
assert issubclass(jaxdc.RetraceWarning, UserWarning)
settings = jaxdc.Config(explain_retraces=True)  # jaxdc.config is one of these
settings.retrace_warning_after = None
settings.retrace_warning_after = 8
settings.retrace_warning_after = "8"  # E: pyright,basedpyright reportAttributeAccessIssue  # E: ty invalid-assignment  # E: pyrefly bad-assignment  # E: zuban,mypy,mypy-plugin assignment  # runtime: raises TypeError
