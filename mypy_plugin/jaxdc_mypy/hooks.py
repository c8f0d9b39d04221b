"""The plugin class: which mypy hook serves which jaxdc name.

Semantic analysis records field kinds (``fields.record_fields``); type checking reports
(``checks.ClassChecker``) when mypy checks a class decorator application or, for
``PyTreeNode`` subclasses, the class keywords passed to ``__init_subclass__``. Dataclass
semantics (``__init__``, frozen, ordering) stay mypy's own ``dataclass_transform``
handling, driven by the stubs.
"""

from __future__ import annotations

import hashlib
import sys
from pathlib import Path
from typing import Any, Callable

from mypy.nodes import CallExpr, ClassDef, Expression, MypyFile, RefExpr, TypeInfo
from mypy.options import Options
from mypy.plugin import (
    ClassDefContext,
    FunctionContext,
    FunctionSigContext,
    MethodContext,
    MethodSigContext,
    Plugin,
    ReportConfigContext,
)
from mypy.types import CallableType, Type

from . import compat, config, names
from .checks import ClassChecker
from .fields import own_field_types, record_fields
from .jit import JitChecker
from .replace import replace_function_signature, replace_method_signature
from .types_walk import classes_mentioned


class JaxdcPlugin(Plugin):
    def __init__(self, options: Options) -> None:
        super().__init__(options)
        try:
            self._config = config.load(options.config_file)
        except config.ConfigError as exc:
            # A clean exit like mypy's own config errors, not a traceback from inside mypy.
            print(f"error: jaxdc_mypy: {exc}", file=sys.stderr)
            raise SystemExit(2) from None
        self._classes = ClassChecker(self._config)
        self._jit = JitChecker(self._config)
        self._config_data = {"config": self._config.to_json(), "plugin": _source_digest()}

    # --- semantic analysis: record field kinds -------------------------------------------

    def get_class_decorator_hook(self, fullname: str) -> Callable[[ClassDefContext], None] | None:
        return self._record_decorated if fullname == names.DECORATOR else None

    def get_base_class_hook(self, fullname: str) -> Callable[[ClassDefContext], None] | None:
        sym = self.lookup_fully_qualified(fullname)
        if sym is not None and isinstance(sym.node, TypeInfo) and sym.node.has_base(names.PYTREE_NODE):
            return _record
        return None

    def _record_decorated(self, ctx: ClassDefContext) -> None:
        # Returning a hook for the decorator replaces mypy's default pass-1 hook for it.
        compat.tag_dataclass(ctx)
        _record(ctx)

    # --- type checking: report -----------------------------------------------------------

    def get_function_hook(self, fullname: str) -> Callable[[FunctionContext], Type] | None:
        if fullname == names.DECORATOR:
            return self._check_decorated
        if fullname == names.JIT:
            return self._jit
        return None

    def get_method_hook(self, fullname: str) -> Callable[[MethodContext], Type] | None:
        if fullname == names.DECORATOR_CALL:
            return self._check_decorated
        if fullname.endswith(".__init_subclass__"):
            return self._check_subclass
        return None

    def _check_decorated(self, ctx: FunctionContext | MethodContext) -> Type:
        # `@pytree_dataclass` / `@pytree_dataclass(...)` applied to the class: mypy checks
        # the application with the ClassDef as context (the inner call has a CallExpr).
        if isinstance(ctx.context, ClassDef):
            self._classes.check(ctx.context.info, ctx.api)
        return ctx.default_return_type

    def _check_subclass(self, ctx: MethodContext) -> Type:
        # mypy simulates `Base.__init_subclass__(**class_keywords)` for every class, after
        # its body: the moment to check an undecorated PyTreeNode subclass.
        info = compat.class_being_checked(ctx.api)
        if info is not None and names.METADATA_KEY in info.metadata and not _is_decorated(info.defn):
            self._classes.check(info, ctx.api)
        return ctx.default_return_type

    # --- replace -------------------------------------------------------------------------

    def get_function_signature_hook(
        self, fullname: str
    ) -> Callable[[FunctionSigContext], CallableType] | None:
        return replace_function_signature if fullname == names.REPLACE else None

    def get_method_signature_hook(
        self, fullname: str
    ) -> Callable[[MethodSigContext], CallableType] | None:
        # mypy names the method after the receiver's class (`pkg.Model.replace`); the hook
        # itself checks that it is PyTreeNode's.
        return replace_method_signature if fullname.endswith(".replace") else None

    # --- cache ---------------------------------------------------------------------------

    def get_additional_indirect_deps(self, file: MypyFile) -> set[str]:
        """Modules whose classes decide this module's verdicts, for incremental runs.

        A static field of type ``Key`` (a frozen dataclass in ``keys``) becomes unhashable
        when ``Inner``, a field type of ``Key`` in a third module, gains ``__eq__``. mypy
        re-checks a module when the interface of a module it *uses* changes; this hook
        (mypy >= 2) adds those transitively used modules.
        """
        modules: set[str] = set()
        for _, node, _ in file.local_definitions():
            info = node.node
            if isinstance(info, TypeInfo) and names.METADATA_KEY in info.metadata:
                modules.update(c.module_name for c in classes_mentioned(own_field_types(info)))
        modules.discard(file.fullname)
        return modules

    def report_config_data(self, ctx: ReportConfigContext) -> Any:
        """Settings and plugin code, so changing either invalidates cached results.

        Files whose errors mypy never shows (typeshed, installed packages) cannot be
        affected: leaving them out keeps their cache (e.g. all of jax) valid.
        """
        return None if compat.is_silenced_path(ctx.path) else self._config_data


def _record(ctx: ClassDefContext) -> None:
    recorded = record_fields(ctx)
    if recorded is not None:
        _add_dependencies(ctx)


def _add_dependencies(ctx: ClassDefContext) -> None:
    """Make ``dmypy`` re-check this module when a class a field type depends on changes."""
    for info in classes_mentioned(own_field_types(ctx.cls.info)):
        ctx.api.add_plugin_dependency(compat.wildcard_trigger(info.fullname))


def _is_decorated(defn: ClassDef) -> bool:
    return any(_callee_fullname(decorator) == names.DECORATOR for decorator in defn.decorators)


def _callee_fullname(expr: Expression) -> str | None:
    if isinstance(expr, CallExpr):
        expr = expr.callee
    return expr.fullname if isinstance(expr, RefExpr) else None


def _source_digest() -> str:
    """Hash of the plugin's own code: mypy only watches the entry module's file."""
    digest = hashlib.sha256()
    for path in sorted(Path(__file__).parent.glob("*.py")):
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]
