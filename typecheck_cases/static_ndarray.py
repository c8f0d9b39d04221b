"""Static[...] rejects a NumPy array: `np.ndarray`."""

import numpy as np

from jaxdc import Static, pytree_dataclass


@pytree_dataclass  # runtime: raises TypeError
class Model:
    config: Static[np.ndarray]  # E: pyright,basedpyright reportInvalidTypeForm  # E: ty invalid-type-arguments  # E: pyrefly bad-specialization  # E: zuban,mypy type-var  # E: mypy-plugin jaxdc-static: static field 'config' of class 'Model' has unhashable type 'numpy.ndarray': arrays are not hashable. Static values are part of the treedef and used as jit cache keys, so they must be hashable. Fix: make 'config' a data field (drop Static[...] / static=True).
