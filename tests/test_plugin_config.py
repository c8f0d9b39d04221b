"""jaxdc_mypy settings: `[tool.jaxdc-mypy]` in pyproject.toml, `[jaxdc-mypy]` in mypy.ini.

Each setting changes a verdict; changing the settings between two runs over the same
cache changes the diagnostics (the plugin reports its config to mypy's cache); bad
settings stop mypy with a message naming the file, section and key, not a traceback.
"""

from __future__ import annotations

from pathlib import Path

import checkers
import pytest
from checkers import Project

# The settings every project test uses (the warm cache is valid only for them).
PYPROJECT = checkers.pyproject_toml(plugin=True)

# The settings name the classes as users import them (`lib.Tensor`); they are defined in
# `lib._impl`, the name mypy knows them by.
FILES = {
    "lib/__init__.py": "from lib._impl import Module as Module, Tensor as Tensor, Token as Token\n",
    "lib/_impl.py": """
        class Tensor:
            '''An array type of another framework.'''


        class Module:
            '''Base class of another pytree library.'''


        class Token:
            def __eq__(self, other: object) -> bool:
                return True
        """,
    "use.py": """
        from typing import Any

        from jaxdc import PyTreeNode, Static

        from lib import Module, Tensor, Token


        class Layer(Module):
            pass


        class Model(PyTreeNode):
            t: Tensor
            s: Static[Tensor]
            sub: Layer
            tok: Static[Token]
            anything: Any
        """,
}
DEFAULT = {
    ("use.py", 13, "jaxdc-data"),
    ("use.py", 15, "jaxdc-data"),
    ("use.py", 16, "jaxdc-static"),
}
CONFIGURED = {("use.py", 14, "jaxdc-static"), ("use.py", 17, "jaxdc-any")}

TOML_SETTINGS = """
[tool.jaxdc-mypy]
extra_array_types = ["lib.Tensor"]
extra_pytree_bases = ["lib.Module"]
extra_hashable_types = ["lib.Token"]
check_any = true
"""
INI = (
    checkers.mypy_ini(plugin=True)
    + """
[jaxdc-mypy]
extra_array_types = lib.Tensor
extra_pytree_bases = lib.Module,
    lib.Other
extra_hashable_types = lib.Token
check_any = True
"""
)


def test_pyproject_settings_change_verdicts_and_invalidate_the_cache(project: Project) -> None:
    project.write(FILES)
    assert project.mypy().diagnostics == DEFAULT
    (project.root / "pyproject.toml").write_text(PYPROJECT + TOML_SETTINGS)
    configured = project.mypy()
    assert configured.diagnostics == CONFIGURED
    assert configured.messages("jaxdc-static") == [
        "static field 's' of class 'Model' has unhashable type 'Tensor': arrays are not "
        "hashable. Static values are part of the treedef and used as jit cache keys, so "
        "they must be hashable. Fix: make 's' a data field (drop Static[...] / static=True)."
    ]
    (project.root / "pyproject.toml").write_text(PYPROJECT)
    assert project.mypy().diagnostics == DEFAULT


def test_ini_settings(project: Project) -> None:
    project.write({**FILES, "mypy.ini": INI})
    assert project.mypy("--config-file", "mypy.ini", ".").diagnostics == CONFIGURED


FLOATS = {
    "opt.py": """
        import jaxdc
        from jaxdc import Static


        class Opt(jaxdc.PyTreeNode):
            lr: Static[float]
            steps: Static[int]


        @jaxdc.jit
        def step(opt: Opt, scale: Static[complex]) -> None:
            pass
        """,
}


@pytest.mark.parametrize("spelling", ["toml", "ini"])
def test_float_statics_are_reported_only_when_asked(project: Project, spelling: str) -> None:
    """`warn_float_statics` is off by default: `Static[float]` is correct code, and the
    setting only adds advice (issue 17); on, the field and the jit parameter are reported."""
    project.write(FLOATS)
    assert project.mypy().diagnostics == set()
    if spelling == "toml":
        settings = "[tool.jaxdc-mypy]\nwarn_float_statics = true\n"
        (project.root / "pyproject.toml").write_text(f"{PYPROJECT}\n{settings}")
        run = project.mypy()
    else:
        settings = "[jaxdc-mypy]\nwarn_float_statics = yes\n"
        (project.root / "mypy.ini").write_text(f"{checkers.mypy_ini(plugin=True)}\n{settings}")
        run = project.mypy("--config-file", "mypy.ini", ".")
    assert run.diagnostics == {
        ("opt.py", 6, "jaxdc-float-static"),
        ("opt.py", 11, "jaxdc-float-static"),
    }
    assert run.messages("jaxdc-float-static")[0] == (
        "static field 'lr' of class 'Opt' has type 'float': a float static recompiles on every "
        "new value (each value is a new jit cache key, so jit traces and compiles again). Fix: "
        "make 'lr' a data field: jax.Array."
    )


@pytest.mark.parametrize(
    ("section", "message"),
    [
        (
            "[tool.jaxdc-mypy]\ncolour = 1",
            "pyproject.toml: [tool.jaxdc-mypy]: unknown setting 'colour' (known settings: "
            "check_any, extra_array_types, extra_hashable_types, extra_pytree_bases, "
            "warn_float_statics)",
        ),
        (
            '[tool.jaxdc-mypy]\nextra_array_types = "lib.Tensor"',
            "pyproject.toml: [tool.jaxdc-mypy] extra_array_types must be a list of fully "
            "qualified class names",
        ),
        (
            '[tool.jaxdc-mypy]\nextra_hashable_types = ["Token"]',
            "pyproject.toml: [tool.jaxdc-mypy] extra_hashable_types: 'Token' is not a fully "
            "qualified class name (expected 'package.module.Class')",
        ),
        (
            '[tool.jaxdc-mypy]\ncheck_any = "yes"',
            "pyproject.toml: [tool.jaxdc-mypy] check_any must be true or false, not 'yes'",
        ),
        ('[tool]\njaxdc-mypy = "on"', "pyproject.toml: [tool.jaxdc-mypy] must be a table"),
        # Empty, but not a table: still wrong (only a missing or empty table means defaults).
        ('[tool]\njaxdc-mypy = ""', "pyproject.toml: [tool.jaxdc-mypy] must be a table"),
        (
            '[tool.jaxdc-mypy]\nextra_array_types = ["lib..Tensor"]',
            "pyproject.toml: [tool.jaxdc-mypy] extra_array_types: 'lib..Tensor' is not a fully "
            "qualified class name (expected 'package.module.Class')",
        ),
    ],
)
def test_bad_settings_stop_mypy_with_a_clear_message(
    project: Project, section: str, message: str
) -> None:
    project.write(FILES)
    (project.root / "pyproject.toml").write_text(f"{PYPROJECT}\n{section}\n")
    run = project.mypy()
    assert run.exit_code == 2
    assert run.stderr.startswith("error: jaxdc_mypy: ")
    assert message in run.stderr
    assert "Traceback" not in run.stdout + run.stderr


def test_bad_ini_setting(project: Project) -> None:
    project.write({**FILES, "mypy.ini": INI.replace("check_any = True", "check_any = maybe")})
    run = project.mypy("--config-file", "mypy.ini", ".")
    assert run.exit_code == 2
    assert "mypy.ini: [jaxdc-mypy] check_any must be true or false, not 'maybe'" in run.stderr


def test_class_names_may_be_any_python_identifiers(tmp_path: Path) -> None:
    from jaxdc_mypy import config

    path = tmp_path / "pyproject.toml"
    path.write_text('[tool.jaxdc-mypy]\nextra_array_types = ["bibliothèque.tenseurs.Tenseur"]\n')
    assert config.load(str(path)).extra_array_types == ("bibliothèque.tenseurs.Tenseur",)
    path.write_text("[tool.other]\nx = 1\n")
    assert config.load(str(path)) == config.PluginConfig()
