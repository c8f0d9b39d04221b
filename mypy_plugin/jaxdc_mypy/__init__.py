"""jaxdc_mypy: a mypy plugin that catches pytree misuse before tracing.

Enable it with ``plugins = ["jaxdc_mypy"]`` under ``[tool.mypy]``. This module stays
light (no mypy or jax import at import time); mypy calls :func:`plugin`. The rules and
the wording it applies are the runtime's, shared through ``_jaxdc_rules``.
"""

from __future__ import annotations

# mypy records the entry module's __version__ with every cache entry, so a release
# invalidates caches. It comes from the one place the version is written, the rules
# package's __init__ (a literal: importing it loads nothing else; importlib.metadata would
# cost every mypy run ~10 ms).
from _jaxdc_rules import __version__ as __version__

# The layout of the metadata the plugin stores on mypy's classes (``fields.record_fields``,
# ``dataclass_options.store``), which mypy caches. mypy drops every cache entry when this
# file changes, also those ``report_config_data`` leaves alone (installed packages): change
# this number when the layout changes, so that no entry of an older layout is read.
METADATA_LAYOUT = 2


def plugin(version: str) -> type:
    """mypy's entry point: return the plugin class (imported only now).

    The class lives in ``hooks``, not in a submodule named ``plugin``: importing such a
    submodule would replace this function with the module (the daemon then fails).
    """
    from .hooks import JaxdcPlugin

    return JaxdcPlugin
