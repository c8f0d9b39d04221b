"""How the runtime shows classes and arrays in messages and reprs, and what counts as an array.

A leaf: every module that writes a message imports it, and it imports nothing from jaxdc.
The class-display rule itself is the shared one (``_jaxdc_rules.messages.class_display``),
so the mypy plugin names classes the same way (``Outer.Inner``).
"""

from __future__ import annotations

import inspect
import types
from typing import Any

import jax
import numpy as np
from _jaxdc_rules import messages
from _jaxdc_rules.messages import class_display

__all__ = [
    "ARRAYS",
    "ARRAYS_AND_SCALARS",
    "array_summary",
    "class_name",
    "given",
    "is_array",
    "type_shown",
    "wrong_kind",
]

ARRAYS = (jax.Array, np.ndarray)
"""Array types: data, never static (their hash could not follow their ``==``)."""
ARRAYS_AND_SCALARS = (*ARRAYS, np.generic)
"""Arrays and NumPy scalars: compared and printed by dtype, shape and value."""

_FUNCTIONS = (types.FunctionType, types.BuiltinFunctionType, types.MethodType)
_SHOWN_BY_VALUE = (int, float, complex, bool, str, bytes)
_DTYPE_PREFIXES = (("bfloat", "bf"), ("complex", "c"), ("float", "f"), ("uint", "u"), ("int", "i"))


def class_name(klass: type) -> str:
    """A class as shown in messages: its qualified name without `<locals>` noise."""
    return class_display(klass.__qualname__)


def type_shown(value: Any) -> str:
    """The type of `value` as messages name it: `jax.Array` and `numpy.ndarray` by their
    public names (not `ArrayImpl`), other classes by `class_name`."""
    if isinstance(value, jax.Array):
        return "jax.Array"
    if isinstance(value, np.ndarray):
        return "numpy.ndarray"
    return class_name(type(value))


def given(obj: Any) -> str:
    """What a public function was given, for its wrong-kind error: the class, the function,
    or the instance (with its value, for short numbers and strings: the `__repr__` of a
    user's object, or of a container holding one, is never called from an error path)."""
    if isinstance(obj, type):
        return messages.given("class", class_name(obj))
    if obj is None:
        return messages.given("none")
    if isinstance(obj, ARRAYS):
        return messages.given("array", value=array_summary(obj))
    if isinstance(obj, types.ModuleType):
        return messages.given("module", obj.__name__)
    # A function, or a wrapper of one (functools.wraps); read without running any code
    # (another object's attributes may be a user's `__getattr__` or properties).
    name = inspect.getattr_static(obj, "__qualname__", None) if callable(obj) else None
    if isinstance(name, str) or isinstance(obj, _FUNCTIONS):
        qualname = name if isinstance(name, str) else obj.__qualname__
        return messages.given("function", class_display(qualname))
    shown = repr(obj) if type(obj) in _SHOWN_BY_VALUE else ""
    return messages.given("instance", class_name(type(obj)), shown if len(shown) <= 40 else "")


def wrong_kind(function: str, expected: str, obj: Any, fix: str = "") -> str:
    """The message for `function` given `obj` where it needs `expected`: a class given
    where an instance is needed gets the fix that says so."""
    if not fix and isinstance(obj, type) and expected.startswith("an instance"):
        fix = messages.PASS_AN_INSTANCE
    return messages.wrong_argument(function, expected, given(obj), fix)


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
