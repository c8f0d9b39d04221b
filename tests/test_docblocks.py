"""tools/docblocks.py: the generated-block convention every measured number in the docs uses.

A rewrite must touch only its block, and broken markers must fail loudly: a block that
silently went missing would leave stale numbers in place with nothing to say so.
"""

from __future__ import annotations

import datetime
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "tools"))
import docblocks  # noqa: E402

DOC = """# Title

Prose with no numbers.

<!-- BEGIN GENERATED timings by `make bench` -->
old text 1.5×
<!-- END GENERATED timings -->

More prose.

<!-- BEGIN GENERATED counts by `python tools/x.py` -->
<!-- END GENERATED counts -->
"""


def test_blocks_are_found_with_their_commands_and_text() -> None:
    found = docblocks.blocks(DOC)
    assert [(b.name, b.command, b.text) for b in found] == [
        ("timings", "make bench", "old text 1.5×\n"),
        ("counts", "python tools/x.py", ""),
    ]


def test_render_block_replaces_only_its_block() -> None:
    new = docblocks.render_block(DOC, "timings", "new text 2.0×")
    assert new == DOC.replace("old text 1.5×\n", "new text 2.0×\n")
    # Rendering again is a fixed point: the check `document == render(document)` holds.
    assert docblocks.render_block(new, "timings", "new text 2.0×") == new
    filled = docblocks.render_block(DOC, "counts", "3 tests\n")
    assert filled == DOC.replace("x.py` -->\n", "x.py` -->\n3 tests\n")


def test_replace_block_writes_the_file(tmp_path: Path) -> None:
    path = tmp_path / "doc.md"
    path.write_text(DOC)
    docblocks.replace_block(path, "counts", "7 tests")
    assert docblocks.blocks(path.read_text())[1].text == "7 tests\n"


def test_outside_blocks_blanks_block_text_and_keeps_lines() -> None:
    outside = docblocks.outside_blocks(DOC)
    assert "1.5×" not in outside
    assert outside.count("\n") == DOC.count("\n")
    assert "<!-- BEGIN GENERATED timings by `make bench` -->" in outside
    assert "Prose with no numbers." in outside


@pytest.mark.parametrize(
    ("document", "message"),
    [
        (DOC.replace("<!-- END GENERATED timings -->\n", ""), "'timings' has no `<!-- END"),
        (DOC + DOC[DOC.index("<!-- BEGIN GENERATED counts") :], "'counts' appears twice"),
        (DOC + "<!-- END GENERATED stray -->\n", "`<!-- END GENERATED stray -->` has no BEGIN"),
        (
            DOC.replace("old text", "<!-- BEGIN GENERATED inner by `x` -->\nold text"),
            "'inner' is inside 'timings'",
        ),
    ],
)
def test_broken_markers_fail_loudly(document: str, message: str) -> None:
    with pytest.raises(docblocks.BlockError, match=message.replace("(", r"\(")):
        docblocks.blocks(document)


def test_a_missing_block_is_an_error_not_an_append() -> None:
    with pytest.raises(docblocks.BlockError, match="no generated block 'absent': add"):
        docblocks.render_block(DOC, "absent", "text")


def test_provenance_names_machine_versions_and_date() -> None:
    line = docblocks.provenance(["pytest", "surely-not-installed"], when=datetime.date(2026, 1, 2))
    assert line.startswith("Measured on ")
    assert "cores, Python " in line
    assert f"pytest {pytest.__version__}" in line
    assert "surely-not-installed (not installed)" in line
    assert line.endswith("; 2026-01-02.")
