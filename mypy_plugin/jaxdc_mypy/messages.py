"""Diagnostic wording, shared with the runtime's class-definition check.

The static-field template and its reasons/fixes table are the ones in
docs/architecture.md ("Runtime errors"), so a user sees the same sentence from mypy and
from Python. Data fields get a template of the same shape that suggests ``Static[...]``.
Pure Python (no mypy import) so other code can reuse the wording.
"""

from __future__ import annotations

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
    """Why one part of a field's type is rejected.

    ``kind`` selects the reason/fix row; ``subject`` is the offending class's short name.
    """

    kind: str
    subject: str = ""
    path: tuple[str, ...] = ()
    """Dataclass fields leading to the offending part, outermost first ('Config.table')."""

    def where(self) -> str:
        return " (in " + " > ".join(f"'{step}'" for step in self.path) + ")" if self.path else ""


# kind -> (reason, fix). {T} is the offending type, {field} the field.
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
    "hash-none": (
        "'{T}' sets __hash__ to None",
        "use a hashable type, or make '{field}' a data field",
    ),
}
_JIT_FIXES = {
    "mutable": "use an immutable type such as tuple[...] or frozenset[...], or drop Static[...] from '{field}'",
    "array": "drop Static[...] from '{field}' so the array is traced",
    "hash-none": "use a hashable type, or drop Static[...] from '{field}'",
}
_DATA_ROWS = {
    "not-array": (
        "'{T}' is not an array type or a pytree class",
        "declare it Static[{type}] if it is configuration, or list '{T}' under "
        "extra_pytree_bases or extra_array_types in [tool.jaxdc-mypy] if JAX can trace it",
    ),
    "callable": (
        "a callable is not an array",
        "declare it Static[{type}] (functions are hashable)",
    ),
    "class-object": (
        "a class object is not an array",
        "declare it Static[{type}]",
    ),
    "text": (
        "'{T}' is not an array type",
        "declare it Static[{type}] if it is configuration",
    ),
}


def static_unhashable(field: str, cls: str, type_: str, problem: Problem) -> str:
    reason, fix = _STATIC_ROWS[problem.kind]
    values = {"T": problem.subject, "field": field, "type": type_}
    return STATIC_TEMPLATE.format(
        field=field,
        cls=cls,
        type=type_,
        reason=reason.format(**values) + problem.where(),
        fix=fix.format(**values),
    )


def jit_static_unhashable(param: str, function: str, type_: str, problem: Problem) -> str:
    reason, fix = _STATIC_ROWS[problem.kind]
    fix = _JIT_FIXES.get(problem.kind, fix)
    values = {"T": problem.subject, "field": param, "type": type_}
    return JIT_STATIC_TEMPLATE.format(
        field=param,
        cls=function,
        type=type_,
        reason=reason.format(**values) + problem.where(),
        fix=fix.format(**values),
    )


def data_not_arraylike(field: str, cls: str, type_: str, problem: Problem) -> str:
    reason, fix = _DATA_ROWS[problem.kind]
    values = {"T": problem.subject, "field": field, "type": type_}
    return DATA_TEMPLATE.format(
        field=field, cls=cls, type=type_, reason=reason.format(**values), fix=fix.format(**values)
    )


def data_any(field: str, cls: str, type_: str) -> str:
    return ANY_TEMPLATE.format(field=field, cls=cls, type=type_)
