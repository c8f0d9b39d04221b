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
