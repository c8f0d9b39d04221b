"""The plugin class: which mypy hook serves which jaxdc name.

The work is in ``handlers`` (and the rule modules it imports), loaded on the first hook
call: a warm run, answered from mypy's cache, calls no hook and so never pays for
importing them. Dataclass semantics (``__init__``, frozen, ordering) stay mypy's own
``dataclass_transform`` handling, driven by the stubs.
"""

from __future__ import annotations

import functools
import sys
import zlib
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import _jaxdc_rules
from mypy.nodes import MypyFile, TypeAlias, TypeInfo
from mypy.options import Options
from mypy.plugin import (
    AnalyzeTypeContext,
    AttributeContext,
    ClassDefContext,
    FunctionContext,
    FunctionSigContext,
    MethodContext,
    MethodSigContext,
    Plugin,
    ReportConfigContext,
)
from mypy.types import CallableType, Type

from . import compat, config, names, static_spelling

if TYPE_CHECKING:
    from .handlers import Handlers


class JaxdcPlugin(Plugin):
    def __init__(self, options: Options) -> None:
        super().__init__(options)
        try:
            self._config = config.load(options.config_file)
        except config.ConfigError as exc:
            # A clean exit like mypy's own config errors, not a traceback from inside mypy.
            print(f"error: jaxdc_mypy: {exc}", file=sys.stderr)
            raise SystemExit(2) from None
        self._config_data = {"config": self._config.to_json(), "plugin": _source_digest()}
        self._loaded: Handlers | None = None
        # Fullname -> whether it is `S = jdc.Static` (see `get_type_analyze_hook`).
        self._bare_static_aliases: dict[str, bool] = {}
        # Class fullname -> whether it is a jaxdc class (see `get_attribute_hook`).
        self._jaxdc_owners: dict[str, bool] = {}

    @property
    def _handlers(self) -> Handlers:
        if self._loaded is None:
            from .handlers import Handlers

            self._loaded = Handlers(self._config, self.options, self._class_fullname)
        return self._loaded

    def _class_fullname(self, name: str) -> str | None:
        """Where the class ``name`` (possibly a re-export) is defined, once loaded."""
        sym = self.lookup_fully_qualified(name)
        return sym.node.fullname if sym is not None and isinstance(sym.node, TypeInfo) else None

    # --- semantic analysis: record field kinds --------------------------------------------

    def get_type_analyze_hook(self, fullname: str) -> Callable[[AnalyzeTypeContext], Type] | None:
        """``S = jdc.Static`` then ``x: S[int]``: ``Static[int]``, as pyright and the runtime
        read it (mypy follows the typing spec, for which ``S`` is ``Static[Any]``).

        Called for every name in every annotation mypy analyses, so answers are memoised
        (a lookup each time would cost ~5% of a cold run); ``get_additional_deps`` forgets
        a module's answers when the daemon re-reads it.
        """
        bare = self._bare_static_aliases.get(fullname)
        if bare is None:
            bare = static_spelling.is_bare_static_alias(self.lookup_fully_qualified(fullname))
            if bare is None:
                return None  # not analysed yet: mypy defers, and asks again
            self._bare_static_aliases[fullname] = bare
        return self._subscript_static if bare else None

    def _subscript_static(self, ctx: AnalyzeTypeContext) -> Type:
        static = self.lookup_fully_qualified(names.STATIC)
        assert static is not None and isinstance(static.node, TypeAlias)
        return static_spelling.subscript_static(static.node, ctx)

    def get_additional_deps(self, file: MypyFile) -> list[tuple[int, str, int]]:
        """Called when mypy reads a module: in a daemon update, answers memoised about that
        module's names (and the per-run verdicts) are forgotten."""
        if self._bare_static_aliases:
            prefix = file.fullname + "."
            for name in [n for n in self._bare_static_aliases if n.startswith(prefix)]:
                del self._bare_static_aliases[name]
        self._jaxdc_owners.clear()
        if self._loaded is not None:
            self._loaded.forget()
        return []

    def get_class_decorator_hook(self, fullname: str) -> Callable[[ClassDefContext], None] | None:
        if fullname in names.DECORATORS:
            return self._handlers.record_decorated
        if fullname == names.STDLIB_DATACLASS:
            return self._handlers.record_dataclass
        if fullname in names.FOREIGN_PYTREE_DECORATORS:
            return self._handlers.record_foreign_pytree
        if fullname in names.JAX_PYTREE_DECORATORS:
            return self._handlers.record_jax_pytree
        return None

    def get_class_decorator_hook_2(self, fullname: str) -> Callable[[ClassDefContext], bool] | None:
        """After semantic analysis: mypy's dataclass processing, then converter fields'
        ``__init__`` parameters retyped (``converters``)."""
        return self._handlers.make_dataclass if fullname in names.DECORATORS else None

    def get_base_class_hook(self, fullname: str) -> Callable[[ClassDefContext], None] | None:
        sym = self.lookup_fully_qualified(fullname)
        base = sym.node if sym is not None else None
        if isinstance(base, TypeInfo) and base.has_base(names.PYTREE_NODE):
            return self._handlers.record_subclass
        return None

    # --- type checking: report ------------------------------------------------------------

    def get_function_hook(self, fullname: str) -> Callable[[FunctionContext], Type] | None:
        if fullname in names.DECORATORS:
            return self._handlers.check_decorated
        if fullname == names.JIT:
            return self._handlers.jit
        if fullname == names.JAX_JIT:
            return self._handlers.jax_jit
        if fullname == names.ATTR:
            return self._handlers.attr
        if fullname == names.COPY_AND_MUTATE:
            return self._handlers.copy_type
        return None

    def get_attribute_hook(self, fullname: str) -> Callable[[AttributeContext], Type] | None:
        # Called for every attribute access mypy checks: answered per class, from its
        # metadata, once per run (forgotten when the daemon reads a module again).
        owner, _, name = fullname.rpartition(".")
        is_jaxdc = self._jaxdc_owners.get(owner)
        if is_jaxdc is None:
            sym = self.lookup_fully_qualified(owner) if owner else None
            info = sym.node if sym is not None else None
            is_jaxdc = isinstance(info, TypeInfo) and any(
                names.METADATA_KEY in c.metadata for c in info.mro
            )
            self._jaxdc_owners[owner] = is_jaxdc
        return functools.partial(self._handlers.assign_field, name) if is_jaxdc else None

    def get_method_hook(self, fullname: str) -> Callable[[MethodContext], Type] | None:
        if fullname == names.DECORATOR_CALL:
            return self._handlers.check_decorated
        if fullname.endswith(".__init_subclass__"):
            return self._handlers.check_subclass
        return None

    def get_function_signature_hook(
        self, fullname: str
    ) -> Callable[[FunctionSigContext], CallableType] | None:
        return self._handlers.replace_function_signature if fullname == names.REPLACE else None

    def get_method_signature_hook(
        self, fullname: str
    ) -> Callable[[MethodSigContext], CallableType] | None:
        # mypy names the method after the receiver's class (`pkg.Model.replace`); the hook
        # itself checks that it is PyTreeNode's.
        if fullname.endswith(".replace"):
            return self._handlers.replace_method_signature
        if fullname in names.REPLACE_CALLS:
            return self._handlers.replace_call_signature
        if fullname in names.BOUND_REPLACE_CALLS:
            return self._handlers.bound_replace_signature
        return None

    # --- caches ---------------------------------------------------------------------------

    def get_additional_indirect_deps(self, file: MypyFile) -> set[str]:
        """Modules whose classes decide this module's verdicts, for incremental runs.

        A static field of type ``Key`` (a frozen dataclass in ``keys``) becomes unhashable
        when ``Inner``, a field type of ``Key`` in a third module, gains ``__eq__``. mypy
        re-checks a module when the interface of a module it *uses* changes; this hook
        (called from mypy 2.4.0 on; older warm runs miss such a change) adds those
        transitively used modules.
        """
        if self._loaded is None:
            return set()  # no hook ran, so no jaxdc class was declared
        return self._loaded.indirect_deps(file)

    def report_config_data(self, ctx: ReportConfigContext) -> Any:
        """Settings and plugin code, so changing either invalidates cached results.

        Files whose errors mypy never shows (typeshed, installed packages) cannot be
        affected: leaving them out keeps their cache (e.g. all of jax) valid.
        """
        return None if compat.is_silenced_path(ctx.path) else self._config_data


def _source_digest() -> str:
    """Checksum of the plugin's code and of the rules it applies (``_jaxdc_rules``): mypy
    only watches the entry module's file. A CRC, not a cryptographic hash: it only has to
    change when the code does, and every mypy run (warm ones too) computes it."""
    checksum = 0
    for package in (Path(__file__).parent, Path(_jaxdc_rules.__file__).parent):
        for path in sorted(package.glob("*.py")):
            checksum = zlib.crc32(path.read_bytes(), checksum)
    return f"{checksum:08x}"
