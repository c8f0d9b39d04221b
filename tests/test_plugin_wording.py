"""The plugin and the runtime say the same sentence about the same unhashable static field.

Each snippet defines one class with one bad static field. Python raises TypeError at class
definition (jaxdc._hashability); mypy + plugin reports jaxdc-static. The texts must match.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

from checkers import Project

PRELUDE = """
import dataclasses
from collections import deque
from typing import Optional, Union

import jax
import numpy as np
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
"""

FIELDS = {
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
}

_RUNTIME = """
import json, sys
messages = {}
for name, source in json.loads(sys.argv[1]).items():
    try:
        exec(compile(source, name, "exec"), {"__name__": name[:-3]})
    except TypeError as exc:
        messages[name] = str(exc)
print(json.dumps(messages))
"""


def _module(field: str, annotation: str) -> str:
    return PRELUDE + textwrap.dedent(
        f"""

        @pytree_dataclass
        class Model:
            {field}: {annotation}  # type: ignore[type-var,unused-ignore]
        """
    )


def test_static_field_messages_match_the_runtime(project: Project) -> None:
    sources = {
        f"case_{field}.py": _module(field, annotation) for field, annotation in FIELDS.items()
    }
    project.write(sources)
    run = project.mypy()
    plugin = {path: message for path, _, code, message in run.errors if code == "jaxdc-static"}
    proc = subprocess.run(
        [sys.executable, "-c", _RUNTIME, json.dumps(sources)],
        capture_output=True,
        text=True,
        check=True,
    )
    runtime = json.loads(proc.stdout)
    assert set(plugin) == set(sources), run.stdout
    assert plugin == runtime
