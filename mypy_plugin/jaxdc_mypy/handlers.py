"""What each hook does. Imported on the first hook call (see ``hooks.JaxdcPlugin``).

Semantic analysis records field kinds and dependencies; type checking reports
(``checks.ClassChecker``) when mypy checks a class decorator application or, for
``PyTreeNode`` subclasses, the class keywords passed to ``__init_subclass__``.
"""

from __future__ import annotations

from collections.abc import Callable

from mypy.nodes import (
    CallExpr,
    ClassDef,
    Expression,
    MemberExpr,
    MypyFile,
    NameExpr,
    RefExpr,
    TypeInfo,
)
from mypy.options import Options
from mypy.plugin import ClassDefContext, FunctionContext, MethodContext
from mypy.types import Type

from . import compat, dataclass_options, names, syntax
from .checks import ClassChecker
from .config import PluginConfig
from .converters import retype_generated_methods
from .fields import record_fields
from .jit import JitChecker, check_jax_jit
from .mutation import check_attr_call, check_field_assignment, copy_type
from .replace import (
    add_replace_method,
    bound_replace_signature,
    replace_call_signature,
    replace_function_signature,
    replace_method_signature,
)
from .types_walk import VerdictModules, verdict_triggers


class Handlers:
    def __init__(
        self,
        config: PluginConfig,
        options: Options,
        resolve: Callable[[str], str | None],
        fields_recorded: Callable[[str, list[str]], None],
    ) -> None:
        self._classes = ClassChecker(config, resolve)
        self._fields_recorded = fields_recorded  # (class fullname, field names): see `_record`
        # Wildcard dependencies serve only the daemon's fine-grained mode (and caches
        # written for it); a plain run would compute them for nothing.
        self._fine_grained = options.fine_grained_incremental or options.cache_fine_grained
        # Module -> its jaxdc classes, filled by `record` and read once the module has been
        # type-checked (both happen in the process that processes the module).
        self._declared: dict[str, dict[str, TypeInfo]] = {}
        self._verdict_modules = VerdictModules()  # see `indirect_deps`
        self.jit = JitChecker(self._classes)
        self.jax_jit = check_jax_jit
        self.attr = check_attr_call
        self.assign_field = check_field_assignment
        self.copy_type = copy_type
        self.replace_function_signature = replace_function_signature
        self.replace_method_signature = replace_method_signature
        self.replace_call_signature = replace_call_signature
        self.bound_replace_signature = bound_replace_signature

    # --- semantic analysis ----------------------------------------------------------------

    def record_decorated(self, ctx: ClassDefContext) -> None:
        # Our hook for the decorator replaces mypy's default pass-1 hook, which tags it.
        compat.tag_dataclass(ctx)
        if _callee_fullname(ctx.reason) in names.REPLACE_DECORATORS:
            if not add_replace_method(ctx) and not ctx.api.final_iteration:
                ctx.api.defer()
                return
        self._record(ctx, dataclass_options.decorator_keywords(ctx.reason))

    def record_subclass(self, ctx: ClassDefContext) -> None:
        """A ``PyTreeNode`` subclass: its options are class keywords."""
        self._record(ctx, ctx.cls.keywords)

    def record_dataclass(self, ctx: ClassDefContext) -> None:
        """``@dataclasses.dataclass``: keep the options that decide its hash."""
        compat.tag_stdlib_dataclass(ctx)  # what mypy's own hook, replaced by ours, does
        dataclass_options.record(ctx.cls.info, dataclass_options.decorator_keywords(ctx.reason))

    def record_foreign_pytree(self, ctx: ClassDefContext) -> None:
        """A class another library's decorator registers as a pytree (flax.struct)."""
        compat.tag_dataclass(ctx)
        ctx.cls.info.metadata[names.PYTREE_METADATA_KEY] = {}
        dataclass_options.record(ctx.cls.info, dataclass_options.decorator_keywords(ctx.reason))

    def record_jax_pytree(self, ctx: ClassDefContext) -> None:
        """A class JAX registers as a pytree by decorating it (``register_static``,
        ``register_dataclass``, ...): a data field may hold one."""
        ctx.cls.info.metadata[names.PYTREE_METADATA_KEY] = {}

    def make_dataclass(self, ctx: ClassDefContext) -> bool:
        """A decorated class, after semantic analysis: mypy builds its dataclass methods
        (our hook replaces mypy's own), then converter fields get their input types."""
        ready = compat.make_dataclass(ctx)
        if ready:
            retype_generated_methods(ctx.cls.info)
        return ready

    def _record(self, ctx: ClassDefContext, keywords: dict[str, Expression]) -> None:
        info = ctx.cls.info
        recorded = record_fields(ctx, keywords)
        if recorded is None:
            return  # deferred: mypy calls again
        self._fields_recorded(info.fullname, recorded)
        self._declared.setdefault(info.module_name, {})[info.fullname] = info
        if not self._fine_grained:
            return
        # The daemon re-checks this module when a class a verdict depends on changes.
        for trigger in verdict_triggers(info):
            ctx.api.add_plugin_dependency(trigger)

    # --- type checking --------------------------------------------------------------------

    def check_decorated(self, ctx: FunctionContext | MethodContext) -> Type:
        # `@pytree_dataclass` / `@pytree_dataclass(...)` applied to the class: mypy checks
        # the application with the ClassDef as context (the inner call has a CallExpr).
        if isinstance(ctx.context, ClassDef):
            self._classes.check(ctx.context.info, ctx.api)
        return ctx.default_return_type

    def check_subclass(self, ctx: MethodContext) -> Type:
        # mypy simulates `Base.__init_subclass__(**class_keywords)` for every class, after
        # its body: the moment to check an undecorated PyTreeNode subclass. mypy builds
        # its dataclass methods with no hook after, so converter fields are retyped here:
        # before the code after the class and function bodies, not before module-level
        # code above it that constructs it.
        info = self._subclass_of_call(ctx)
        if (
            info is not None
            and names.METADATA_KEY in info.metadata
            and not _is_decorated(info.defn)
        ):
            retype_generated_methods(info)
            self._classes.check(info, ctx.api)
        return ctx.default_return_type

    def _subclass_of_call(self, ctx: MethodContext) -> TypeInfo | None:
        """The class whose keywords mypy's ``Base.__init_subclass__(...)`` call simulates:
        the class being checked, unless it is defined in a function (mypy's scope then
        names the enclosing class, or none): then the class of the call's name and line in
        the function being checked."""
        call = ctx.context
        if not (
            isinstance(call, CallExpr)
            and isinstance(call.callee, MemberExpr)
            and isinstance(call.callee.expr, NameExpr)
        ):
            return None
        name = call.callee.expr.name
        info = compat.class_being_checked(ctx.api)
        if info is not None and info.name == name and info.defn.line == call.line:
            return info
        function = compat.current_function(ctx.api)
        if function is None:
            return None
        for stmt in syntax.statements(function.body.body, into_definitions=True):
            if isinstance(stmt, ClassDef) and stmt.name == name and stmt.line == call.line:
                return stmt.info
        return None

    def forget(self) -> None:
        """A module is read again (the daemon after an edit): what was learnt about its
        classes, and about classes depending on them, may be stale."""
        self._classes.forget()
        self._verdict_modules.forget()

    def indirect_deps(self, file: MypyFile) -> set[str]:
        """Modules of the classes this module's verdicts depend on that mypy does not
        depend on itself (see ``types_walk`` and ``hooks``)."""
        modules: set[str] = set()
        for info in self._declared.pop(file.fullname, {}).values():
            self._verdict_modules.add(info, modules)
        modules.discard(file.fullname)
        return modules


def _is_decorated(defn: ClassDef) -> bool:
    """Asked for every jaxdc class: a loop, not ``any`` over a generator (a frame)."""
    for decorator in defn.decorators:
        if _callee_fullname(decorator) in names.DECORATORS:
            return True
    return False


def _callee_fullname(expr: Expression) -> str | None:
    if isinstance(expr, CallExpr):
        expr = expr.callee
    return expr.fullname if isinstance(expr, RefExpr) else None
