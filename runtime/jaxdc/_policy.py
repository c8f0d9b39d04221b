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

import re
import sys
import warnings
import weakref
from collections.abc import Sequence
from dataclasses import dataclass

__all__ = ["MigrationWarning", "Origin", "apply_warning_options", "report"]


class MigrationWarning(UserWarning):
    """jaxdc accepted, on the migration path (`jaxdc.compat`), a class or value that
    `jaxdc.pytree_dataclass` rejects; the message is that error, with its fix.

    Filter it like any warning: `python -W error::jaxdc.MigrationWarning` (pytest:
    `filterwarnings = ["error::jaxdc.MigrationWarning"]`) makes the migration path raise.
    """

    __module__ = "jaxdc"  # its public name, as tracebacks and filters show it


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


_NAMES = ("jaxdc.MigrationWarning", "jaxdc._policy.MigrationWarning")
_ACTIONS = ("default", "always", "ignore", "module", "once", "error")


def apply_warning_options(options: Sequence[str] = sys.warnoptions) -> None:
    """Apply `-W`/`PYTHONWARNINGS` options naming `MigrationWarning`.

    Python reads them before it can import jaxdc, so it ignores them ("Invalid -W option
    ignored: invalid module name", CPython issue #66733); called when `jaxdc` is imported,
    this applies them as Python would have (`action:message:category:module:lineno`)."""
    for option in options:
        parts = [part.strip() for part in option.split(":")]
        if len(parts) < 3 or len(parts) > 5 or parts[2] not in _NAMES:
            continue
        action, message, _, module, lineno = (*parts, "", "")[:5]
        chosen = [a for a in _ACTIONS if a.startswith(action or "default")]
        if not chosen or not (lineno or "0").isdigit():
            continue  # invalid, as Python would say; the option is ignored
        warnings.filterwarnings(
            chosen[0],  # type: ignore[arg-type]
            re.escape(message),
            MigrationWarning,
            re.escape(module) + r"\Z" if module else "",
            int(lineno or 0),
        )
