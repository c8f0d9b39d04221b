"""A minimal Language Server Protocol client: framed JSON-RPC over a server's stdin/stdout,
the way an editor drives pyright-langserver, basedpyright-langserver and `ty server`.

Standard library only. Each server runs in its own process group (its own session), so
`close` can end the server and anything it started (pyright runs a node process, and
workers of its own), also when a test fails or a request times out.
"""

from __future__ import annotations

import json
import os
import selectors
import signal
import subprocess
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

# How long one request (or a wait for diagnostics) may take. The first request after
# opening a file pays for the analysis of jax's stubs: a few seconds on a warm machine.
TIMEOUT = 60.0
# How long a server may take to shut down politely before its process group is killed.
SHUTDOWN_TIMEOUT = 5.0


class LanguageServer:
    """One server process, spoken to like an editor does."""

    def __init__(self, command: Sequence[str], workspace: Path, timeout: float = TIMEOUT) -> None:
        self.name = Path(command[0]).name
        self.timeout = timeout
        self.proc = subprocess.Popen(
            list(command),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            cwd=workspace,
            start_new_session=True,  # its own process group: close() ends all of it
        )
        self.selector = selectors.DefaultSelector()
        assert self.proc.stdout is not None
        self.selector.register(self.proc.stdout, selectors.EVENT_READ)
        self.buffer = b""
        self.next_id = 0
        self.diagnostics: dict[str, list[dict[str, Any]]] = {}
        """The last diagnostics the server published, by document URI."""

    def send(self, message: dict[str, Any]) -> None:
        body = json.dumps({"jsonrpc": "2.0", **message}).encode()
        assert self.proc.stdin is not None
        self.proc.stdin.write(b"Content-Length: %d\r\n\r\n%s" % (len(body), body))
        self.proc.stdin.flush()

    def notify(self, method: str, params: Any) -> None:
        self.send({"method": method, "params": params})

    def request(self, method: str, params: Any, timeout: float | None = None) -> Any:
        """Send a request and return its result, answering the server's own requests and
        keeping the diagnostics it publishes meanwhile."""
        self.next_id += 1
        request_id = self.next_id
        self.send({"id": request_id, "method": method, "params": params})
        deadline = time.monotonic() + (self.timeout if timeout is None else timeout)
        for message in self._messages(deadline):
            if message.get("id") == request_id and "method" not in message:
                assert "error" not in message, f"{self.name}: {method}: {message['error']}"
                return message["result"]
        raise AssertionError("unreachable")

    def wait_for_diagnostics(
        self, uri: str, until: Callable[[list[dict[str, Any]]], bool]
    ) -> list[dict[str, Any]]:
        """The diagnostics published for ``uri`` once they satisfy ``until`` (a server may
        publish an empty list for a file it has not analysed yet)."""
        if until(self.diagnostics.get(uri, [])):
            return self.diagnostics[uri]
        for _ in self._messages(time.monotonic() + self.timeout):
            if until(self.diagnostics.get(uri, [])):
                break
        return self.diagnostics[uri]

    def _messages(self, deadline: float) -> Iterator[dict[str, Any]]:
        """Every message from the server until ``deadline``, after handling the ones that
        are not answers: requests (answered with null) and published diagnostics."""
        while True:
            message = self._next(deadline)
            if message.get("method") == "textDocument/publishDiagnostics":
                params = message["params"]
                self.diagnostics[params["uri"]] = params["diagnostics"]
            elif "id" in message and "method" in message:  # e.g. workspace/configuration
                self.send({"id": message["id"], "result": self._answer(message)})
            yield message

    @staticmethod
    def _answer(request: dict[str, Any]) -> Any:
        """workspace/configuration asks for one value per item: none means defaults."""
        if request["method"] == "workspace/configuration":
            return [None for _ in request["params"]["items"]]
        return None

    def _next(self, deadline: float) -> dict[str, Any]:
        while True:
            header, sep, rest = self.buffer.partition(b"\r\n\r\n")
            if sep:
                length = int(header.split(b"Content-Length:")[1].split(b"\r\n")[0])
                if len(rest) >= length:
                    self.buffer = rest[length:]
                    message: dict[str, Any] = json.loads(rest[:length])
                    return message
            remaining = deadline - time.monotonic()
            if remaining <= 0 or not self.selector.select(remaining):
                raise TimeoutError(f"{self.name} did not answer in time")
            assert self.proc.stdout is not None
            chunk = os.read(self.proc.stdout.fileno(), 65536)
            if not chunk:
                raise EOFError(f"{self.name} exited ({self.proc.poll()})")
            self.buffer += chunk

    def close(self) -> None:
        """Shut down politely, then end the whole process group whatever happened."""
        try:
            if self.proc.poll() is None:
                self.request("shutdown", None, timeout=SHUTDOWN_TIMEOUT)
                self.notify("exit", None)
                self.proc.wait(timeout=SHUTDOWN_TIMEOUT)
        except (OSError, TimeoutError, EOFError, subprocess.TimeoutExpired, AssertionError):
            pass
        finally:
            try:
                os.killpg(self.proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass  # the group is gone already
            self.proc.wait()
            self.selector.close()
            for pipe in (self.proc.stdin, self.proc.stdout):
                if pipe is not None:
                    pipe.close()
