"""The migration a user makes, applied to a copy of a downstream package.

One rule list per family, each rule a regular expression over import lines (or decorator
lines, for chex), so the diff is what a user would write by hand. `migrate()` returns the
changed lines, which docs/downstream.md counts, and refuses to report success while a use
of the replaced library is left over.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from packages import CHEX, FLAX_STRUCT, JAX_DATACLASSES

__all__ = ["RULES", "Change", "leftovers", "migrate"]


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
    # `import jaxdc as jdc` is the whole migration.
    JAX_DATACLASSES: (
        Rule(r"^(\s*)import jax_dataclasses as (\w+)", r"\1import jaxdc as \2"),
        Rule(r"^(\s*)import jax_dataclasses\b", r"\1import jaxdc as jax_dataclasses"),
        Rule(r"^(\s*)from jax_dataclasses import ", r"\1from jaxdc import "),
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


def migrate(root: Path, family: str) -> list[Change]:
    """Rewrite every .py file under `root` in place; return the changed lines."""
    rules = RULES[family]
    changes: list[Change] = []
    for path in sorted(root.rglob("*.py")):
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
            changes.append(Change(rel, at + 1, "", rule.adds_import))
        if fired:
            path.write_text("".join(lines), encoding="utf-8")
    return changes


def leftovers(root: Path, family: str) -> list[str]:
    """`path:line` of every remaining use of the replaced library."""
    pattern = re.compile(_LEFTOVER[family])
    found = []
    for path in sorted(root.rglob("*.py")):
        for i, line in enumerate(path.read_text(encoding="utf-8").splitlines()):
            if pattern.search(line.split("#", 1)[0]):
                found.append(f"{path.relative_to(root)}:{i + 1}")
    return found
