"""jaxdc's switches (`jaxdc.config`): retrace explanations and the retrace-storm warning.

    jaxdc.config.explain_retraces = True      # or JAXDC_EXPLAIN_RETRACES=1
    jaxdc.config.retrace_warning_after = 8    # the default; None or 0 switches it off
                                              # (or JAXDC_RETRACE_WARNING_AFTER=0)

Read when a `jaxdc.jit` function traces, never on a call that reuses a trace, so changing
them costs nothing on the fast path. JAX's own `jax_explain_cache_misses` also turns the
explanations on (see `_retrace`).
"""

from __future__ import annotations

import dataclasses
import os
import warnings
from collections.abc import Callable

from _jaxdc_rules import messages

__all__ = ["Config", "config"]

_EXPLAIN = "JAXDC_EXPLAIN_RETRACES"
_WARN_AFTER = "JAXDC_RETRACE_WARNING_AFTER"


def _is_count(value: object) -> bool:
    return value is None or (type(value) is int and value >= 0)


# What each switch accepts (checked on assignment: a wrong value would otherwise surface
# as an error inside the next trace), and how the error says it.
def _is_flag(value: object) -> bool:
    return type(value) is bool


_ACCEPTS: dict[str, tuple[Callable[[object], bool], str]] = {
    "explain_retraces": (_is_flag, "True or False"),
    "retrace_warning_after": (_is_count, "a whole number of retraces, or None (never warn)"),
}


@dataclasses.dataclass
class Config:
    explain_retraces: bool = False
    """Log one line (logger `jaxdc`, level WARNING) per retrace of a `jaxdc.jit` function,
    naming what changed since the closest earlier trace."""
    retrace_warning_after: int | None = 8
    """Warn (`jaxdc.RetraceWarning`, once per function and static) when the same static
    value has made a `jaxdc.jit` function trace again this many times. None or 0: never."""

    def __setattr__(self, name: str, value: object) -> None:
        accepts = _ACCEPTS.get(name)
        if accepts is not None and not accepts[0](value):
            raise TypeError(messages.config_value(name, repr(value), accepts[1]))
        object.__setattr__(self, name, value)


def _from_environment() -> Config:
    """The defaults, or the environment's settings; a value that cannot be read is named
    in a warning and the default stays (importing jaxdc never fails because of it)."""
    made = Config()
    explain = os.environ.get(_EXPLAIN, "").strip().lower()
    if explain in ("1", "true", "yes", "on"):
        made.explain_retraces = True
    elif explain not in ("", "0", "false", "no", "off"):
        warnings.warn(messages.config_environment(_EXPLAIN, explain, "1 or 0"), stacklevel=2)
    after = os.environ.get(_WARN_AFTER, "").strip()
    if after.isdigit():
        made.retrace_warning_after = int(after)
    elif after:
        expected = "a whole number (0: off)"
        warnings.warn(messages.config_environment(_WARN_AFTER, after, expected), stacklevel=2)
    return made


config = _from_environment()
