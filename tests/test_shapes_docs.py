"""docs/shapes.md runs: its Python blocks, in order, in one namespace (they assert what
the text claims, error messages included)."""

from __future__ import annotations

import re
from pathlib import Path

DOC = Path(__file__).resolve().parent.parent / "docs" / "shapes.md"


def test_the_worked_example_runs() -> None:
    blocks = re.findall(r"```python\n(.*?)```", DOC.read_text(), flags=re.DOTALL)
    assert len(blocks) >= 5
    namespace: dict[str, object] = {"__name__": "shapes_doc"}
    for block in blocks:
        exec(compile(block, str(DOC), "exec", dont_inherit=True), namespace)
