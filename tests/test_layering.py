"""The allowed imports between jaxdc's modules (docs/architecture.md, "Layers").

Each module may import only from layers below its own, so the import graph stays a
ladder a reader can climb: leaves first, the public package last. The shared rules import
nothing of jaxdc, jax or mypy; the plugin never imports jax or the runtime; the runtime
never imports mypy or the plugin. Function-level imports between runtime modules are not
allowed (they hid two cycles); the plugin's two lazy imports are its design (a warm mypy
run must not pay for the rule modules).

A new module must be given a layer here: the failure says which.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
RUNTIME = REPO / "runtime" / "jaxdc"
PLUGIN = REPO / "mypy_plugin" / "jaxdc_mypy"
RULES = REPO / "rules" / "_jaxdc_rules"

RUNTIME_LAYERS = {
    # 0-1: leaves (the shared rules only) and their first users
    "_static": 0,
    "_display": 0,
    "_tracebacks": 0,
    "_subclass": 0,
    "_metadata": 0,
    "_config": 0,
    "_shapes_annotations": 0,
    "_policy": 0,
    "_convert": 0,
    "_annotations": 1,
    "_field": 1,
    "_shapes_check": 1,
    "_tree_diff": 1,
    # 2-3: class facts
    "_hashability": 2,
    "_spec": 3,
    # 4-6: the instance protocol
    "_frozen": 4,
    "_printing": 4,
    "_equality": 4,
    "_replace": 4,
    "_mutation": 4,
    "_construct": 5,
    "_codegen": 6,
    # 7-8: shape checks (check_shapes=True)
    "_shapes_codegen": 7,
    "_shapes": 8,
    # 9-12: state dicts (`_state`: the key check and rebuild `_serialization` and the
    # flax.serialization hook `_flax` share), class processing
    "_state": 9,
    "_serialization": 10,
    "_flax": 10,
    "_registration": 11,
    "_dataclass": 12,
    "_retrace": 12,
    # 13-14: features built on classes (`_edit` is a package: copy_and_mutate's machinery)
    "_node": 13,
    "_jit": 13,
    "_edit": 13,
    "_copy_and_mutate": 14,
    # 15: the public package; 16: drop-in modules for other libraries' users
    "__init__": 15,
    "compat": 16,
}
PLUGIN_LAYERS = {
    "names": 0,
    "codes": 0,
    "config": 0,
    "compat": 0,
    "syntax": 0,
    "messages": 1,
    "windows": 1,
    "static_bound": 1,
    "dataclass_options": 1,
    "static_spelling": 1,
    "fields": 2,
    "describe": 2,
    "shapes": 3,
    "converters": 3,
    "checks": 4,
    "types_walk": 4,
    "jit": 5,
    "mutation": 5,
    "replace": 5,
    "handlers": 6,
    "hooks": 7,
    "__init__": 8,
}
# The plugin's lazy imports: `plugin()` loads the plugin class, the first hook the rules,
# the first assignment mypy calls read-only the assignment windows.
PLUGIN_LAZY = {("__init__", "hooks"), ("hooks", "handlers"), ("mutation", "windows")}
RULES_LAYERS = {
    "__init__": 0,
    "messages": 0,
    "kinds": 0,
    "names": 0,
    "shapes": 0,
    "typedesc": 1,
    "hashability": 2,
    "arraylike": 2,
}
_RUNTIME_ONLY = {"jax", "jaxlib", "numpy"}


def _imports(path: Path, package: str) -> list[tuple[str, bool]]:
    """(imported module, at module level) for every import in ``path``."""
    tree = ast.parse(path.read_text())
    top = {id(node) for node in tree.body}
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(alias.name, id(node) in top) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            # `from . import names`, `from .fields import x`, `from pkg import mod`: each
            # name may be a module, so `pkg.mod` (or `pkg.mod.x`) is recorded.
            if node.level:
                base = package if node.module is None else f"{package}.{node.module}"
            else:
                base = node.module or ""
            found += [(f"{base}.{alias.name}", id(node) in top) for alias in node.names]
    return found


def _check_package(
    folder: Path, package: str, layers: dict[str, int], lazy: set[tuple[str, str]]
) -> list[str]:
    problems = []
    # A subpackage (`_edit/`) is one unit: its files share its layer.
    files = {p.stem: [p] for p in folder.glob("*.py")}
    files |= {
        p.name: sorted(p.rglob("*.py")) for p in folder.iterdir() if (p / "__init__.py").is_file()
    }
    for name in sorted(files):
        if name not in layers:
            problems.append(f"{package}.{name} has no layer: add it to {Path(__file__).name}")
            continue
        imports = [found for path in files[name] for found in _imports(path, package)]
        for imported, module_level in imports:
            head, _, rest = imported.partition(".")
            if head != package or not rest:
                continue
            target = rest.split(".")[0]
            if target == name or target not in layers:
                continue  # its own parts, or names that are no module
            if not module_level and (name, target) not in lazy:
                problems.append(f"{package}.{name} imports {target} inside a function")
            elif module_level and layers[target] >= layers[name]:
                problems.append(
                    f"{package}.{name} (layer {layers[name]}) imports {target} "
                    f"(layer {layers[target]}): only lower layers are allowed"
                )
    return problems


def _foreign(folder: Path, package: str, forbidden: set[str]) -> list[str]:
    return [
        f"{package}.{path.stem} imports {imported}"
        for path in sorted(folder.rglob("*.py"))
        for imported, _ in _imports(path, package)
        if imported.split(".")[0] in forbidden
    ]


def test_runtime_layers() -> None:
    assert not _check_package(RUNTIME, "jaxdc", RUNTIME_LAYERS, set())


def test_plugin_layers() -> None:
    assert not _check_package(PLUGIN, "jaxdc_mypy", PLUGIN_LAYERS, PLUGIN_LAZY)


def test_rules_layers() -> None:
    assert not _check_package(RULES, "_jaxdc_rules", RULES_LAYERS, set())


@pytest.mark.parametrize(
    ("folder", "package", "forbidden"),
    [
        (RULES, "_jaxdc_rules", {"jaxdc", "jaxdc_mypy", "mypy", *_RUNTIME_ONLY}),
        (PLUGIN, "jaxdc_mypy", {"jaxdc", *_RUNTIME_ONLY}),
        (RUNTIME, "jaxdc", {"jaxdc_mypy", "mypy"}),
    ],
    ids=["rules", "plugin", "runtime"],
)
def test_packages_import_only_what_they_may(
    folder: Path, package: str, forbidden: set[str]
) -> None:
    assert not _foreign(folder, package, forbidden)


def test_the_check_catches_a_violation(tmp_path: Path) -> None:
    """The checker itself: an upward import and a function-level import are reported."""
    (tmp_path / "low.py").write_text("from pkg import high\n")
    (tmp_path / "high.py").write_text("def f():\n    from pkg import low\n")
    problems = _check_package(tmp_path, "pkg", {"low": 0, "high": 1}, set())
    assert problems == [
        "pkg.high imports low inside a function",
        "pkg.low (layer 0) imports high (layer 1): only lower layers are allowed",
    ]


def _picture_layers() -> tuple[dict[str, int], dict[str, int]]:
    """The runtime's and the plugin's layers as docs/architecture.md draws them: the
    plugin's column starts where its heading does; a row starting without a number
    continues the layer above it; parentheses are comments."""
    text = (REPO / "docs" / "architecture.md").read_text()
    heading, *rows = text.split("\n jaxdc (runtime;", 1)[1].split("```", 1)[0].splitlines()
    split_at = heading.index("jaxdc_mypy") + len(" jaxdc (runtime;")
    drawn: tuple[dict[str, int], dict[str, int]] = ({}, {})
    layer = [-1, -1]
    for row in rows:
        row = re.sub(r"\([^)]*\)", lambda comment: " " * len(comment[0]), row)
        for column, part in enumerate((row[:split_at], row[split_at:])):
            words = part.split()
            if words and words[0].isdigit():
                layer[column] = int(words.pop(0))
            drawn[column].update((word.rstrip("/"), layer[column]) for word in words)
    return drawn


def test_the_architecture_picture_matches_the_tables() -> None:
    runtime, plugin = _picture_layers()
    assert runtime == RUNTIME_LAYERS
    assert plugin == PLUGIN_LAYERS


def test_every_runtime_module_has_a_row_in_the_architecture_doc() -> None:
    text = (REPO / "docs" / "architecture.md").read_text()
    modules = set(RUNTIME_LAYERS) - {"__init__", "compat", "_edit"}
    assert {m for m in modules if f"`jaxdc/{m}.py`" not in text} == set()
