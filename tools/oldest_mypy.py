"""Create the venv holding the oldest mypy the plugin supports, and print its Python.

`make venv` runs this once (it needs PyPI); the tests call `ensure()` again, which only
checks the version when the venv exists, so `make test` then runs offline. The venv lives
under .venv/ (so `make clean` removes it with .venv) and holds mypy alone: it type-checks
against the main venv's site-packages (`--python-executable`), and a .pth file puts the
plugin and the shared rules package of this checkout on its path.
"""

from __future__ import annotations

import fcntl
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
OLDEST_MYPY = "1.11.0"  # keep in step with the `mypy>=` bound in pyproject.toml
VENV = REPO / ".venv" / "mypy-oldest"
PYTHON = VENV / "bin" / "python"
# What the plugin imports from this checkout (an editable install of jaxdc puts the same
# directories on the main venv's path).
PLUGIN_ROOTS = ("mypy_plugin", "rules")


def _installed_version() -> str | None:
    if not PYTHON.exists():
        return None
    proc = subprocess.run(
        [str(PYTHON), "-c", "import mypy.version; print(mypy.version.__version__)"],
        capture_output=True,
        text=True,
        check=False,
    )
    return proc.stdout.strip() if proc.returncode == 0 else None


def ensure() -> Path:
    """The venv's Python, after creating the venv if needed (once; needs PyPI)."""
    VENV.parent.mkdir(parents=True, exist_ok=True)
    with open(VENV.parent / "mypy-oldest.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # pytest-xdist workers take turns
        if _installed_version() != OLDEST_MYPY:
            subprocess.run([sys.executable, "-m", "venv", "--clear", str(VENV)], check=True)
            subprocess.run(
                [str(PYTHON), "-m", "pip", "install", "-q", f"mypy=={OLDEST_MYPY}"], check=True
            )
        site = subprocess.run(
            [str(PYTHON), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
        roots = "".join(f"{REPO / root}\n" for root in PLUGIN_ROOTS)
        (Path(site) / "jaxdc_mypy_plugin.pth").write_text(roots)
    return PYTHON


def command(python: str = sys.executable) -> list[str]:
    """How to run the oldest mypy against the packages of the venv of ``python``."""
    return [str(ensure()), "-m", "mypy", "--python-executable", python]


if __name__ == "__main__":
    print(ensure())
