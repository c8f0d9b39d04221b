"""Retraces of a `jaxdc.jit` function: explained in one line, and a storm stopped with advice.

`jax.jit` runs the Python function only to trace it, so the function `jaxdc.jit` hands it
(`RetraceLog.traced`) sees every trace and nothing else: a call that reuses a trace never
reaches it, and the fast path pays nothing. Each trace is remembered as what jit keys it
by: the static arguments, and the data arguments' skeletons (`_tree_diff.skeleton`: node
types, metadata and keys, leaves reduced to shape and dtype; read by flattening only, and
never holding a tracer, which would keep the trace alive). A new
trace is compared with the closest remembered one (`tree_diff`), which names what changed:

    train_step: state.opt.lr changed 0.1 -> 0.2 (static field 'lr' of 'Opt')

That line is logged (logger `jaxdc`, WARNING, as JAX logs its own explanation) when
`jaxdc.config.explain_retraces` or JAX's `jax_explain_cache_misses` is on. Independently,
when one static (a field path or a parameter) has caused `retrace_warning_after` retraces
of the same function, a `RetraceWarning` says so once, with how many values it took and
the fix: make it data. Nothing is remembered while both are off.
"""

from __future__ import annotations

import functools
import inspect
import logging
import sys
import warnings
from collections.abc import Callable
from typing import Any

import jax
from _jaxdc_rules import messages
from _jaxdc_rules.messages import class_display

from jaxdc._config import config
from jaxdc._display import class_name
from jaxdc._metadata import StaticArgument
from jaxdc._tree_diff import TreeDifference, describe, same_static, skeleton, skeleton_diff

__all__ = ["RetraceLog", "RetraceWarning"]

logger = logging.getLogger("jaxdc")
_jax_config: Any = jax.config  # (its flags are attributes the type stubs do not list)

_KEPT = 16  # traces remembered per function (the closest earlier one is searched)
_INTERNAL = frozenset({"jax", "jaxlib", "jaxdc", "contextlib", "functools"})


class RetraceWarning(UserWarning):
    """A `jaxdc.jit` function keeps tracing again because one static value keeps changing."""


class _Storm:
    """Retraces of one function caused by one static: how many, and the values seen."""

    __slots__ = ("count", "values", "warned")

    def __init__(self) -> None:
        self.count, self.values, self.warned = 0, set[Any](), False


# A remembered trace: parameter name -> the static value, or the data's skeleton.
_Trace = dict[str, Any]
# A difference, and the parameter it is in (a static parameter itself: the path is '').
_Found = tuple[str, TreeDifference]


class RetraceLog:
    """The traces of one `jaxdc.jit` function, and its storm counters."""

    def __init__(self, fun: Callable[..., Any], static: frozenset[str]) -> None:
        self._fun = fun
        self._name = _function_name(fun)
        self._static = static
        self._signature = inspect.signature(fun)
        self._traces: list[_Trace] = []
        self._storms: dict[str, _Storm] = {}

    def traced(self) -> Callable[..., Any]:
        """The function handed to `jax.jit`: the user's, with the same signature (JAX reads
        it for `static_argnames`), unwrapping `StaticArgument`s and recording the trace."""
        fun = self._fun

        @functools.wraps(fun)
        def traced(*args: Any, **kwargs: Any) -> Any:
            if args:
                args = tuple(a[2] if type(a) is StaticArgument else a for a in args)
            if kwargs:
                kwargs = {k: v[2] if type(v) is StaticArgument else v for k, v in kwargs.items()}
            self.record(args, kwargs)
            return fun(*args, **kwargs)

        return traced

    def record(self, args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
        """Called at each trace: explain it and count it against the earlier ones."""
        explain = config.explain_retraces or bool(
            getattr(_jax_config, "jax_explain_cache_misses", False)  # (a JAX without it: off)
        )
        warn_after = config.retrace_warning_after
        if not explain and not warn_after:
            self._traces.clear()
            return
        trace = self._remembered(args, kwargs)
        if trace is None:
            return
        try:
            found = self._closest(trace) if self._traces else None
        except Exception:  # an odd pytree: this trace goes unexplained, never fails
            found = None
        if found is not None:
            if explain:
                logger.warning(self._explanation(found))
            if warn_after:
                self._count(found, warn_after)
        self._traces.append(trace)
        del self._traces[:-_KEPT]

    def _closest(self, trace: _Trace) -> list[_Found] | None:
        """The differences from the closest earlier trace (of equally close ones, the
        latest). A retrace differs in at least one thing, so one difference ends the search:
        in a storm, the latest trace is that close."""
        best: list[_Found] | None = None
        for earlier in reversed(self._traces):
            found = self._compare(earlier, trace)
            if best is None or len(found) < len(best):
                best = found
                if len(best) <= 1:
                    break
        return best

    def _remembered(self, args: tuple[Any, ...], kwargs: dict[str, Any]) -> _Trace | None:
        """What jit keys this trace by, per parameter; None if it cannot be read (then this
        trace is neither explained nor counted: tracing itself must never fail here)."""
        try:
            bound = self._signature.bind_partial(*args, **kwargs)
            bound.apply_defaults()  # a default left out and one passed compare by value
            arguments = bound.arguments
            return {
                name: value if name in self._static else skeleton(value)
                for name, value in arguments.items()
            }
        except Exception:
            return None

    def _compare(self, old: _Trace, new: _Trace) -> list[_Found]:
        found: list[_Found] = []
        for name in dict.fromkeys([*old, *new]):
            if name not in old or name not in new:
                continue  # a missing required argument: JAX's error, not a retrace
            if name in self._static:
                if not same_static(old[name], new[name]):
                    found.append((name, TreeDifference("", "static", old[name], new[name])))
            else:
                found += [(name, d) for d in skeleton_diff(old[name], new[name])]
        return found

    def _explanation(self, found: list[_Found]) -> str:
        if not found:
            return messages.retrace_unexplained(self._name)
        return messages.retrace_explained(self._name, [_clause(p, d) for p, d in found])

    def _count(self, found: list[_Found], warn_after: int) -> None:
        for param, d in found:
            if d.kind != "static":
                continue
            key = param + d.path
            storm = self._storms.setdefault(key, _Storm())
            storm.count += 1
            try:
                storm.values.update((d.old, d.new))
            except TypeError:  # unhashable metadata of another library's node
                pass
            if storm.count >= warn_after and not storm.warned:
                storm.warned = True
                _warn(self._storm_message(param, d, storm))

    def _storm_message(self, param: str, d: TreeDifference, storm: _Storm) -> str:
        count, distinct = storm.count, len(storm.values)
        if not d.path:
            where, fix = (
                messages.retrace_storm_parameter(param),
                messages.retrace_fix_parameter(param),
            )
        elif d.field is not None:
            where = messages.retrace_storm_field(d.field, str(d.owner), param + d.path)
            fix = messages.retrace_fix_field(d.field)
        else:
            where = f"'{param + d.path}'"
            fix = messages.retrace_fix_metadata(str(d.owner), param + d.path)
        return messages.retrace_storm(self._name, count, where, distinct, fix)


def _function_name(fun: Callable[..., Any]) -> str:
    """A function as messages show it (`Model.step`, without `<locals>`)."""
    qualname = getattr(fun, "__qualname__", None)
    return class_display(qualname) if isinstance(qualname, str) else class_name(type(fun))


def _clause(param: str, d: TreeDifference) -> str:
    if not d.path and d.kind == "static":
        return messages.difference_static_parameter(param, repr(d.old), repr(d.new))
    return describe(d, param + d.path)


def _warn(message: str) -> None:
    """Warn at the user's line: the first frame outside jaxdc, JAX and the wrappers between."""
    frame, level = sys._getframe(1), 2
    while frame is not None and frame.f_globals.get("__name__", "").split(".")[0] in _INTERNAL:
        frame, level = frame.f_back, level + 1  # type: ignore[assignment]
    warnings.warn(message, RetraceWarning, stacklevel=level)
