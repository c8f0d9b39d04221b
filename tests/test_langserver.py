"""What an editor shows: drive `pyright-langserver --stdio` over JSON-RPC like VS Code does.

Completion on an instance must offer the field names, and the constructor's signature help
must list the fields with their types (the stubs' `dataclass_transform` is what makes both
work: without it the editor shows `Layer()` with no parameters). pyright names a static
field's type `Static[str]`, not `str`: it keeps alias names in signatures and hovers, which
tells the reader both the value type and that the argument is static (a jit cache key);
the field's value type is plain `str` (see typecheck_cases/constructor_types.py).
"""

from __future__ import annotations

import json
import os
import selectors
import subprocess
import sys
import textwrap
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

TIMEOUT = 60.0  # first analysis reads jax's stubs; a few seconds on a warm machine

SOURCE = textwrap.dedent(
    """\
    import jax
    import jax.numpy as jnp
    from jaxdc import Static, pytree_dataclass

    @pytree_dataclass
    class Layer:
        weights: jax.Array
        name: Static[str]
        width: Static[int] = 4

    layer = Layer(jnp.zeros(3), "dense")
    layer.
    """
)
COMPLETION_AT = {"line": 11, "character": 6}  # after `layer.`
SIGNATURE_AT = {"line": 10, "character": 14}  # just inside `Layer(`


class LanguageServer:
    """A minimal LSP client: framed JSON-RPC on the server's stdin/stdout."""

    def __init__(self, workspace: Path) -> None:
        self.proc = subprocess.Popen(
            [str(Path(sys.executable).parent / "pyright-langserver"), "--stdio"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            cwd=workspace,
        )
        self.selector = selectors.DefaultSelector()
        assert self.proc.stdout is not None
        self.selector.register(self.proc.stdout, selectors.EVENT_READ)
        self.buffer = b""
        self.next_id = 0

    def send(self, message: dict[str, Any]) -> None:
        body = json.dumps({"jsonrpc": "2.0", **message}).encode()
        assert self.proc.stdin is not None
        self.proc.stdin.write(b"Content-Length: %d\r\n\r\n%s" % (len(body), body))
        self.proc.stdin.flush()

    def notify(self, method: str, params: dict[str, Any]) -> None:
        self.send({"method": method, "params": params})

    def request(self, method: str, params: dict[str, Any]) -> Any:
        """Send a request and return its result, answering the server's own requests."""
        self.next_id += 1
        request_id = self.next_id
        self.send({"id": request_id, "method": method, "params": params})
        for message in self._messages(time.monotonic() + TIMEOUT):
            if message.get("id") == request_id and "method" not in message:
                assert "error" not in message, message
                return message["result"]
            if "id" in message and "method" in message:  # e.g. workDoneProgress/create
                self.send({"id": message["id"], "result": None})
        raise AssertionError("unreachable")

    def _messages(self, deadline: float) -> Iterator[dict[str, Any]]:
        while True:
            header, sep, rest = self.buffer.partition(b"\r\n\r\n")
            if sep:
                length = int(header.split(b"Content-Length:")[1].split(b"\r\n")[0])
                if len(rest) >= length:
                    self.buffer = rest[length:]
                    yield json.loads(rest[:length])
                    continue
            remaining = deadline - time.monotonic()
            if remaining <= 0 or not self.selector.select(remaining):
                raise TimeoutError(f"pyright-langserver did not answer within {TIMEOUT}s")
            assert self.proc.stdout is not None
            chunk = os.read(self.proc.stdout.fileno(), 65536)
            if not chunk:
                raise EOFError("pyright-langserver exited")
            self.buffer += chunk

    def close(self) -> None:
        try:
            self.request("shutdown", {})
            self.notify("exit", {})
            self.proc.wait(timeout=5)
        finally:
            if self.proc.poll() is None:
                self.proc.kill()
                self.proc.wait()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[LanguageServer, str]]:
    workspace = tmp_path_factory.mktemp("editor")
    env = Path(sys.prefix)
    (workspace / "pyrightconfig.json").write_text(
        json.dumps({"venvPath": str(env.parent), "venv": env.name})
    )
    source = workspace / "model.py"
    source.write_text(SOURCE)
    uri = source.as_uri()
    ls = LanguageServer(workspace)
    try:
        ls.request(
            "initialize",
            {
                "processId": os.getpid(),
                "rootUri": workspace.as_uri(),
                "workspaceFolders": [{"uri": workspace.as_uri(), "name": workspace.name}],
                "capabilities": {
                    "textDocument": {
                        "completion": {"completionItem": {"snippetSupport": False}},
                        "signatureHelp": {
                            "signatureInformation": {
                                "parameterInformation": {"labelOffsetSupport": True}
                            }
                        },
                    }
                },
            },
        )
        ls.notify("initialized", {})
        ls.notify(
            "textDocument/didOpen",
            {"textDocument": {"uri": uri, "languageId": "python", "version": 1, "text": SOURCE}},
        )
        yield ls, uri
    finally:
        ls.close()


def test_completion_offers_the_fields(server: tuple[LanguageServer, str]) -> None:
    ls, uri = server
    result = ls.request(
        "textDocument/completion", {"textDocument": {"uri": uri}, "position": COMPLETION_AT}
    )
    items = result["items"] if isinstance(result, dict) else result
    labels = {item["label"] for item in items}
    assert {"weights", "name", "width"} <= labels


def test_signature_help_shows_the_fields_with_their_types(
    server: tuple[LanguageServer, str],
) -> None:
    ls, uri = server
    result = ls.request(
        "textDocument/signatureHelp", {"textDocument": {"uri": uri}, "position": SIGNATURE_AT}
    )
    (signature,) = result["signatures"]
    assert signature["label"] == (
        "(weights: Array, name: Static[str], width: Static[int] = 4) -> Layer"
    )
    label = signature["label"]  # parameters are [start, end) offsets into it
    assert [label[start:end] for start, end in (p["label"] for p in signature["parameters"])] == [
        "weights: Array",
        "name: Static[str]",
        "width: Static[int] = 4",
    ]
