"""`==` and `hash` of jaxdc instances: never "the truth value of an array is ambiguous".

Semantics of `a == b` (a Python bool, always):
- `a is b` is True (so an instance is always found in lists and dicts holding it);
- otherwise both must be of exactly the same class, and each field with `compare=True`
  (dataclasses' rule) must be equal:
  - arrays (jax, numpy, numpy scalars): same shape, same dtype and equal elements (NaN is
    unequal to itself, as with `==`); an array never equals a non-array;
  - lists, tuples and dicts: same type and length/keys, items equal by these rules;
  - anything else, including nested jaxdc instances: its own `==`.
- Under `jit`/`vmap`/`grad` a field holding a traced array has no concrete value, so `==`
  raises a `TypeError` naming the class and field. It does not return a traced boolean:
  `==` must give a Python bool (lists, dicts, `in` and `if` rely on it). Compare traced
  trees explicitly, e.g. `jax.tree.map(jnp.array_equal, a, b)`.

`hash(obj)` hashes the class and the hashed fields, as dataclasses do, so equal instances
have equal hashes. An instance holding an array is not hashable: its hash could not follow
`==` (which compares values) without copying and hashing every array, and jaxdc's rule is
that arrays are never static (jit cache keys). The error names the field.

Installed by the decorator unless the class defines `__eq__` itself or is declared with
`eq=False` (then identity, as for any object); `__hash__` is replaced only where
dataclasses would generate one.

Static metadata (the treedef's part of an instance) is compared by JAX with `==` when jit
looks up its compiled code. On the migration path a static may hold a value `hash()`
rejects (a dict, an array); such statics are stored as `LenientStatics`, whose comparison
(`statics_equal`) names the class, the field and the fix where `==` gives no bool.
"""

from __future__ import annotations

import dataclasses
from typing import Any, cast

import jax
import numpy as np
from _jaxdc_rules import messages

from jaxdc._display import ARRAYS_AND_SCALARS as _ARRAYS, class_name, is_array, type_shown
from jaxdc._spec import SPEC_ATTR, ClassSpec

__all__ = ["LenientStatics", "statics_equal", "tree_eq", "tree_hash"]


def tree_eq(self: Any, other: Any) -> Any:
    """`__eq__` of jaxdc classes."""
    if self is other:
        return True
    if other.__class__ is not self.__class__ and _cls(other) is not _cls(self):
        return NotImplemented
    for f in dataclasses.fields(self):
        if f.compare and not _equal(getattr(self, f.name), getattr(other, f.name), self, f.name):
            return False
    return True


def tree_hash(self: Any) -> int:
    """`__hash__` of jaxdc classes: the class and the fields dataclasses would hash."""
    values = tuple(
        getattr(self, f.name)
        for f in dataclasses.fields(self)
        if (f.hash is None and f.compare) or f.hash
    )
    try:
        return hash((_cls(self), values))
    except TypeError:
        hashed = (f for f in dataclasses.fields(self) if (f.hash is None and f.compare) or f.hash)
        for f, value in zip(hashed, values, strict=True):
            try:
                hash(value)
            except TypeError:
                what = "an array" if _holds_array(value) else f"a '{type(value).__name__}'"
                message = messages.instance_unhashable(class_name(type(self)), f.name, what)
                raise TypeError(message) from None
        raise


# What the shared hashability rule reads: this `__hash__` stands where dataclasses
# generated one, and like it hashes the fields.
tree_hash.__jaxdc_generated__ = True  # type: ignore[attr-defined]


def _cls(obj: Any) -> type:
    """The jaxdc class of `obj`: a `copy_and_mutate` view counts as its user class."""
    spec = getattr(type(obj), SPEC_ATTR, None)
    return spec.cls if isinstance(spec, ClassSpec) else type(obj)


def _holds_array(value: Any) -> bool:
    return any(isinstance(leaf, _ARRAYS) for leaf in jax.tree.leaves(value))


def _equal(a: Any, b: Any, owner: Any, name: str) -> bool:
    if a is b:
        return True
    if isinstance(a, _ARRAYS) or isinstance(b, _ARRAYS):
        if not (isinstance(a, _ARRAYS) and isinstance(b, _ARRAYS)):
            return False
        if isinstance(a, jax.core.Tracer) or isinstance(b, jax.core.Tracer):
            raise TypeError(messages.traced_comparison(class_name(type(owner)), name))
        if a.shape != b.shape or a.dtype != b.dtype:
            return False
        if jax.dtypes.issubdtype(a.dtype, jax.dtypes.extended):  # PRNG keys: numpy can't
            # (only jax key arrays have an extended dtype, so both are jax.Arrays here)
            a, b = jax.random.key_data(cast(jax.Array, a)), jax.random.key_data(cast(jax.Array, b))
        return bool(np.array_equal(a, b))
    kind = type(a)
    if kind is not type(b):
        return bool(a == b)  # e.g. 1 == 1.0, as in dataclasses' tuple comparison
    if kind is list or kind is tuple or (isinstance(a, tuple) and hasattr(kind, "_fields")):
        return len(a) == len(b) and all(
            _equal(x, y, owner, name) for x, y in zip(a, b, strict=True)
        )
    if kind is dict:
        return a.keys() == b.keys() and all(_equal(a[k], b[k], owner, name) for k in a)
    return bool(a == b)


class LenientStatics(tuple):  # type: ignore[type-arg]
    """The static values of an instance whose class (declared on the migration path) holds
    one that `hash()` rejects. A tuple to JAX and to jaxdc's generated code; only `==` and
    `!=` differ: they go through `statics_equal`."""

    owner: type
    names: tuple[str, ...]

    @classmethod
    def of(cls, owner: type, names: tuple[str, ...], values: tuple[Any, ...]) -> LenientStatics:
        statics = cls(values)
        statics.owner, statics.names = owner, names
        return statics

    def __reduce__(self) -> tuple[Any, ...]:
        return LenientStatics.of, (self.owner, self.names, tuple(self))

    def __eq__(self, other: object) -> bool:
        return statics_equal(self, other)

    def __ne__(self, other: object) -> bool:
        return not statics_equal(self, other)

    __hash__ = tuple.__hash__


def statics_equal(statics: LenientStatics, other: object) -> bool:
    """`statics == other`, field by field, identity first (as tuples compare). A value whose
    `==` gives no bool (an array: "truth value ... is ambiguous") raises a `TypeError`
    naming the class, the field and the fix instead."""
    if not isinstance(other, tuple) or len(other) != len(statics):
        return False
    for name, a, b in zip(statics.names, statics, other, strict=True):
        if a is b:
            continue
        try:
            if not (a == b):
                return False
        except Exception as exc:  # any error of a user's `==`, named here
            value = b if is_array(b) and not is_array(a) else a  # the array, if either is
            message = messages.static_value_not_comparable(
                name, class_name(statics.owner), type_shown(value), f"{type(exc).__name__}: {exc}"
            )
            raise TypeError(message) from None
    return True
