"""jaxdc: typed JAX pytree dataclasses (runtime core being written)."""
