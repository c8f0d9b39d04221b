"""Diagnostic wording, shared with the runtime's class-definition check.

The static-field sentence and its reasons/fixes are the runtime's
(``jaxdc._hashability``, docs/architecture.md "Runtime errors"), so a user reads the same
words from mypy and from Python. Data fields get a sentence of the same shape that
suggests ``Static[...]``. Pure Python (no mypy import) so other code can reuse it.
"""

from __future__ import annotations

import re
from typing import NamedTuple

STATIC_TEMPLATE = (
    "static field '{field}' of class '{cls}' has unhashable type '{type}': {reason}. "
    "Static values are part of the treedef and used as jit cache keys, so they must be "
    "hashable. Fix: {fix}."
)
JIT_STATIC_TEMPLATE = (
    "static parameter '{field}' of jitted function '{cls}' has unhashable type '{type}': "
    "{reason}. Static arguments are used as jit cache keys, so they must be hashable. "
    "Fix: {fix}."
)
DATA_TEMPLATE = (
    "data field '{field}' of class '{cls}' has type '{type}', which is not array-like: "
    "{reason}. Data fields are pytree children that JAX traces as arrays. Fix: {fix}."
)
ANY_TEMPLATE = (
    "data field '{field}' of class '{cls}' has type '{type}', so it is not checked to be "
    "array-like. Fix: annotate it with an array type such as jax.Array, or declare it "
    "Static[...] if it is configuration."
)


class Problem(NamedTuple):
    """The offending part of a field's type and why (a row of the tables below)."""

    kind: str
    subject: str = ""
    """Short name of the offending class."""
    part: str = ""
    """The offending part of the type, as shown in the message."""
    via: str = ""
    """For a frozen dataclass: its field that holds the unhashable value."""
    inner: Problem | None = None
    """For a frozen dataclass: that field's own problem."""


# kind -> (reason, fix); {T}: offending class, {field}: the field or parameter.
_STATIC_ROWS = {
    "mutable": (
        "'{T}' is mutable and not hashable",
        "use an immutable type such as tuple[...] or frozenset[...], or make '{field}' a data field",
    ),
    "array": (
        "arrays are not hashable",
        "make '{field}' a data field (drop Static[...] / static=True)",
    ),
    "not-frozen": (
        "dataclass '{T}' is not frozen",
        "declare '{T}' with @dataclass(frozen=True)",
    ),
    "eq-without-hash": (
        "'{T}' defines __eq__ but not __hash__",
        "define __hash__ on '{T}'",
    ),
    "frozen-field": (
        "frozen dataclass '{T}' has field '{via}' of unhashable type '{inner_type}' ({inner_reason})",
        "make '{field}' a data field, or give '{T}.{via}' a hashable type",
    ),
}
# A jit parameter is not a field: where the runtime's fix says "data field", say this.
_JIT_FIXES = {
    "mutable": "use an immutable type such as tuple[...] or frozenset[...], or drop Static[...] from '{field}'",
    "array": "drop Static[...] from '{field}' so the array is traced",
    "frozen-field": "drop Static[...] from '{field}', or give '{T}.{via}' a hashable type",
}
_DATA_ROWS = {
    "not-array": (
        "'{T}' is not an array type or a pytree class",
        "declare it Static[{type}] if it is configuration, or list '{T}' under "
        "extra_pytree_bases or extra_array_types in [tool.jaxdc-mypy] if JAX can trace it",
    ),
    "text": (
        "'{T}' is not an array type",
        "declare it Static[{type}] if it is configuration",
    ),
    "callable": (
        "a callable is not an array",
        "declare it Static[{type}] (functions are hashable)",
    ),
    "class-object": (
        "a class object is not an array",
        "declare it Static[{type}]",
    ),
}


def _reason(problem: Problem, field: str) -> str:
    values = {"T": problem.subject, "via": problem.via, "field": field}
    if problem.inner is not None:
        values["inner_type"] = problem.inner.part
        values["inner_reason"] = _reason(problem.inner, field)
    return _STATIC_ROWS[problem.kind][0].format(**values)


def static_unhashable(field: str, cls: str, problem: Problem) -> str:
    return _unhashable(STATIC_TEMPLATE, field, cls, problem, _STATIC_ROWS[problem.kind][1])


def jit_static_unhashable(param: str, function: str, problem: Problem) -> str:
    fix = _JIT_FIXES.get(problem.kind, _STATIC_ROWS[problem.kind][1])
    return _unhashable(JIT_STATIC_TEMPLATE, param, function, problem, fix)


def _unhashable(template: str, name: str, owner: str, problem: Problem, fix: str) -> str:
    """Fill a static-field or jit-parameter template: `name` of `owner` is unhashable."""
    return template.format(
        field=name,
        cls=owner,
        type=problem.part,
        reason=_reason(problem, name),
        fix=fix.format(T=problem.subject, via=problem.via, field=name),
    )


def data_not_arraylike(field: str, cls: str, type_: str, problem: Problem) -> str:
    reason, fix = _DATA_ROWS[problem.kind]
    values = {"T": problem.subject, "field": field, "type": type_}
    return DATA_TEMPLATE.format(
        field=field, cls=cls, type=type_, reason=reason.format(**values), fix=fix.format(**values)
    )


def data_any(field: str, cls: str, type_: str) -> str:
    return ANY_TEMPLATE.format(field=field, cls=cls, type=type_)


# The runtime's words for the same mistakes (jaxdc._frozen, jaxdc._mutation).
NOT_A_PATH = (
    "jaxdc.attr() expects a function returning an attribute path of its argument, such as "
    "`lambda o: o.a.b`"
)


def excluded_in_construction(field: str, cls: str) -> str:
    return (
        f"field '{field}' of class '{cls}' is not part of the pytree (init=False or "
        "pytree=False), so a value computed during construction would be lost after "
        "jit/vmap/tree_map (jaxdc never re-runs __init__/__post_init__ on unflatten). Fix: "
        "declare it jaxdc.field(init=False, pytree=True) to carry it, or compute it in a "
        "property."
    )


def frozen_assignment(path: str | None, cls: str) -> str:
    target = f"field '{path}'" if path else "a field"
    first = re.split(r"[.[]", path, maxsplit=1)[0] if path else "field"
    example = path or "field"
    return (
        f"cannot assign to {target} of '{cls}' here: jaxdc instances are frozen, like "
        "JAX arrays; fields can be set only on `self` in __init__/__post_init__ or inside "
        f"`with jaxdc.copy_and_mutate(...)`. Fix: jaxdc.replace(obj, {first}=...), or "
        f"`with jaxdc.copy_and_mutate(obj) as new: jaxdc.attr(new, lambda n: n.{example}).set(...)`."
    )
