"""What tracebacks show of jaxdc: generated source, and no internal frames under JAX.

- Generated code (`_codegen`) is compiled under a readable file name, one per method and
  class (`<jaxdc generated>/__init__ of mymod.Model`), whose source is registered with
  `linecache` (as attrs does), so tracebacks, pdb and `inspect.getsource` show it.
- jaxdc's own files and its generated code are registered with JAX's traceback filtering
  (as flax and equinox register theirs), so an error raised under `jax.jit` & co. points at
  the user's line, not at jaxdc's internals, unless `JAX_TRACEBACK_FILTERING=off`.
  Wrappers above JAX's own boundary (`jaxdc.jit`) drop their frames the same way
  (`drop_internal_frames`).

Generated file names are paths under one pseudo-directory because JAX matches excluded
paths component by component: a single registration then covers every generated method.
"""

from __future__ import annotations

import linecache
import os
import sys
from typing import Any

import jax

__all__ = ["GENERATED_DIR", "drop_internal_frames", "register_source"]

GENERATED_DIR = "<jaxdc generated>"
_PACKAGE_DIR = os.path.dirname(os.path.abspath(__file__))


def register_source(what: str, owner: type | str, source: str) -> str:
    """Register `source` (generated `what` of class `owner`, or of a qualified name) with
    `linecache`; its file name. Classes with the same module and qualified name (made in a
    loop, say) share a name when their sources are the same, and get a numbered one
    otherwise."""
    shown = owner if isinstance(owner, str) else f"{owner.__module__}.{owner.__qualname__}"
    base = f"{GENERATED_DIR}/{what} of {shown}"
    lines = source.splitlines(keepends=True)
    filename, n = base, 1
    while True:
        entry = linecache.cache.get(filename)
        if entry is None:
            # mtime None: linecache.checkcache() keeps the entry (there is no file to stat)
            linecache.cache[filename] = (len(source), None, lines, filename)
            return filename
        if len(entry) == 4 and entry[2] == lines:
            return filename
        n += 1
        filename = f"{base} ({n})"


def _is_internal(filename: str) -> bool:
    return filename.startswith(GENERATED_DIR) or filename.startswith(_PACKAGE_DIR + os.sep)


def _filtering_off() -> bool:
    return bool(getattr(jax.config, "jax_traceback_filtering", None) == "off")


def drop_internal_frames(exc: BaseException) -> None:
    """Drop jaxdc's frames from the top of `exc`'s traceback, as JAX drops its own, unless
    filtering is off. Call it in an `except` clause, then re-raise with a bare `raise`
    (which adds no frame): the caller's frame and jaxdc frames directly below it go."""
    if _filtering_off():
        return
    tb = exc.__traceback__
    while tb is not None and _is_internal(tb.tb_frame.f_code.co_filename):
        tb = tb.tb_next
    exc.__traceback__ = tb
    if _replace_thread_traceback is not None:
        _replace_thread_traceback(tb)


def _thread_traceback_replacer() -> Any:
    """Before Python 3.11 a bare `raise` re-raises the traceback the interpreter kept when
    the exception was caught, not `__traceback__`; jaxlib has a helper replacing it (JAX's
    own filtering uses it there). None from 3.11 on, or if this jaxlib lacks it."""
    if sys.version_info >= (3, 11):
        return None
    from jax._src import lib

    for name in ("_jax", "xla_extension"):
        replace = getattr(getattr(lib, name, None), "replace_thread_exc_traceback", None)
        if replace is not None:
            return replace
    return None  # pragma: no cover - depends on the jaxlib version


_replace_thread_traceback = _thread_traceback_replacer()


def _register_with_jax() -> None:
    """Exclude jaxdc's files and generated code from JAX's filtered tracebacks and from the
    user frame JAX records per traced operation. Private JAX modules (flax and equinox use
    them the same way; importing the public `jax.extend.source_info_util` would load much
    of `jax.extend` into every `import jaxdc`): if they move, tracebacks keep jaxdc's
    frames, and nothing else changes."""
    try:
        from jax._src import source_info_util, traceback_util
    except ImportError:  # pragma: no cover - depends on the JAX version
        return
    for module, paths in (
        (traceback_util, (_PACKAGE_DIR, GENERATED_DIR)),  # matched path component-wise
        (source_info_util, (_PACKAGE_DIR + os.sep, GENERATED_DIR)),  # matched as prefixes
    ):
        register: Any = getattr(module, "register_exclusion", None)
        if register is not None:
            for path in paths:
                register(path)


_register_with_jax()
