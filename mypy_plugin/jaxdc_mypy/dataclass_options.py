"""Dataclass options mypy does not record, which decide whether a dataclass is hashable.

Python generates ``__hash__`` from a dataclass's fields when ``frozen=True`` (with the
default ``eq=True``) or ``unsafe_hash=True``; ``eq=True`` without ``frozen`` sets it to
None; ``eq=False`` keeps the inherited identity hash. Fields declared ``hash=False`` (or
``compare=False``) are left out. mypy's dataclass metadata keeps ``frozen`` only, so the
semantic-analysis hooks read the rest from the class definition as written and store it
in ``TypeInfo.metadata`` (JSON: it survives the cache, ``-n`` workers and the daemon).
"""

from __future__ import annotations

from mypy.nodes import AssignmentStmt, CallExpr, Expression, NameExpr, RefExpr, TypeInfo

from . import names

# Calls whose ``hash=``/``compare=`` keywords are dataclasses' (field specifiers).
_FIELD_SPECIFIERS = frozenset(
    {
        names.STDLIB_FIELD,
        names.FIELD,
        names.STATIC_FIELD,
        names.COMPAT_FLAX_FIELD,
        names.JAX_TREE_STATIC,
        "flax.struct.field",
        "equinox.field",
    }
)
_UNKNOWN = object()


def record(info: TypeInfo, keywords: dict[str, Expression]) -> None:
    """Store ``eq``/``unsafe_hash`` (the decorator's or class keywords) and which of the
    fields the class declares are left out of its hash."""
    eq = _literal_bool(keywords.get("eq"), True)
    unsafe_hash = _literal_bool(keywords.get("unsafe_hash"), False)
    if _UNKNOWN in (eq, unsafe_hash):  # not literals: assume the identity hash (no alarm)
        eq = unsafe_hash = False
    options: dict[str, object] = {"eq": eq, "unsafe_hash": unsafe_hash}
    hashed = {}
    for stmt in info.defn.defs.body:
        call = _field_call(stmt)
        if call is None:
            continue
        args = {n: a for n, a in zip(call.arg_names, call.args, strict=True) if n}
        in_hash = _literal_bool(args.get("hash"), None)
        compare = _literal_bool(args.get("compare"), True)
        if in_hash is None:
            in_hash = compare
        if in_hash is not True:  # False, or not a literal: not provably hashed
            assert isinstance(stmt, AssignmentStmt) and isinstance(stmt.lvalues[0], NameExpr)
            hashed[stmt.lvalues[0].name] = False
    options["hashed"] = hashed
    info.metadata[names.HASH_METADATA_KEY] = options


def options_of(info: TypeInfo) -> tuple[bool, bool]:
    """(eq, unsafe_hash) of a dataclass; dataclasses' defaults where nothing was stored,
    except under a base that generates a hash (``names.HASHED_DATACLASS_BASES``)."""
    stored = info.metadata.get(names.HASH_METADATA_KEY)
    if stored is None:
        hashed_by_base = "__hash__" not in info.names and any(
            base.fullname in names.HASHED_DATACLASS_BASES for base in info.mro
        )
        return True, hashed_by_base
    return bool(stored.get("eq", True)), bool(stored.get("unsafe_hash", False))


def hashed_fields(info: TypeInfo) -> dict[str, bool]:
    """Field name -> whether the generated ``__hash__`` uses it (absent: it does)."""
    merged: dict[str, bool] = {}
    for base in reversed(info.mro):
        merged.update(base.metadata.get(names.HASH_METADATA_KEY, {}).get("hashed", {}))
    return merged


def decorator_keywords(decorator: Expression) -> dict[str, Expression]:
    """``@dataclass(eq=False)`` -> {"eq": <False>}; nothing for a bare ``@dataclass``."""
    if not isinstance(decorator, CallExpr):
        return {}
    return {n: a for n, a in zip(decorator.arg_names, decorator.args, strict=True) if n}


def _field_call(stmt: object) -> CallExpr | None:
    if not isinstance(stmt, AssignmentStmt) or len(stmt.lvalues) != 1:
        return None
    if not isinstance(stmt.lvalues[0], NameExpr) or not isinstance(stmt.rvalue, CallExpr):
        return None
    callee = stmt.rvalue.callee
    if isinstance(callee, RefExpr) and callee.fullname in _FIELD_SPECIFIERS:
        return stmt.rvalue
    return None


def _literal_bool(expr: Expression | None, default: object) -> object:
    if expr is None:
        return default
    if isinstance(expr, NameExpr) and expr.fullname in ("builtins.True", "builtins.False"):
        return expr.fullname == "builtins.True"
    return _UNKNOWN
