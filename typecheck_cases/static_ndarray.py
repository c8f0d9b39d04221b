"""Static[...] rejects a NumPy array: `np.ndarray`."""

import numpy as np

from jaxdc import Static, pytree_dataclass


@pytree_dataclass  # runtime: raises TypeError
class Model:
    config: Static[np.ndarray]  # E: pyright reportInvalidTypeForm  # E: mypy type-var  # E: mypy jaxdc-static
