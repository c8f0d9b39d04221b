"""Importing jaxdc_mypy is cheap: no jax ever, and no mypy until mypy asks for the plugin."""

from __future__ import annotations

import subprocess
import sys

# The wording lives in the shared, pure `_jaxdc_rules`; jaxdc_mypy.messages pairs it with
# mypy error codes, so it imports mypy.
PURE = ["jaxdc_mypy", "jaxdc_mypy.config", "jaxdc_mypy.names", "_jaxdc_rules.messages"]


def _loaded_after(statements: str) -> set[str]:
    code = f"import sys\n{statements}\nprint('\\n'.join(sorted(sys.modules)))"
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return set(proc.stdout.split())


def test_package_and_pure_modules_import_neither_mypy_nor_jax() -> None:
    loaded = _loaded_after("\n".join(f"import {name}" for name in PURE))
    assert not {m for m in loaded if m.split(".")[0] in ("mypy", "jax", "numpy")}


def test_plugin_class_never_imports_jax() -> None:
    loaded = _loaded_after("import jaxdc_mypy\nplugin_class = jaxdc_mypy.plugin('2.0')")
    assert "jaxdc_mypy.hooks" in loaded
    assert not {m for m in loaded if m.split(".")[0] in ("jax", "jaxlib", "numpy")}


def test_a_run_that_calls_no_hook_loads_neither_rules_nor_wording() -> None:
    """Every mypy run makes the plugin (a warm run does only that): it reads the settings
    and the source digest, and leaves the rule modules and the shared wording unloaded."""
    loaded = _loaded_after(
        "import jaxdc_mypy\nfrom mypy.options import Options\n"
        "options = Options()\noptions.config_file = 'pyproject.toml'\n"
        "jaxdc_mypy.plugin('2.0')(options)"
    )
    assert "jaxdc_mypy.config" in loaded
    lazy = {"jaxdc_mypy.handlers", "_jaxdc_rules.messages"}
    assert not lazy & loaded


def test_version_is_the_distribution_version() -> None:
    # mypy keys its cache on the entry module's __version__; a release must change it.
    from importlib import metadata

    import jaxdc_mypy

    assert jaxdc_mypy.__version__ == metadata.version("jaxdc")
