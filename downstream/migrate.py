"""The migration a user makes, applied to a copy of a downstream package.

One rule list per family, each rule a regular expression over import lines (or decorator
lines, for chex), so the diff is what a user would write by hand. `migrate()` returns the
changed lines, which docs/downstream.md counts, and refuses to report success while a use
of the replaced library is left over.
"""

from __future__ import annotations

import difflib
import io
import re
import tokenize
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from packages import CHEX, FLAX_STRUCT, JAX_DATACLASSES

__all__ = ["RULES", "Change", "hand_edits", "leftovers", "migrate"]


@dataclass(frozen=True)
class Rule:
    pattern: str
    replacement: str
    # An import the rewritten line needs, added once per file before its `anchor` import.
    adds_import: str = ""
    anchor: str = ""

    def apply(self, line: str) -> str:
        return re.sub(self.pattern, self.replacement, line)


RULES: dict[str, tuple[Rule, ...]] = {
    # `import jaxdc.compat.jax_dataclasses as jdc` (the migration path) is the whole migration.
    JAX_DATACLASSES: (
        Rule(
            r"^(\s*)import jax_dataclasses as (\w+)",
            r"\1import jaxdc.compat.jax_dataclasses as \2",
        ),
        Rule(
            r"^(\s*)import jax_dataclasses\b",
            r"\1import jaxdc.compat.jax_dataclasses as jax_dataclasses",
        ),
        Rule(r"^(\s*)from jax_dataclasses import ", r"\1from jaxdc.compat.jax_dataclasses import "),
    ),
    # `from flax import struct` -> the compat module under the same local name.
    FLAX_STRUCT: (
        Rule(
            r"^(\s*)from flax import struct\b", r"\1from jaxdc.compat import flax_struct as struct"
        ),
        Rule(r"^(\s*)from flax\.struct import ", r"\1from jaxdc.compat.flax_struct import "),
        Rule(r"^(\s*)import flax\.struct as (\w+)", r"\1import jaxdc.compat.flax_struct as \2"),
    ),
    # `@chex.dataclass` -> the compat decorator (same signature, `.replace`, Mapping).
    CHEX: (
        Rule(
            r"^(\s*)from chex import dataclass\b",
            r"\1from jaxdc.compat.chex_dataclass import dataclass",
        ),
        Rule(
            r"^(\s*)@chex\.dataclass\b",
            r"\1@chex_dataclass.dataclass",
            adds_import="from jaxdc.compat import chex_dataclass",
            anchor=r"^import chex\b",
        ),
    ),
}

# What must not be left after the migration (outside comments).
_LEFTOVER: dict[str, str] = {
    JAX_DATACLASSES: r"^\s*(import|from) jax_dataclasses\b",
    FLAX_STRUCT: r"^\s*(from flax import struct\b|from flax\.struct import|import flax\.struct)"
    r"|\bflax\.struct\.(dataclass|PyTreeNode|field)\b",
    CHEX: r"\bchex\.dataclass\b|^\s*from chex import dataclass\b",
}


@dataclass(frozen=True)
class Change:
    path: str
    line: int
    before: str
    after: str


def _modules(root: Path, within: Iterable[str]) -> list[Path]:
    """The .py files of `root` under each of `within` (a folder or a file, relative)."""
    found: set[Path] = set()
    for part in within:
        where = root / part
        found |= {where} if where.is_file() else set(where.rglob("*.py"))
    return sorted(found)


def migrate(root: Path, families: Iterable[str], within: Iterable[str] = (".",)) -> list[Change]:
    """Rewrite every .py file under `root` (or the parts of it `within` names) in place with
    the rules of each family (a project may build pytrees with more than one library);
    return the changed lines."""
    rules = tuple(rule for family in families for rule in RULES[family])
    changes: list[Change] = []
    for path in _modules(root, within):
        lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
        rel = str(path.relative_to(root))
        fired: list[Rule] = []
        for i, line in enumerate(lines):
            new = line
            for rule in rules:
                if rule.apply(new) != new:
                    new = rule.apply(new)
                    fired.append(rule)
            if new != line:
                changes.append(Change(rel, i + 1, line.rstrip("\n"), new.rstrip("\n")))
                lines[i] = new
        for rule in dict.fromkeys(r for r in fired if r.adds_import):
            at = next(i for i, line in enumerate(lines) if re.match(rule.anchor, line))
            lines.insert(at, rule.adds_import + "\n")
            # The lines below the inserted import move down by one.
            changes[:] = [
                Change(c.path, c.line + 1, c.before, c.after)
                if c.path == rel and c.line > at
                else c
                for c in changes
            ]
            changes.append(Change(rel, at + 1, "", rule.adds_import))
        if fired:
            path.write_text("".join(lines), encoding="utf-8")
    return changes


def leftovers(root: Path, families: Iterable[str], within: Iterable[str] = (".",)) -> list[str]:
    """`path:line` of every remaining use of the replaced libraries."""
    pattern = re.compile("|".join(f"(?:{_LEFTOVER[family]})" for family in families))
    found = []
    for path in _modules(root, within):
        for i, line in enumerate(_code(path.read_text(encoding="utf-8"))):
            if pattern.search(line):
                found.append(f"{path.relative_to(root)}:{i + 1}")
    return found


def _code(text: str) -> list[str]:
    """The lines of a module with its comments and string literals blanked out: a
    docstring that mentions `flax.struct.dataclass` is not a use of it."""
    rows = [list(line) for line in text.split("\n")]
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(text).readline))
    except (tokenize.TokenError, SyntaxError):
        return ["".join(row).split("#", 1)[0] for row in rows]
    for token in tokens:
        if token.type in (tokenize.COMMENT, tokenize.STRING):
            (first, start), (last, end) = token.start, token.end
            for number in range(first, last + 1):
                row = rows[number - 1]
                lo, hi = (start if number == first else 0), (end if number == last else len(row))
                row[lo:hi] = " " * (hi - lo)
    return ["".join(row) for row in rows]


def hand_edits(published: Path, migrated: Path, changes: list[Change]) -> list[str]:
    """Every difference between the two copies that is not one of `changes` (`path:line`,
    or the path of a file that differs outside Python lines): what a migration by its
    rules alone leaves empty, measured rather than assumed."""
    made = {(c.path, c.line) for c in changes}
    found = []
    files = {p.relative_to(published) for p in published.rglob("*") if p.is_file()}
    files |= {p.relative_to(migrated) for p in migrated.rglob("*") if p.is_file()}
    for rel in sorted(files):
        old, new = published / rel, migrated / rel
        if old.is_file() and new.is_file() and old.read_bytes() == new.read_bytes():
            continue
        if rel.suffix != ".py" or not (old.is_file() and new.is_file()):
            found.append(str(rel))
            continue
        before = old.read_text(encoding="utf-8").splitlines()
        after = new.read_text(encoding="utf-8").splitlines()
        matcher = difflib.SequenceMatcher(None, before, after, autojunk=False)
        for tag, i1, i2, j1, j2 in matcher.get_opcodes():
            if tag == "equal":
                continue
            if i2 - i1 > j2 - j1:  # a line removed: no rule removes one
                found.append(f"{rel}:{j1 + 1}")
            found += [f"{rel}:{j + 1}" for j in range(j1, j2) if (str(rel), j + 1) not in made]
    return found
