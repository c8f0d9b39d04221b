"""`frozen=False` on jaxdc's own decorator: jaxdc classes are always frozen."""

import jax

import jaxdc


@jaxdc.pytree_dataclass(frozen=False)  # E: mypy-plugin jaxdc-decorator: pytree_dataclass(frozen=False): jaxdc classes are always frozen, like JAX arrays (a mutable pytree node breaks jit caching and tracing). Fix: drop frozen=False; edit instances with jaxdc.replace(...) or jaxdc.copy_and_mutate(...).  # runtime: raises TypeError
class Params:
    w: jax.Array
