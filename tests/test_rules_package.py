"""The shared rules package: importable from the checkout, pure, and its field-kind rule.

(The wheel install is checked in test_stubs.py, next to the other install checks.)
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from _jaxdc_rules import kinds, messages

REPO = Path(__file__).resolve().parent.parent


def test_editable_install_imports_the_checkout() -> None:
    import _jaxdc_rules

    assert Path(_jaxdc_rules.__file__).parent == REPO / "rules" / "_jaxdc_rules"


def test_importing_the_rules_loads_no_jax_no_mypy_and_no_jaxdc() -> None:
    modules = ["_jaxdc_rules." + p.stem for p in (REPO / "rules" / "_jaxdc_rules").glob("*.py")]
    code = (
        "import sys\n"
        + "".join(f"import {m}\n" for m in modules)
        + "print('\\n'.join(sorted(sys.modules)))"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    loaded = {m.split(".")[0] for m in proc.stdout.split()}
    assert not loaded & {"jax", "jaxlib", "numpy", "mypy", "jaxdc", "jaxdc_mypy", "dataclasses"}


@pytest.mark.parametrize(
    ("facts", "kind"),
    [
        ({"static": None, "pytree": None, "annotated_static": False}, "data"),
        ({"static": None, "pytree": None, "annotated_static": True}, "static"),
        ({"static": True, "pytree": None, "annotated_static": False}, "static"),
        ({"static": False, "pytree": None, "annotated_static": False}, "data"),
        ({"static": None, "pytree": False, "annotated_static": True}, "excluded"),
        ({"static": None, "pytree": True, "annotated_static": True}, "static"),
        ({"static": "unknown", "pytree": None, "annotated_static": False}, "unknown"),
        ({"static": None, "pytree": "unknown", "annotated_static": False}, "unknown"),
        ({"static": "unknown", "pytree": False, "annotated_static": False}, "excluded"),
    ],
)
def test_decide_kind(facts: dict[str, object], kind: str) -> None:
    assert kinds.decide_kind(**facts) == kind  # type: ignore[arg-type]


def test_pytree_node_is_flax_spelling_of_static() -> None:
    assert kinds.explicit_static(pytree_node=False) is True
    assert kinds.explicit_static(pytree_node=True) is False
    assert kinds.explicit_static(static=True, pytree_node=False) is True
    assert kinds.explicit_static(static_field=True) is True
    assert kinds.explicit_static() is None
    with pytest.raises(ValueError, match=r"^\(True, True\)$"):
        kinds.explicit_static(static=True, pytree_node=True)


def test_parent_static_stays_static() -> None:
    assert kinds.inherited_kind("static", "data") == "static"
    assert kinds.inherited_kind("data", "static") == "static"
    assert kinds.inherited_kind(None, "excluded") == "excluded"


@pytest.mark.parametrize(
    ("qualname", "shown"),
    [
        ("Cfg", "Cfg"),
        ("Outer.Inner", "Outer.Inner"),
        ("make.<locals>.Cfg", "Cfg"),
        ("make.<locals>.Outer.Inner", "Outer.Inner"),
        ("Cfg@12", "Cfg"),
        ("Outer@3.Inner", "Outer.Inner"),
    ],
)
def test_class_display(qualname: str, shown: str) -> None:
    assert messages.class_display(qualname) == shown


def test_qualname_from_a_mypy_fullname() -> None:
    assert messages.qualname_in("pkg.mod.Outer.Inner", "pkg.mod") == "Outer.Inner"
    assert messages.qualname_in("builtins.list", "builtins") == "list"


def test_the_plugins_cache_key_covers_the_rules(tmp_path: Path, monkeypatch: Any) -> None:
    """mypy re-checks cached modules when the plugin's code changes: the rules it applies
    are part of that code."""
    import _jaxdc_rules
    from jaxdc_mypy import hooks

    copy = tmp_path / "_jaxdc_rules"
    shutil.copytree(Path(_jaxdc_rules.__file__).parent, copy)
    monkeypatch.setattr(_jaxdc_rules, "__file__", str(copy / "__init__.py"))
    before = hooks._source_digest()
    (copy / "hashability.py").write_text((copy / "hashability.py").read_text() + "\n# edit\n")
    assert hooks._source_digest() != before
