"""What an editor shows: drive pyright-langserver, basedpyright-langserver and `ty server`
over JSON-RPC like VS Code does (`langserver.py`), for a Python 3.13 target.

Completion on an instance offers the field names, and inside `Cls(` and `jdc.replace(obj, `
the field keywords; signature help lists the fields with their types; hovering a field
shows its type and hovering `Static` explains what static means (the stubs' docstring);
and each mistake in examples/misuse.py is published as one error on its line. All of it
comes from the stubs (`dataclass_transform`, `replace` typed from `__replace__`): without
them the editor shows `Layer()` with no parameters. pyright and basedpyright name a static
field's type `Static[str]`, not `str`: they keep alias names in signatures and hovers,
which tells the reader both the value type and that the argument is static (a jit cache
key); ty shows the value type, `str`. Where a server does not yet do what an editor should
(ty completing `replace`'s keywords), the test is an expected failure that fails the day
the server learns it.

Each server is one process (its own process group, always ended) per worker, serving
every test of the module; the first request pays for reading jax's stubs.
"""

from __future__ import annotations

import json
import os
import re
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path
from typing import Any, NamedTuple

import checkers
import pytest
from langserver import LanguageServer

BIN = Path(sys.executable).parent
REPO = Path(__file__).resolve().parent.parent
MISUSE = REPO / "examples" / "misuse.py"
# The target Python the editor is configured for: from 3.13 on, `replace` takes the keywords
# of the `__replace__` the checkers synthesise.
TARGET = "3.13"
SERVERS = {
    "pyright": [str(BIN / "pyright-langserver"), "--stdio"],
    "basedpyright": [str(BIN / "basedpyright-langserver"), "--stdio"],
    "ty": [str(BIN / "ty"), "server"],
}

SOURCE = textwrap.dedent(
    """\
    import jax
    import jax.numpy as jnp
    import jaxdc as jdc
    from jaxdc import Static, pytree_dataclass


    @pytree_dataclass
    class Layer:
        weights: jax.Array
        name: Static[str]
        width: Static[int] = 4


    layer = Layer(jnp.zeros(3), "dense")
    print(layer.name)
    Layer()
    jdc.replace(layer, )
    layer.
    """
)
FIELDS = {"weights", "name", "width"}


def after(snippet: str) -> dict[str, int]:
    """The LSP position just after the first ``snippet`` in SOURCE."""
    offset = SOURCE.index(snippet) + len(snippet)
    line = SOURCE.count("\n", 0, offset)
    return {"line": line, "character": offset - (SOURCE.rfind("\n", 0, offset) + 1)}


def on(snippet: str, word: str) -> dict[str, int]:
    """The position of the first letter of ``word`` inside the first ``snippet``."""
    position = after(snippet)
    position["character"] -= len(snippet) - snippet.index(word)
    return position


class Session(NamedTuple):
    server: LanguageServer
    name: str
    model: str
    """URI of SOURCE."""
    misuse: str
    """URI of examples/misuse.py."""

    def ask(self, method: str, uri: str, position: dict[str, int]) -> Any:
        return self.server.request(method, {"textDocument": {"uri": uri}, "position": position})


def _workspace(root: Path) -> None:
    """The editor's project settings: this venv, a Python 3.13 target, server defaults."""
    env = Path(sys.prefix)
    config = {"venvPath": str(env.parent), "venv": env.name, "pythonVersion": TARGET}
    (root / "pyrightconfig.json").write_text(json.dumps(config))
    (root / "ty.toml").write_text(f'[environment]\npython = "{env}"\npython-version = "{TARGET}"\n')
    (root / "model.py").write_text(SOURCE)
    (root / "misuse.py").write_text(MISUSE.read_text())


CAPABILITIES = {
    "textDocument": {
        "completion": {"completionItem": {"snippetSupport": False}},
        "hover": {"contentFormat": ["markdown", "plaintext"]},
        "signatureHelp": {
            "signatureInformation": {"parameterInformation": {"labelOffsetSupport": True}}
        },
        "publishDiagnostics": {},
    }
}


@pytest.fixture(scope="module", params=list(SERVERS))
def session(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Session]:
    name: str = request.param
    root = tmp_path_factory.mktemp(f"editor-{name}")
    _workspace(root)
    server = LanguageServer(SERVERS[name], root)
    try:
        server.request(
            "initialize",
            {
                "processId": os.getpid(),
                "rootUri": root.as_uri(),
                "workspaceFolders": [{"uri": root.as_uri(), "name": root.name}],
                "capabilities": CAPABILITIES,
            },
        )
        server.notify("initialized", {})
        uris = []
        for file in ("model.py", "misuse.py"):
            uri = (root / file).as_uri()
            text = (root / file).read_text()
            document = {"uri": uri, "languageId": "python", "version": 1, "text": text}
            server.notify("textDocument/didOpen", {"textDocument": document})
            uris.append(uri)
        yield Session(server, name, *uris)
    finally:
        server.close()


def _labels(result: Any) -> set[str]:
    items = result["items"] if isinstance(result, dict) else result
    return {item["label"] for item in items}


def _hover_text(result: Any) -> str:
    contents = result["contents"]
    return contents["value"] if isinstance(contents, dict) else str(contents)


def test_completion_after_the_object_offers_the_fields(session: Session) -> None:
    result = session.ask("textDocument/completion", session.model, after("\nlayer."))
    assert FIELDS <= _labels(result)


def test_completion_inside_the_constructor_offers_the_field_keywords(session: Session) -> None:
    result = session.ask("textDocument/completion", session.model, after("\nLayer("))
    assert {f"{field}=" for field in FIELDS} <= _labels(result)


def _not_yet_on_ty(session: Session, request: pytest.FixtureRequest, what: str) -> None:
    """An expected failure on ty (strict: it fails the day ty learns ``what``)."""
    if session.name == "ty":
        request.applymarker(pytest.mark.xfail(strict=True, reason=f"ty 0.0.105 {what}"))


def test_completion_inside_replace_offers_the_field_keywords(
    session: Session, request: pytest.FixtureRequest
) -> None:
    _not_yet_on_ty(session, request, "completes no keyword a ParamSpec carries (it checks them)")
    result = session.ask("textDocument/completion", session.model, after("jdc.replace(layer, "))
    assert {f"{field}=" for field in FIELDS} <= _labels(result)


# What signature help shows inside `Layer(` (parameters are [start, end) offsets into it).
CONSTRUCTOR_SIGNATURE = {
    "pyright": "(weights: Array, name: Static[str], width: Static[int] = 4) -> Layer",
    "basedpyright": "(weights: Array, name: Static[str], width: Static[int] = 4) -> Layer",
    "ty": "(weights: Array, name: str, width: int = 4) -> Layer",
}


def test_signature_help_shows_the_fields_with_their_types(session: Session) -> None:
    result = session.ask("textDocument/signatureHelp", session.model, after("\nLayer("))
    (signature,) = result["signatures"]
    label = signature["label"]
    assert label == CONSTRUCTOR_SIGNATURE[session.name]
    parameters = [label[start:end] for start, end in (p["label"] for p in signature["parameters"])]
    assert [p.partition(":")[0] for p in parameters] == ["weights", "name", "width"]


def test_signature_help_inside_replace_shows_the_field_keywords(
    session: Session, request: pytest.FixtureRequest
) -> None:
    _not_yet_on_ty(session, request, "shows the ParamSpec, not the keywords it carries")
    result = session.ask("textDocument/signatureHelp", session.model, after("jdc.replace(layer, "))
    (signature,) = result["signatures"]
    assert signature["label"].endswith(
        "/, *, weights: Array = ..., name: Static[str] = ..., width: Static[int] = ...) -> Layer"
    )


# What hovering `layer.name` shows.
FIELD_HOVER = {"pyright": "name: Static[str]", "basedpyright": "name: Static[str]", "ty": "str"}


def test_hover_on_a_field_shows_its_type(session: Session) -> None:
    result = session.ask("textDocument/hover", session.model, on("print(layer.name)", "name"))
    code = re.search(r"```\w*\n(.*?)\n```", _hover_text(result), re.DOTALL)
    assert code is not None, result
    assert code.group(1).endswith(FIELD_HOVER[session.name])


def test_hover_on_static_explains_what_it_means(session: Session) -> None:
    result = session.ask("textDocument/hover", session.model, on("name: Static[str]", "Static"))
    text = " ".join(_hover_text(result).split())
    assert "`Static[T]`: a static field (or `jaxdc.jit` parameter) of type `T`." in text
    assert "part of the jit cache key" in text
    assert "`T` must be hashable" in text


class Mistake(NamedTuple):
    line: str
    """What the line of examples/misuse.py starts with."""
    codes: dict[str, str]
    """The one error each server publishes on it: pyright's code (basedpyright's too), ty's."""


# What pyright (and basedpyright) and ty call an unhashable Static[...].
UNHASHABLE = {"pyright": "reportInvalidTypeForm", "ty": "invalid-type-arguments"}
MISTAKES = [
    Mistake("layers: jdc.Static[list[int]]", UNHASHABLE),
    Mistake("table: jdc.Static[np.ndarray]", UNHASHABLE),
    Mistake("config: jdc.Static[Config]", UNHASHABLE),
    Mistake(
        "model.w = jnp.zeros(3)",
        {"pyright": "reportAttributeAccessIssue", "ty": "invalid-assignment"},
    ),
    Mistake("Model(jnp.ones(3))", {"pyright": "reportCallIssue", "ty": "missing-argument"}),
    Mistake("jdc.replace(model, wieght=", {"pyright": "reportCallIssue", "ty": "unknown-argument"}),
    Mistake("def forward(", UNHASHABLE),
]


def test_each_mistake_of_the_misuse_example_is_one_error_on_its_line(session: Session) -> None:
    lines = MISUSE.read_text().splitlines()
    family = "ty" if session.name == "ty" else "pyright"
    expected = {}
    for mistake in MISTAKES:
        (number,) = [n for n, text in enumerate(lines, 1) if text.strip().startswith(mistake.line)]
        expected[number] = [mistake.codes[family]]
    if session.name == "basedpyright" and not checkers.numpy_defaults_array_type_arguments():
        # basedpyright's own rule about numpy, not jaxdc's: under numpy 1.x (the oldest
        # leg) the bare `np.ndarray` in `Static[np.ndarray]` lacks its type arguments
        (table,) = [n for n, text in enumerate(lines, 1) if "Static[np.ndarray]" in text]
        expected[table].append("reportMissingTypeArgument")
    errors: dict[int, list[str]] = {}
    published = session.server.wait_for_diagnostics(
        session.misuse, until=lambda found: any(d["severity"] == 1 for d in found)
    )
    for diagnostic in published:
        if diagnostic["severity"] == 1:  # errors; hints and warnings ask nothing of the user
            line = diagnostic["range"]["start"]["line"] + 1
            errors.setdefault(line, []).append(diagnostic.get("code"))
    assert errors == expected
