"""The language-server client ends what it started, whatever the server does: a server
that never answers makes a request time out, and closing it ends its whole process group
(pyright runs node, and node runs workers), also the processes it started."""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

import pytest
from langserver import LanguageServer

# A server that starts a child of its own, writes both pids, and never answers.
SILENT_SERVER = """
import subprocess, sys, time
child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"])
open("pids", "w").write(f"{__import__('os').getpid()} {child.pid}")
time.sleep(600)
"""


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def test_a_silent_server_times_out_and_its_process_group_is_ended(tmp_path: Path) -> None:
    (tmp_path / "server.py").write_text(SILENT_SERVER)
    server = LanguageServer([sys.executable, str(tmp_path / "server.py")], tmp_path, timeout=1)
    try:
        started = time.monotonic()
        with pytest.raises(TimeoutError, match="did not answer in time"):
            server.request("initialize", {})
        assert time.monotonic() - started < 10
        while not (tmp_path / "pids").exists():
            time.sleep(0.05)
        pids = [int(pid) for pid in (tmp_path / "pids").read_text().split()]
        assert all(_alive(pid) for pid in pids)
    finally:
        server.close()
    deadline = time.monotonic() + 10
    while any(_alive(pid) for pid in pids) and time.monotonic() < deadline:
        time.sleep(0.05)  # the grandchild is reparented; its exit is reaped by init
    assert not any(_alive(pid) for pid in pids)
