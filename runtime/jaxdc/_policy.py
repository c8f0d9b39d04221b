"""One policy for a misuse jaxdc's own decorator rejects: an error on jaxdc's path, a warning
on the migration path.

The first step of a migration (the documented import line, `jaxdc.compat.*`) must never
break code that ran on the original library, so there the runtime warns, with the same
message and fix as the error, and goes on as the original library would. On jaxdc's own
path (`jaxdc.pytree_dataclass`, `jaxdc.PyTreeNode`) the same misuse raises. Every such
check calls `report`, so the two paths cannot drift apart.

Each class warns once per topic (a field name, or the class itself): never once per
construction, never on unflatten. The warning points at the class's definition (its
decorator or class statement), where the fix goes. `-W error::jaxdc.MigrationWarning`
(or a warnings filter) makes the migration path raise it instead.
"""

from __future__ import annotations

import warnings
import weakref
from dataclasses import dataclass

__all__ = ["MigrationWarning", "Origin", "report"]


class MigrationWarning(UserWarning):
    """jaxdc accepted, on the migration path (`jaxdc.compat`), a class or value that
    `jaxdc.pytree_dataclass` rejects; the message is that error, with its fix.

    Filter it like any warning: `python -W error::jaxdc.MigrationWarning` (pytest:
    `filterwarnings = ["error::jaxdc.MigrationWarning"]`) makes the migration path raise.
    """


@dataclass(frozen=True)
class Origin:
    """Where a class was defined: the line its warnings point at."""

    filename: str
    lineno: int
    module: str


# class -> the topics it has warned about (weak: a class may be garbage collected).
_REPORTED: weakref.WeakKeyDictionary[type, set[str]] = weakref.WeakKeyDictionary()


def report(
    message: str,
    *,
    lenient: bool,
    cls: type,
    topic: str,
    origin: Origin,
    error: type[Exception] = TypeError,
) -> None:
    """Raise `error(message)` on jaxdc's path; on the migration path (`lenient`) warn once
    per class and topic, at the class's definition, and return so the caller goes on as the
    original library would."""
    if not lenient:
        raise error(message) from None
    seen = _REPORTED.setdefault(cls, set())
    if topic in seen:
        return
    warnings.warn_explicit(
        message, MigrationWarning, origin.filename, origin.lineno, module=origin.module
    )
    seen.add(topic)  # not before: a warning turned into an error is raised again next time
