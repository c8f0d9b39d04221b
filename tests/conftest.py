"""Shared fixtures: load a module from source, as a user's file would be imported."""

from __future__ import annotations

import importlib.util
import sys
import textwrap
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from types import ModuleType

import pytest


@pytest.fixture
def load_module(tmp_path: Path) -> Iterator[Callable[[str], ModuleType]]:
    """Write `source` to a fresh module file and import it (so PEP 563 and frames are real)."""
    names: list[str] = []

    def load(source: str) -> ModuleType:
        name = f"jaxdc_case_{uuid.uuid4().hex[:8]}"
        path = tmp_path / f"{name}.py"
        path.write_text(textwrap.dedent(source))
        spec = importlib.util.spec_from_file_location(name, path)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        names.append(name)
        spec.loader.exec_module(module)
        return module

    yield load
    for name in names:
        sys.modules.pop(name, None)
