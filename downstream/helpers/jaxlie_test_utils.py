"""Test helpers jaxlie's tests import (`from utils import ...`).

jaxlie's sdist ships `tests/test_*.py` but not the `tests/utils.py` they import, so
`run.py` places this file there, in both the baseline and the jaxdc copy. It is written
for this suite from how the tests call each helper; it uses only jaxlie's public API and
never touches the pytree library, so it cannot favour either run. Hypothesis example
counts are one per case to keep the package within its time budget.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import jax
import jaxlie
import numpy as onp
import pytest
from hypothesis import given, settings, strategies as st

jax.config.update("jax_enable_x64", True)

GROUPS = (jaxlie.SO2, jaxlie.SE2, jaxlie.SO3, jaxlie.SE3)
BATCH_AXES = ((), (3, 1))  # unbatched and a 2-d batch: each shape compiles anew


def general_group_test(f: Callable[..., Any], max_examples: int = 1) -> Callable[..., Any]:
    """Run `f(Group, batch_axes)` for every group and batch shape, with hypothesis
    seeding numpy's random state (one example each: every example compiles anew)."""

    # Not functools.wraps: hypothesis reads the wrapper's own signature.
    def run(Group: Any, batch_axes: tuple[int, ...], _random_module: Any) -> None:
        f(Group, batch_axes)

    run.__name__ = run.__qualname__ = f.__name__
    run = given(_random_module=st.random_module())(run)
    run = settings(deadline=None, max_examples=min(max_examples, 1))(run)
    run = pytest.mark.parametrize("batch_axes", BATCH_AXES)(run)
    return pytest.mark.parametrize("Group", GROUPS)(run)


general_group_test_faster = general_group_test


def sample_transform(Group: Any, batch_axes: tuple[int, ...] = ()) -> Any:
    """A random element (numpy's seed is set by hypothesis' random_module)."""
    key = jax.random.PRNGKey(onp.random.randint(0, 2**31 - 1))
    return Group.sample_uniform(key, batch_axes=batch_axes)


def assert_arrays_close(*arrays: Any, rtol: float = 1e-6, atol: float = 1e-6) -> None:
    first = onp.asarray(arrays[0])
    for other in arrays[1:]:
        onp.testing.assert_allclose(first, onp.asarray(other), rtol=rtol, atol=atol)


def assert_transforms_close(a: Any, b: Any) -> None:
    """Same transformation and same parameters, a quaternion `q` matching `-q`."""
    assert_arrays_close(a.as_matrix(), b.as_matrix())
    pa, pb = onp.asarray(a.parameters()), onp.array(b.parameters())
    if isinstance(a, (jaxlie.SO3, jaxlie.SE3)):  # parameters start with a quaternion wxyz
        flip = onp.sum(pa[..., :4] * pb[..., :4], axis=-1, keepdims=True) < 0
        pb[..., :4] = onp.where(flip, -pb[..., :4], pb[..., :4])
    assert_arrays_close(pa, pb)


def jacnumerical(f: Callable[[Any], Any], eps: float = 1e-5) -> Callable[[Any], Any]:
    """Central-difference Jacobian of `f` at a 1-D primal: shape (out, in)."""

    def jac(primal: Any) -> Any:
        primal = onp.asarray(primal, dtype=onp.float64)
        columns = []
        for i in range(primal.shape[0]):
            step = onp.zeros_like(primal)
            step[i] = eps
            diff = onp.asarray(f(primal + step)) - onp.asarray(f(primal - step))
            columns.append(diff.reshape(-1) / (2 * eps))
        return onp.stack(columns, axis=-1)

    return jac
