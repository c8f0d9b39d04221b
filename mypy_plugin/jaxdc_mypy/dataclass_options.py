"""Dataclass options mypy does not record, which decide whether a dataclass is hashable.

Python generates ``__hash__`` from a dataclass's fields when ``frozen=True`` (with the
default ``eq=True``) or ``unsafe_hash=True``; ``eq=True`` without ``frozen`` sets it to
None; ``eq=False`` keeps the inherited identity hash. Fields declared ``hash=False`` (or
``compare=False``) are left out. mypy's dataclass metadata keeps ``frozen`` only, so the
semantic-analysis hooks read the rest from the class definition as written and store it
in ``TypeInfo.metadata`` (JSON: it survives the cache, ``-n`` workers and the daemon).
"""

from __future__ import annotations

from mypy.nodes import (
    AssignmentStmt,
    CallExpr,
    Expression,
    NameExpr,
    RefExpr,
    Statement,
    TypeInfo,
)

from . import names

# Calls whose ``hash=``/``compare=`` keywords are dataclasses' (field specifiers).
FIELD_SPECIFIERS = frozenset(
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
    fields the class declares are left out of its hash: for a dataclass whose fields the
    plugin does not otherwise read (jaxdc classes: ``fields.record_fields`` finds them in
    the pass that records the fields' kinds, and calls ``store``)."""
    unhashed = []
    for stmt in info.defn.defs.body:
        declared = _declared_by_call(stmt)
        if declared is None:
            continue
        name, callee, call = declared
        if left_out_of_hash(callee.fullname, keywords_of(call)):
            unhashed.append(name)
    store(info, keywords, unhashed)


def store(info: TypeInfo, keywords: dict[str, Expression], unhashed: list[str]) -> None:
    """Store the options, and the fields ``unhashed`` (see ``left_out_of_hash``).

    Only what differs from dataclasses' defaults is written (most classes: an empty dict,
    which still says the options were read): mypy writes it to the cache for every class,
    and the readers (``options_of``, ``hashed_fields``) take the defaults for what is not
    there."""
    eq = _literal_bool(keywords.get("eq"), True)
    unsafe_hash = _literal_bool(keywords.get("unsafe_hash"), False)
    if _UNKNOWN in (eq, unsafe_hash):  # not literals: assume the identity hash (no alarm)
        eq = unsafe_hash = False
    stored: dict[str, object] = {}
    if eq is not True:
        stored["eq"] = eq
    if unsafe_hash is not False:
        stored["unsafe_hash"] = unsafe_hash
    if unhashed:
        stored["hashed"] = dict.fromkeys(unhashed, False)
    info.metadata[names.HASH_METADATA_KEY] = stored


def left_out_of_hash(callee: str | None, keywords: dict[str, Expression]) -> bool:
    """Whether the field declared by a call of ``callee`` with these keywords is not
    provably in the generated hash (``hash=False``, ``compare=False``, or not literals)."""
    if callee not in FIELD_SPECIFIERS:
        return False
    in_hash = _literal_bool(keywords.get("hash"), None)
    if in_hash is None:
        in_hash = _literal_bool(keywords.get("compare"), True)
    return in_hash is not True


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
    return keywords_of(decorator) if isinstance(decorator, CallExpr) else {}


def keywords_of(call: CallExpr) -> dict[str, Expression]:
    """The keyword arguments of a call, by name."""
    return {n: a for n, a in zip(call.arg_names, call.args, strict=True) if n}


def _declared_by_call(stmt: Statement) -> tuple[str, RefExpr, CallExpr] | None:
    """``name = f(...)`` (or ``name: T = f(...)``): the name, ``f`` and the call."""
    if not isinstance(stmt, AssignmentStmt) or len(stmt.lvalues) != 1:
        return None
    target, call = stmt.lvalues[0], stmt.rvalue
    if isinstance(target, NameExpr) and isinstance(call, CallExpr):
        if isinstance(call.callee, RefExpr):
            return target.name, call.callee, call
    return None


def _literal_bool(expr: Expression | None, default: object) -> object:
    if expr is None:
        return default
    if isinstance(expr, NameExpr) and expr.fullname in ("builtins.True", "builtins.False"):
        return expr.fullname == "builtins.True"
    return _UNKNOWN
