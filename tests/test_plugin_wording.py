"""Every message family reads the same whichever layer reports it.

The texts live once, in `_jaxdc_rules.messages`; these tests make sure both layers use
them and never drift:

- families both layers report (unhashable static types, including nested classes,
  classes defined in functions, TypedDicts, NamedTuples and NewTypes; excluded fields set
  during construction; `jaxdc.attr` paths; frozen assignment; `@dataclass` stacked with
  jaxdc; a data descriptor as a field's default): the snippet is run by Python and checked by mypy + plugin, and the two texts
  must be equal;
- families only the runtime reports: the raised text must be the shared function's;
- families only the plugin reports (data fields, jit parameters): likewise;
- no runtime or plugin module builds message text itself (an AST check).
"""

from __future__ import annotations

import ast
import dataclasses
import json
import subprocess
import sys
import textwrap
from collections.abc import Callable
from pathlib import Path
from typing import Any

import jax
import jax.numpy as jnp
import jaxdc
import pytest
from _jaxdc_rules import messages
from _jaxdc_rules.messages import Problem
from checkers import Project

REPO = Path(__file__).resolve().parent.parent

PRELUDE = """
import dataclasses
from collections import deque
from typing import Mapping, NamedTuple, NewType, Optional, TypedDict, Union

import jax
import jax.numpy as jnp
import numpy as np
import jaxdc
from jaxdc import Static, field, pytree_dataclass


@dataclasses.dataclass
class Settings:
    lr: float


@dataclasses.dataclass(frozen=True)
class Holder:
    table: jax.Array


class Tag:
    def __eq__(self, other: object) -> bool:
        return True


class Row(TypedDict):
    a: int


class Batch(NamedTuple):
    items: list[int]


Ids = NewType("Ids", list[int])
"""

# field name -> annotation: one class per field, each rejected by both layers.
STATIC_FIELDS = {
    "a_list": "Static[list[int]]",
    "a_set": "Static[set[str]]",
    "a_bytearray": "Static[bytearray]",
    "a_deque": "Static[deque[int]]",
    "an_array": "Static[jax.Array]",
    "an_ndarray": "Static[np.ndarray]",
    "settings": "Static[Settings]",
    "tag": "Static[Tag]",
    "holder": "Static[Holder]",
    "pair": "Static[tuple[int, list[str]]]",
    "maybe": "Static[Optional[dict[str, int]]]",
    "either": "Static[Union[int, set[int]]]",
    "by_field": "list[int] = field(static=True)",
    "row": "Static[Row]",
    "batch": "Static[Batch]",
    "ids": "Static[Ids]",
    "mapping": "Static[Mapping[str, int]]",
    "quoted": 'Static["list[int]"]',
}

# Snippets whose last statement fails at runtime and is reported by the plugin.
BOTH_LAYERS = {
    "nested_class.py": """
        class Outer:
            @pytree_dataclass
            class Inner:
                sizes: Static[list[str]]
        """,
    "class_in_function.py": """
        def make() -> None:
            @pytree_dataclass
            class Local:
                table: Static[dict[str, int]]

        make()
        """,
    "excluded_set_in_post_init.py": """
        @pytree_dataclass
        class Stats:
            xs: jax.Array
            count: int = field(pytree=False, init=False, default=0)

            def __post_init__(self) -> None:
                jaxdc.attr(self, lambda s: s.count).set(1)

        Stats(jnp.zeros(3))
        """,
    "not_a_path.py": """
        @pytree_dataclass
        class Point:
            x: jax.Array

        jaxdc.attr(Point(jnp.zeros(1)), lambda p: p.x + 1).set(jnp.ones(1))
        """,
    "frozen_assignment.py": """
        @pytree_dataclass
        class Point:
            x: jax.Array

        jaxdc.attr(Point(jnp.zeros(1)), lambda p: p.x).set(jnp.ones(1))
        """,
    "stacked_dataclass.py": """
        @pytree_dataclass
        @dataclasses.dataclass(frozen=True)
        class Both:
            x: jax.Array
        """,
    "descriptor_field.py": """
        class Guarded:  # the least a data descriptor needs
            def __get__(self, obj: object, owner: type | None = None) -> float:
                return 1.0

            def __set__(self, obj: object, value: float) -> None:
                pass

        @pytree_dataclass
        class Scaled:
            scale: Guarded = Guarded()
        """,
}
_PLUGIN_CODES = ("jaxdc-static", "jaxdc-mutation", "jaxdc-decorator", "jaxdc-descriptor")

_RUNTIME = """
import json, sys
messages = {}
for name, source in json.loads(sys.argv[1]).items():
    try:
        exec(compile(source, name, "exec"), {"__name__": name[:-3]})
    except Exception as exc:
        messages[name] = str(exc)
print(json.dumps(messages))
"""


def _static_module(field: str, annotation: str) -> str:
    return PRELUDE + textwrap.dedent(
        f"""

        @pytree_dataclass
        class Model:
            {field}: {annotation}
        """
    )


def _sources() -> dict[str, str]:
    sources = {f"static_{f}.py": _static_module(f, a) for f, a in STATIC_FIELDS.items()}
    sources |= {name: PRELUDE + textwrap.dedent(body) for name, body in BOTH_LAYERS.items()}
    return sources


def test_both_layers_say_the_same_sentence(project: Project) -> None:
    sources = _sources()
    project.write(sources)
    run = project.mypy()
    plugin = {path: message for path, _, code, message in run.errors if code in _PLUGIN_CODES}
    proc = subprocess.run(
        [sys.executable, "-c", _RUNTIME, json.dumps(sources)],
        capture_output=True,
        text=True,
        check=True,
    )
    runtime = json.loads(proc.stdout)
    assert set(plugin) == set(sources), run.stdout
    for name in sources:
        assert plugin[name] == runtime.get(name), name


def test_nested_and_local_classes_read_the_same_in_both_layers(project: Project) -> None:
    """The drift the review found: `Inner` in mypy, `Outer.Inner` in Python."""
    project.write({"nested.py": PRELUDE + textwrap.dedent(BOTH_LAYERS["nested_class.py"])})
    (message,) = project.mypy().messages("jaxdc-static")
    assert message.startswith("static field 'sizes' of class 'Outer.Inner' has unhashable")


def test_typeddict_is_named_by_its_own_name(project: Project) -> None:
    """The other drift: "'dict' is mutable" in mypy, "'Row' is mutable" in Python."""
    project.write({"row.py": _static_module("row", "Static[Row]")})
    (message,) = project.mypy().messages("jaxdc-static")
    assert "has unhashable type 'Row': TypedDict 'Row' is a dict" in message


# --- families only the runtime reports ----------------------------------------------------


@jaxdc.pytree_dataclass
class _Point:
    x: jax.Array
    n: jaxdc.Static[int] = 1


class _Undecorated(_Point):
    def __init__(self) -> None:
        self.x = jnp.zeros(1)


@jaxdc.pytree_dataclass
class _Excluded:
    x: jax.Array
    note: str = jaxdc.field(pytree=False, default="n")


def _define(body: str) -> Callable[[], Any]:
    def define() -> Any:
        namespace = {"jaxdc": jaxdc, "jax": jax, "jnp": jnp, "np": __import__("numpy")}
        # dont_inherit: not this module's `from __future__ import annotations`
        exec(compile(textwrap.dedent(body), "<case>", "exec", dont_inherit=True), namespace)

    return define


def _set(obj: Any, name: str, value: Any) -> Callable[[], Any]:
    return lambda: setattr(obj, name, value)


RUNTIME_ONLY: list[tuple[str, Callable[[], Any], str]] = [
    (
        "undecorated subclass",
        _Undecorated,
        messages.undecorated_subclass("_Undecorated", "_Point"),
    ),
    (
        "unknown replace field",
        lambda: jaxdc.replace(_Point(jnp.zeros(1)), y=1),
        messages.replace_unknown_fields(["y"], "_Point", ["x", "n"]),
    ),
    (
        "replace on something else",
        lambda: jaxdc.replace(3, x=1),
        messages.wrong_argument(
            "jaxdc.replace", messages.JAXDC_INSTANCE, messages.given("instance", "int", "3")
        ),
    ),
    (
        "attr on a class (the plugin's text: typecheck_cases/plugin/attr_placement.py)",
        lambda: jaxdc.attr(_Point, lambda p: p.x),
        messages.wrong_argument(
            "jaxdc.attr",
            messages.ATTR_TARGET,
            messages.given("class", "_Point"),
            messages.PASS_AN_INSTANCE,
        ),
    ),
    (
        "frozen attribute",
        _set(_Point(jnp.zeros(1)), "other", 1),
        messages.frozen_assignment("other", "_Point", is_field=False),
    ),
    (
        "frozen delete",
        lambda: delattr(_Point(jnp.zeros(1)), "n"),
        messages.frozen_delete("n", "_Point"),
    ),
    (
        "static array value",
        lambda: _Point(jnp.zeros(1), jnp.zeros(2)),  # type: ignore[arg-type]
        messages.static_value_array("n", "_Point", "jax.Array", None),
    ),
    (
        "static array inside a value",
        lambda: _Point(jnp.zeros(1), [jnp.zeros(2)]),  # type: ignore[arg-type]
        messages.static_value_array("n", "_Point", "list", "jax.Array"),
    ),
    (
        "static unhashable value",
        lambda: _Point(jnp.zeros(1), {1: 2}),  # type: ignore[arg-type]
        messages.static_value_unhashable("n", "_Point", "dict", "unhashable type: 'dict'"),
    ),
    (
        "value for an excluded field",
        lambda: _Excluded(jnp.zeros(1), note="m"),
        messages.excluded_given("note", "_Excluded"),
    ),
    (
        "excluded field changed by object.__setattr__",
        _define(
            """
            @jaxdc.pytree_dataclass
            class A:
                x: jax.Array
                note: str = jaxdc.field(pytree=False, default="n")

                def __post_init__(self):
                    object.__setattr__(self, "note", "m")

            A(jnp.zeros(1))
            """
        ),
        messages.excluded_set_in_construction("note", "A"),
    ),
    (
        "excluded field without default",
        _define(
            """
            @jaxdc.pytree_dataclass
            class A:
                cache: dict = jaxdc.field(pytree=False)
            """
        ),
        messages.excluded_without_default("cache", "A"),
    ),
    (
        "field not set by a custom __init__",
        _define(
            """
            @jaxdc.pytree_dataclass
            class A:
                x: jax.Array

                def __init__(self):
                    pass

            A()
            """
        ),
        messages.field_not_set("x", "A", init=True),
    ),
    (
        "init=False field never set",
        _define(
            """
            @jaxdc.pytree_dataclass
            class A:
                x: jax.Array = jaxdc.field(init=False)

            A()
            """
        ),
        messages.field_not_set("x", "A", init=False),
    ),
    (
        "unresolved annotation",
        _define(
            """
            @jaxdc.pytree_dataclass
            class A:
                x: "Missing"

            A(1)
            """
        ),
        messages.unresolved_field("x", "A", "'Missing'", "Missing"),
    ),
    (
        "Static[...] and static=False",
        _define(
            """
            @jaxdc.pytree_dataclass
            class A:
                n: jaxdc.Static[int] = jaxdc.field(static=False, default=1)
            """
        ),
        messages.static_annotation_conflict("n", "A"),
    ),
    (
        "static=True and pytree=False",
        lambda: jaxdc.field(static=True, pytree=False),
        messages.FIELD_STATIC_AND_EXCLUDED,
    ),
    (
        "static and pytree_node contradict",
        lambda: jaxdc.field(static=True, pytree_node=True),
        messages.field_static_and_pytree_node(True, True),
    ),
    (
        "unknown option",
        lambda: jaxdc.pytree_dataclass(frozn=True),
        messages.unknown_options("pytree_dataclass", ["frozn"], jaxdc._dataclass.OPTIONS),
    ),
    (
        "frozen=False",
        lambda: jaxdc.pytree_dataclass(frozen=False),
        messages.not_frozen_option("pytree_dataclass"),
    ),
    (
        "options for an already decorated class",
        lambda: jaxdc.pytree_dataclass(_Point, kw_only=True),
        messages.already_decorated("_Point", "_Point"),
    ),
    (
        "non-frozen dataclass base",
        _define(
            """
            import dataclasses

            @dataclasses.dataclass
            class Base:
                x: int

            @jaxdc.pytree_dataclass
            class A(Base):
                y: int
            """
        ),
        messages.non_frozen_base("A", "Base"),
    ),
    (
        "numpy default",
        _define(
            """
            @jaxdc.pytree_dataclass
            class A:
                x: jax.Array = np.zeros(2)
            """
        ),
        messages.numpy_default("x", "A"),
    ),
    (
        "PyTreeNode with slots=True",
        _define(
            """
            class A(jaxdc.PyTreeNode, slots=True):
                x: jax.Array
            """
        ),
        messages.pytree_node_slots("A"),
    ),
    (
        "hash of an instance holding an array",
        lambda: hash(_Point(jnp.zeros(1))),
        messages.instance_unhashable("_Point", "x", "an array"),
    ),
    (
        "== under jit",
        lambda: jax.jit(lambda a, b: a == b)(_Point(jnp.zeros(1)), _Point(jnp.zeros(1))),
        messages.traced_comparison("_Point", "x"),
    ),
    (
        "not a jaxdc class",
        lambda: jaxdc._dataclass.ensure_spec(int),
        messages.not_a_jaxdc_class("int"),
    ),
]


@pytest.mark.parametrize(
    ("action", "expected"),
    [pytest.param(action, expected, id=name) for name, action, expected in RUNTIME_ONLY],
)
def test_runtime_raises_the_shared_sentence(action: Callable[[], Any], expected: str) -> None:
    with pytest.raises((TypeError, dataclasses.FrozenInstanceError, AttributeError)) as info:
        action()
    assert str(info.value) == expected


# --- families only the plugin reports -----------------------------------------------------


def test_plugin_data_and_jit_messages_are_the_shared_sentences(project: Project) -> None:
    project.write(
        {
            "plugin_only.py": PRELUDE
            + textwrap.dedent(
                """
                @pytree_dataclass
                class Model:
                    name: str
                    labels: list[str]

                @jaxdc.jit
                def step(x: jax.Array, sizes: Static[list[int]]) -> jax.Array:
                    return x
                """
            )
        }
    )
    run = project.mypy()
    assert run.messages("jaxdc-data") == [
        messages.data_not_arraylike("name", "Model", "str", Problem("text", "str")),
        messages.data_not_arraylike("labels", "Model", "list[str]", Problem("text", "str")),
    ]
    assert run.messages("jaxdc-static") == [
        messages.jit_static_unhashable("sizes", "step", Problem("mutable", "list", "list[int]"))
    ]


# --- no module builds message text itself -------------------------------------------------


def _modules() -> list[Path]:
    runtime = list((REPO / "runtime" / "jaxdc").rglob("*.py"))
    plugin = list((REPO / "mypy_plugin" / "jaxdc_mypy").rglob("*.py"))
    return runtime + plugin


def _inline_messages(path: Path) -> list[int]:
    """Lines raising or reporting an exception whose message is written in place."""
    lines = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call):
            args = node.exc.args
            if args and _is_text(args[0]):
                lines.append(node.lineno)
        elif isinstance(node, ast.Call) and getattr(node.func, "attr", None) == "fail":
            if node.args and _is_text(node.args[0]):
                lines.append(node.lineno)
    return lines


def _is_text(node: ast.expr) -> bool:
    if isinstance(node, ast.Constant):
        return isinstance(node.value, str)
    return isinstance(node, (ast.JoinedStr, ast.BinOp))


def test_no_runtime_or_plugin_module_writes_its_own_messages() -> None:
    found = {p.name: lines for p in _modules() if (lines := _inline_messages(p))}
    assert not found, f"messages written in place (move them to _jaxdc_rules.messages): {found}"
