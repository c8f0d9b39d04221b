"""`# type: ignore[jaxdc-static]` silences the plugin on that line only."""

import jax

from jaxdc import Static, pytree_dataclass


@pytree_dataclass  # runtime: raises TypeError
class Model:
    config: Static[jax.Array]  # type: ignore[jaxdc-static]  # E: ty invalid-type-arguments  # E: zuban,mypy type-var  # E: mypy unused-ignore
