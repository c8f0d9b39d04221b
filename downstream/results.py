"""What one downstream run records per package (saved in downstream/results.json)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from checkers import Diagnostic

__all__ = ["Outcome", "TestRun", "Warned"]

# What pytest's junit report says of a test, as `TestRun.statuses` records it.
PASSED, FAILED, ERROR, SKIPPED = "passed", "failed", "error", "skipped"


@dataclass(frozen=True)
class Warned:
    """One jaxdc warning as a run saw it: its class, where it points, its first line."""

    category: str  # `module.QualName` of the warning class
    where: str  # `pkg.module:line` the warning points at (the user's line, for jaxdc's)
    message: str
    count: int = 1


@dataclass
class TestRun:
    __test__ = False  # not a pytest test class, despite its name
    passed: int = 0
    failed: int = 0
    errors: int = 0
    skipped: int = 0
    seconds: float = 0.0
    timed_out: bool = False  # the budget (or pytest-timeout) cut the run: not comparable
    failures: dict[str, str] = field(default_factory=dict)  # node id -> first error line
    statuses: dict[str, str] = field(default_factory=dict)  # node id -> PASSED, FAILED, ...
    warnings: list[Warned] = field(default_factory=list)  # jaxdc's warnings during the run


@dataclass
class Outcome:
    package: str
    version: str
    family: str
    changed_lines: int = 0
    hand_edits: list[str] = field(default_factory=list)  # `path:line` no migration rule made
    leftovers: list[str] = field(default_factory=list)
    tests: dict[str, TestRun] = field(default_factory=dict)
    mypy: dict[str, list[Diagnostic]] = field(default_factory=dict)
    pyright: dict[str, list[Diagnostic]] = field(default_factory=dict)

    @classmethod
    def load(cls, data: dict[str, Any]) -> Outcome:
        data = dict(data)
        data["tests"] = {
            k: TestRun(**{**v, "warnings": [Warned(**w) for w in v.get("warnings", [])]})
            for k, v in data["tests"].items()
        }
        for checker in ("mypy", "pyright"):
            data[checker] = {k: [Diagnostic(**d) for d in v] for k, v in data[checker].items()}
        return cls(**data)
