"""Runs multi_device_cases.py in its own process on 8 CPU devices.

JAX fixes its device count when it starts, and the rest of the suite runs on one device,
so the cases run under a separate pytest with
XLA_FLAGS=--xla_force_host_platform_device_count=8.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent


def test_jaxdc_classes_on_eight_devices(tmp_path: Path) -> None:
    env = {**os.environ, "XLA_FLAGS": "--xla_force_host_platform_device_count=8"}
    env["JAX_PLATFORMS"] = "cpu"
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            "-p",
            "no:xdist",
            "--basetemp",
            str(tmp_path / "basetemp"),
            str(HERE / "multi_device_cases.py"),
        ],
        capture_output=True,
        text=True,
        env=env,
        cwd=HERE.parent,
        timeout=900,
        check=False,
    )
    assert proc.returncode == 0, proc.stdout[-6000:] + proc.stderr[-3000:]
    assert " passed" in proc.stdout and "skipped" not in proc.stdout, proc.stdout
