"""pytest plugin the downstream runs load (`-p jaxdc_downstream_warnings`): it records
every warning jaxdc emits while a package's tests run, for the table's "warnings" column.

A warning counts as jaxdc's when its class is defined in jaxdc or in the rule package it
shares with the plugin (`_jaxdc_rules`), whatever its name, so a warning class added to
jaxdc later is counted without a change here. pytest hands every warning it catches to
`pytest_warning_recorded`, those raised while modules are imported for collection too
(class definitions, where the migration path warns). The tally is written as JSON to the
file named by $JAXDC_DOWNSTREAM_WARNINGS when the session ends; places are made relative
to $JAXDC_DOWNSTREAM_ROOT (the unpacked package).
"""

from __future__ import annotations

import json
import os
from collections import Counter
from pathlib import Path
from typing import Any

_OURS = ("jaxdc", "_jaxdc_rules")
_tally: Counter[tuple[str, str, str]] = Counter()


def is_jaxdcs(category: type[Warning]) -> bool:
    return category.__module__.split(".", 1)[0] in _OURS


def _where(filename: str, lineno: int) -> str:
    root = Path(os.environ.get("JAXDC_DOWNSTREAM_ROOT", "/")).resolve()
    path = Path(filename).resolve()
    if path.is_relative_to(root):
        filename = str(path.relative_to(root)).removesuffix(".py").replace(os.sep, ".")
    return f"{filename}:{lineno}"


def pytest_warning_recorded(warning_message: Any, when: str, nodeid: str, location: Any) -> None:
    category = warning_message.category
    if is_jaxdcs(category):
        message = str(warning_message.message).splitlines()[0] if warning_message.message else ""
        where = _where(warning_message.filename, warning_message.lineno)
        _tally[(f"{category.__module__}.{category.__qualname__}", where, message)] += 1


def pytest_sessionfinish(session: Any, exitstatus: int) -> None:
    out = os.environ.get("JAXDC_DOWNSTREAM_WARNINGS")
    if out:
        found = [
            {"category": c, "where": w, "message": m, "count": n}
            for (c, w, m), n in sorted(_tally.items())
        ]
        Path(out).write_text(json.dumps(found, indent=1) + "\n", encoding="utf-8")
