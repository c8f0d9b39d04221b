"""Cases the jaxdc_mypy plugin has most to say about (a package: `pkg` imports its own modules)."""
