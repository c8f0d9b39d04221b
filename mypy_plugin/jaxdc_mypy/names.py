"""The fully qualified names the plugin recognises.

They are the shared table (``_jaxdc_rules.names``): the stubs' module layout, the keys of
the metadata the plugin stores, and the class names the rules match. Re-exported here so
plugin modules read ``names.DECORATOR``. Importing it never imports mypy.
"""

from _jaxdc_rules.names import *  # noqa: F403
