"""`make bench` writes docs/benchmarks.md: the page comes out well-formed (no timings are
asserted, only that the command measures every section and writes its blocks and plots)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))
sys.path.insert(0, str(ROOT / "tools"))

import docblocks  # noqa: E402
import page  # noqa: E402

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def _block(document: str, name: str) -> str:
    return next(b.text for b in docblocks.blocks(document) if b.name == name)


def _is_png(path: Path) -> bool:
    return path.read_bytes()[:8] == PNG_MAGIC


def test_quick_run_writes_a_well_formed_page(tmp_path: Path) -> None:
    target = tmp_path / "docs" / "benchmarks.md"
    subprocess.run(
        [
            sys.executable,
            str(ROOT / "benchmarks" / "run.py"),
            "--quick",
            "--rounds=2",
            "--sample-ms=0.2",
            "--only=micro,floor",
            f"--page={target}",
            f"--out={tmp_path / 'results.md'}",
        ],
        check=True,
        capture_output=True,
        timeout=600,
    )
    text = target.read_text()
    names = [b.name for b in docblocks.blocks(text)]
    assert names == [f"bench-{s}" for s in page.BLOCKS]
    assert all(b.command == "make bench" for b in docblocks.blocks(text))
    assert "Python 3." in _block(text, "bench-provenance")
    runtime = _block(text, "bench-runtime")
    for label in ("flatten", "unflatten", "construction", "replace", "jit dispatch f(o)->o"):
        assert f"| {label} | nested |" in runtime
    assert "| flatten | small |" in _block(text, "bench-floor")
    floor = _block(text, "bench-floor")
    assert "floor: C flatten" in floor
    assert "floor: keys built per call" in floor
    # every jaxdc target the floor run measures gets a verdict against the floors
    assert "| flatten · nested ≤ 1.05 |" in floor
    assert "| unflatten · small ≤ 0.50 |" in floor
    # flatten_with_path is judged against the floor whose instances hold only the pair
    verdict = next(line for line in floor.splitlines() if "flatten_with_path · nested" in line)
    assert "(keys built per call)" in verdict
    # sections not run keep their block as it was
    assert _block(text, "bench-plugin").strip() == "(not measured yet)"
    for png in ("runtime-jaxdc", "runtime-peers", "floor"):
        assert _is_png(tmp_path / "docs" / "img" / "benchmarks" / f"{png}.png")


def test_plugin_and_import_sections_render_from_samples(tmp_path: Path) -> None:
    """The plugin curve and the import table from hand-made samples (the real runs take
    minutes): every size and kind gets a row, ratios are plugin over plain."""
    runs = {"plain": [(2.0, 100.0), (2.2, 100.0)], "plugin": [(2.2, 101.0), (2.2, 102.0)]}
    raw = {
        "meta": page.machine_meta(3, False, "jaxdc from here"),
        "plugin": {
            size: {k: runs for k in ("cold", "project-cold", "warm")} for size in ("100", "2000")
        },
        "plugin_rounds": 2,
        "plugin_reduced": True,
        "imports": {
            "jaxdc": {"wall_ms": [9.0], "cpu_ms": [8.0, 9.0, 10.0], "heavy": [], "error": ""},
            "flax.struct": {
                "wall_ms": [95.0],
                "cpu_ms": [80.0, 90.0],
                "heavy": ["rich"],
                "error": "",
            },
            "tjax": {"wall_ms": [], "cpu_ms": [], "heavy": [], "error": "ImportError"},
        },
    }
    target = tmp_path / "benchmarks.md"
    page.write(raw, target, [], lambda op, shape: None, 1.5, [])
    text = target.read_text()
    plugin = _block(text, "bench-plugin")
    assert "| 2000 | project-cold | 2.10 s | 1.05 (1.00–1.10) |" in plugin
    assert "reduced list of sizes" in plugin
    imports = _block(text, "bench-imports")
    assert "| **jaxdc** | 9.0 ms (8.0–10.0) | 1.00 | 9.0 ms | – |" in imports
    assert "| flax.struct | 85.0 ms (80.0–90.0) | 9.44 | 95.0 ms | rich |" in imports
    assert "| tjax | – (ImportError) |" in imports
    assert _is_png(tmp_path / "img" / "benchmarks" / "plugin.png")
    assert _is_png(tmp_path / "img" / "benchmarks" / "imports.png")


@pytest.mark.parametrize("missing", ["bench-runtime"])
def test_a_page_without_its_markers_is_an_error(tmp_path: Path, missing: str) -> None:
    target = tmp_path / "benchmarks.md"
    target.write_text(page._empty_page().replace(docblocks.end_marker(missing), ""))
    with pytest.raises(docblocks.BlockError, match=f"generated block '{missing}' has no"):
        page.write({"meta": page.machine_meta(1, True, "")}, target, [], lambda o, s: None, 1.5, [])
