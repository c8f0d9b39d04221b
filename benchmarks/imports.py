"""Import cost of each library on top of `import jax`, in fresh subprocesses.

Bytecode is cached in a private PYTHONPYCACHEPREFIX (this machine sets
PYTHONDONTWRITEBYTECODE=1, which would make an editable jaxdc recompile its sources on
every import while the installed peers load their .pyc files), and one unrecorded warm-up
import per library fills that cache first, so every library is measured with warm bytecode,
as users see it.

Each subprocess imports jax (and jax.numpy), then times `import <library>` with
`time.perf_counter` (wall; imports read files) and `time.thread_time` (CPU). Rounds are
interleaved in a shuffled order; the table reports the best of the rounds. The child
also reports which notable heavy packages the import pulled in (flax, mypy, ...).
"""

from __future__ import annotations

import dataclasses
import json
import os
import random
import subprocess
import sys
import tempfile

_CHILD = r"""
import json, sys, time
import jax, jax.numpy
before = set(sys.modules)
w0 = time.perf_counter(); c0 = time.thread_time()
{stmt}
c1 = time.thread_time(); w1 = time.perf_counter()
new = sorted({{m.split('.')[0] for m in set(sys.modules) - before}})
print(json.dumps({{"wall": w1 - w0, "cpu": c1 - c0, "new": new}}))
"""

HEAVY = (
    "flax",
    "mypy",
    "optax",
    "orbax",
    "tensorflow",
    "torch",
    "equinox",
    "chex",
    "pandas",
    "scipy",
    "rich",
    "jaxtyping",
    "typeguard",
)


@dataclasses.dataclass
class ImportResult:
    lib: str
    stmt: str
    wall_ms: list[float] = dataclasses.field(default_factory=list)
    cpu_ms: list[float] = dataclasses.field(default_factory=list)
    heavy: list[str] = dataclasses.field(default_factory=list)
    error: str = ""


def measure(libs: dict[str, str], rounds: int, seed: int = 1) -> list[ImportResult]:
    """libs: name -> import statement ("" = nothing beyond jax)."""
    rng = random.Random(seed)
    results = {k: ImportResult(k, v) for k, v in libs.items()}
    order = list(libs)
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    tag = f"{sys.version_info.major}{sys.version_info.minor}"
    env["PYTHONPYCACHEPREFIX"] = os.path.join(tempfile.gettempdir(), f"jaxdc-bench-pycache-{tag}")
    for k in order:  # warm-up: fill the bytecode cache
        subprocess.run(
            [sys.executable, "-c", _CHILD.format(stmt=libs[k] or "pass")],
            capture_output=True,
            env=env,
            timeout=300,
        )
    for _ in range(rounds):
        rng.shuffle(order)
        for k in order:
            res = results[k]
            if res.error:
                continue
            code = _CHILD.format(stmt=res.stmt or "pass")
            proc = subprocess.run(
                [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, env=env
            )
            if proc.returncode != 0:
                res.error = (proc.stderr.strip().splitlines() or ["failed"])[-1]
                continue
            out = json.loads(proc.stdout.strip().splitlines()[-1])
            res.wall_ms.append(out["wall"] * 1e3)
            res.cpu_ms.append(out["cpu"] * 1e3)
            own = (res.stmt.split()[-1].split(".")[0],) if res.stmt else ()
            res.heavy = [m for m in out["new"] if m in HEAVY and m not in own]
    return list(results.values())
