"""`import jaxdc` stays light: no flax, no mypy, no pyright."""

from __future__ import annotations

import subprocess
import sys


def test_import_pulls_in_nothing_heavy() -> None:
    code = (
        "import sys, jaxdc; heavy = [m for m in ('flax', 'mypy', 'orbax', 'equinox', "
        "'jax_dataclasses', 'jaxdc_mypy') if m in sys.modules]; print(heavy)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_import_leaves_jax_backends_alone() -> None:
    """Importing jaxdc (or defining a class, even with shape checks) creates no array: that
    would start JAX's backends, after which `jax.config.update("jax_platforms", ...)` and
    XLA flags set by the importing program (or a test's conftest) no longer apply."""
    code = (
        "import jax._src.xla_bridge as xb, jaxdc, jax\n"
        "@jaxdc.pytree_dataclass(check_shapes=True)\n"
        "class A:\n"
        "    x: jax.Array\n"
        "    n: jaxdc.Static[int] = 1\n"
        "print(bool(xb._backends))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False", out.stderr


def test_public_api_is_a_drop_in_for_jax_dataclasses() -> None:
    import jaxdc

    for name in (
        "pytree_dataclass",
        "Static",
        "field",
        "static_field",
        "fields",
        "replace",
        "asdict",
        "astuple",
        "is_dataclass",
        "PyTreeNode",
    ):
        assert hasattr(jaxdc, name), name
