"""How the runtime shows classes and arrays in messages and reprs, and what counts as an array.

A leaf: every module that writes a message imports it, and it imports nothing from jaxdc.
The class-display rule itself is the shared one (``_jaxdc_rules.messages.class_display``),
so the mypy plugin names classes the same way (``Outer.Inner``).
"""

from __future__ import annotations

from typing import Any

import jax
import numpy as np
from _jaxdc_rules.messages import class_display

__all__ = ["ARRAYS", "ARRAYS_AND_SCALARS", "array_summary", "class_name", "is_array"]

ARRAYS = (jax.Array, np.ndarray)
"""Array types: data, never static (their hash could not follow their ``==``)."""
ARRAYS_AND_SCALARS = (*ARRAYS, np.generic)
"""Arrays and NumPy scalars: compared and printed by dtype, shape and value."""

_DTYPE_PREFIXES = (("bfloat", "bf"), ("complex", "c"), ("float", "f"), ("uint", "u"), ("int", "i"))


def class_name(klass: type) -> str:
    """A class as shown in messages: its qualified name without `<locals>` noise."""
    return class_display(klass.__qualname__)


def is_array(value: Any) -> bool:
    return isinstance(value, ARRAYS)


def array_summary(x: Any) -> str:
    """`f32[3,4]` for a jax array (also a traced one), `f32[3,4](numpy)` for a numpy one,
    `key<fry>[2]` for PRNG keys."""
    name = (
        str(x.dtype)
        if jax.dtypes.issubdtype(x.dtype, jax.dtypes.extended)
        else np.dtype(x.dtype).name
    )
    short = next((s + name[len(p) :] for p, s in _DTYPE_PREFIXES if name.startswith(p)), name)
    text = f"{short}[{','.join(map(str, np.shape(x)))}]"
    return text + "(numpy)" if isinstance(x, (np.ndarray, np.generic)) else text
