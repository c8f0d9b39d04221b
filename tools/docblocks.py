"""Generated blocks in the docs: the one way a measured number gets into a document.

Why: every number a document quotes (test counts, timings, ratios, matrix results) must come
from a file a command writes (issue 20), or it goes stale and nobody can check it. So the
command that measures a number also writes it into the document, between two markers that
name the block and the command:

    <!-- BEGIN GENERATED suite-time by `make test-matrix` -->
    Measured on ... (the provenance line), then the numbers.
    <!-- END GENERATED suite-time -->

Rules of the convention (tests/test_docs_numbers.py enforces them):
- A name is letters, digits, `.`, `_` or `-`, unique within its document; the BEGIN marker
  says, in backticks, the command that rewrites the block. Write the two markers by hand
  once, where the block belongs; the command then replaces only the text between them.
- The text starts with a provenance line (`provenance()`: machine, versions, date), so a
  reader knows what the numbers were measured on.
- Numbers outside generated blocks are not allowed in README.md, CONTRIBUTING.md and
  docs/*.md (counts of things the reader can check in the same text, such as "two
  commands", are words, not digits).

Usage from a measuring command (tools/ is not a package; put it on sys.path):

    sys.path.insert(0, str(REPO / "tools"))
    import docblocks
    docblocks.replace_block(REPO / "docs" / "benchmarks.md", "plugin-ratio",
                            docblocks.provenance(["jax", "mypy"]) + "\\n\\n" + table)

Stdlib only: tools/test_matrix.py runs on whichever Python starts it.
"""

from __future__ import annotations

import datetime
import importlib.metadata
import os
import platform
import re
import sys
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

_NAME = r"[\w.-]+"
BEGIN = re.compile(rf"<!-- BEGIN GENERATED (?P<name>{_NAME}) by `(?P<command>[^`]+)` -->")
END = re.compile(rf"<!-- END GENERATED (?P<name>{_NAME}) -->")


class BlockError(ValueError):
    """A document's markers are missing, unpaired or repeated (the message says which)."""


@dataclass(frozen=True)
class Block:
    """One generated block: its name, its command, its text and where it lies."""

    name: str
    command: str
    text: str
    start: int  # offset of the text (just after the BEGIN marker's line)
    end: int  # offset of the END marker


def begin_marker(name: str, command: str) -> str:
    return f"<!-- BEGIN GENERATED {name} by `{command}` -->"


def end_marker(name: str) -> str:
    return f"<!-- END GENERATED {name} -->"


def blocks(document: str) -> list[Block]:
    """Every generated block of ``document``, in order; BlockError if the markers do not pair."""
    found: list[Block] = []
    position = 0
    while (begin := BEGIN.search(document, position)) is not None:
        name = begin["name"]
        if any(block.name == name for block in found):
            raise BlockError(f"generated block {name!r} appears twice")
        end = END.search(document, begin.end())
        if end is None or end["name"] != name:
            raise BlockError(f"generated block {name!r} has no `{end_marker(name)}` after it")
        nested = BEGIN.search(document, begin.end(), end.start())
        if nested is not None:
            raise BlockError(f"generated block {nested['name']!r} is inside {name!r}")
        start = begin.end() + document.startswith("\n", begin.end())  # the text's first line
        text = document[start : end.start()]
        found.append(Block(name, begin["command"], text, start, end.start()))
        position = end.end()
    stray = END.search(document, position)
    if stray is not None:
        raise BlockError(f"`{stray[0]}` has no BEGIN marker before it")
    return found


def outside_blocks(document: str) -> str:
    """``document`` with the text of every generated block blanked (markers and lines kept).

    Each character inside a block becomes a space, except newlines, so offsets and line
    numbers still point into the original document.
    """
    chars = list(document)
    for block in blocks(document):
        for i in range(block.start, block.end):
            if chars[i] != "\n":
                chars[i] = " "
    return "".join(chars)


def render_block(document: str, name: str, text: str) -> str:
    """``document`` with block ``name``'s text replaced by ``text`` (markers kept as written)."""
    for block in blocks(document):
        if block.name == name:
            body = text if text.endswith("\n") else text + "\n"
            return document[: block.start] + body + document[block.end :]
    raise BlockError(
        f"no generated block {name!r}: add `<!-- BEGIN GENERATED {name} by `<command>` -->` "
        f"and `{end_marker(name)}` where it belongs"
    )


def replace_block(path: Path, name: str, text: str) -> None:
    """Rewrite block ``name`` of the document at ``path`` with ``text``.

    The markers must already be there (written once by hand, where the block belongs): a
    missing block is a BlockError rather than text appended somewhere a reader won't look.
    """
    path.write_text(render_block(path.read_text(), name, text))


def provenance(packages: Iterable[str] = (), *, when: datetime.date | None = None) -> str:
    """One line saying what the numbers were measured on: machine, Python, versions, date."""
    versions = [f"{name} {_version(name)}" for name in packages]
    parts = [
        f"{platform.system()} {platform.machine()}",
        f"{os.cpu_count()} cores",
        f"Python {platform.python_version()}",
        *versions,
    ]
    day = (when or datetime.datetime.now(datetime.timezone.utc).date()).isoformat()
    return f"Measured on {', '.join(parts)}; {day}."


def _version(package: str) -> str:
    try:
        return importlib.metadata.version(package)
    except importlib.metadata.PackageNotFoundError:
        return "(not installed)"


def iter_documents(root: Path) -> Iterator[Path]:
    """The documents the convention covers: README.md, CONTRIBUTING.md and docs/*.md."""
    yield from (root / name for name in ("README.md", "CONTRIBUTING.md"))
    yield from sorted((root / "docs").glob("*.md"))


if __name__ == "__main__":
    # `python tools/docblocks.py FILE...`: list each file's blocks and their commands.
    for arg in sys.argv[1:]:
        for block in blocks(Path(arg).read_text()):
            print(f"{arg}: {block.name} by `{block.command}`")
