"""What one downstream run records per package (saved in downstream/results.json)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from checkers import Diagnostic

__all__ = ["Outcome", "TestRun"]


@dataclass
class TestRun:
    passed: int = 0
    failed: int = 0
    errors: int = 0
    skipped: int = 0
    seconds: float = 0.0
    timed_out: bool = False
    failures: dict[str, str] = field(default_factory=dict)  # node id -> first error line


@dataclass
class Outcome:
    package: str
    version: str
    family: str
    changed_lines: int = 0
    leftovers: list[str] = field(default_factory=list)
    tests: dict[str, TestRun] = field(default_factory=dict)
    mypy: dict[str, list[Diagnostic]] = field(default_factory=dict)
    pyright: dict[str, list[Diagnostic]] = field(default_factory=dict)

    @classmethod
    def load(cls, data: dict[str, Any]) -> Outcome:
        data = dict(data)
        data["tests"] = {k: TestRun(**v) for k, v in data["tests"].items()}
        for checker in ("mypy", "pyright"):
            data[checker] = {k: [Diagnostic(**d) for d in v] for k, v in data[checker].items()}
        return cls(**data)
