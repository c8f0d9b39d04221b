"""The per-class check: every data field array-like, every static field hashable.

Runs in mypy's type-checking phase (when mypy checks the decorator application or the
class keywords), where every type is complete: forward references and import cycles are
resolved and dataclass processing of other classes has finished. The verdicts are the
shared rules' (``_jaxdc_rules``), asked about mypy types described by ``describe``.
"""

from __future__ import annotations

import importlib.util
import sys
from collections.abc import Callable

from _jaxdc_rules import messages as text
from _jaxdc_rules.arraylike import UNKNOWN, ArrayLikeRules
from _jaxdc_rules.hashability import HashabilityRules
from _jaxdc_rules.kinds import DATA, STATIC
from _jaxdc_rules.messages import Problem
from _jaxdc_rules.typedesc import show
from mypy.nodes import CallExpr, ClassDef, Context, Expression, MypyFile, RefExpr, TypeInfo
from mypy.plugin import CheckerPluginInterface
from mypy.types import Instance, Type

from . import compat, messages, names
from .config import ClassNames, PluginConfig
from .describe import Describer, class_name
from .fields import PytreeField, declaring_statements, pytree_fields
from .shapes import check_shapes
from .static_bound import retract_bound_errors


class TypeRules:
    """The shared rules, with the configured classes, asked about mypy types."""

    def __init__(
        self,
        hashability: HashabilityRules,
        arrays: ArrayLikeRules,
        modules: dict[str, MypyFile],
        api: CheckerPluginInterface,
    ) -> None:
        self._hashability = hashability
        self._arrays = arrays
        self._describer = Describer(modules, api.options)

    def unhashable_part(self, typ: Type) -> Problem | None:
        return self._hashability.unhashable_part(self._describer.describe(typ))

    def non_array_part(self, typ: Type) -> Problem | None:
        return self._arrays.non_array_part(self._describer.describe(typ))

    def show(self, typ: Type) -> str:
        return show(self._describer.describe(typ))


class ClassChecker:
    def __init__(self, config: PluginConfig, resolve: Callable[[str], str | None]) -> None:
        self._check_any = config.check_any
        self._extra_arrays = ClassNames(config.extra_array_types, resolve)
        self._extra_pytree_bases = ClassNames(config.extra_pytree_bases, resolve)
        self._extra_hashable = ClassNames(config.extra_hashable_types, resolve)
        self._known_pytree_bases = ClassNames(names.KNOWN_PYTREE_BASES, resolve)
        self._configured = (
            ("extra_array_types", self._extra_arrays),
            ("extra_pytree_bases", self._extra_pytree_bases),
            ("extra_hashable_types", self._extra_hashable),
        )
        self._warned: set[str] = set()
        # Built once the configured names stop changing (they resolve as modules load).
        self._hashability: tuple[tuple[frozenset[str], ...], HashabilityRules] | None = None
        self._arrays: tuple[tuple[frozenset[str], ...], ArrayLikeRules] | None = None

    def rules(self, api: CheckerPluginInterface) -> TypeRules:
        """The shared rules with the configured classes (also used for jit parameters)."""
        hashability_key = (self._extra_arrays.fullnames(), self._extra_hashable.fullnames())
        if self._hashability is None or self._hashability[0] != hashability_key:
            self._hashability = (hashability_key, HashabilityRules(*hashability_key))
        arrays_key = (
            self._extra_arrays.fullnames(),
            self._extra_pytree_bases.fullnames() | self._known_pytree_bases.fullnames(),
        )
        if self._arrays is None or self._arrays[0] != arrays_key:
            self._arrays = (arrays_key, ArrayLikeRules(*arrays_key))
        self._warn_unresolved(api)
        return TypeRules(self._hashability[1], self._arrays[1], compat.all_modules(api), api)

    def check(self, info: TypeInfo, api: CheckerPluginInterface) -> None:
        """Report each bad field of ``info`` once.

        A field declared in this class is reported on its own line. An inherited field is
        reported here only if this class changes its type (a generic base specialised,
        ``class B(A[list[int]])``): otherwise a base already reported it, or had nothing
        to report (``class C(B)`` inherits B's ``list[int]`` and B's error).
        """
        rules = self.rules(api)
        cls = class_name(info)
        defn = info.defn
        retract_bound_errors(api, range(defn.line, (defn.end_line or defn.line) + 1))
        stacked = _stdlib_dataclass_decorator(info.defn)
        if stacked is not None:
            node = info.has_base(names.PYTREE_NODE)
            messages.stacked_dataclass(cls, node=node).report(api, stacked)
        instance = compat.self_instance(info)
        for field in pytree_fields(info):
            if field.kind not in (DATA, STATIC):
                continue
            typ = compat.member_type(instance, field.name)
            if typ is None or (field.owner is not info and _inherited_as_is(instance, field, typ)):
                continue
            if field.kind == STATIC:
                problem = rules.unhashable_part(typ)
                if problem is not None:
                    message = messages.static_unhashable(field.name, cls, problem)
                    message.report(api, _where(info, field))
            else:
                self._check_data(rules, field, info, typ, api)
        check_shapes(info, compat.all_modules(api).get(info.module_name), api)

    def _check_data(
        self,
        rules: TypeRules,
        field: PytreeField,
        info: TypeInfo,
        typ: Type,
        api: CheckerPluginInterface,
    ) -> None:
        problem = rules.non_array_part(typ)
        if problem is None or (problem is UNKNOWN and not self._check_any):
            return
        shown, cls = rules.show(typ), class_name(info)
        if problem is UNKNOWN:
            message = messages.data_any(field.name, cls, shown)
        else:
            message = messages.data_not_arraylike(field.name, cls, shown, problem)
        message.report(api, _where(info, field))

    def _warn_unresolved(self, api: CheckerPluginInterface) -> None:
        """A configured name that cannot name a class gets a warning (once), not silence."""
        for setting, configured in self._configured:
            for name in configured.pending():
                if name in self._warned:
                    continue
                why = _why_unresolved(name, compat.all_modules(api))
                if why is not None:
                    self._warned.add(name)
                    warning = text.config_name_not_found(setting, name, why)
                    print(f"jaxdc_mypy: warning: {warning}", file=sys.stderr)


def _why_unresolved(name: str, modules: dict[str, MypyFile]) -> str | None:
    """Why ``name`` names no class, or None while that cannot be told yet (its module is
    installed but no module checked so far imports it)."""
    parts = name.split(".")
    for end in range(len(parts) - 1, 0, -1):
        module = ".".join(parts[:end])
        if module in modules:
            return f"is not a class in module '{module}'"
    try:
        found = importlib.util.find_spec(parts[0]) is not None
    except (ImportError, ValueError):
        found = False
    return None if found else f"names module '{parts[0]}', which is not installed"


def _stdlib_dataclass_decorator(defn: ClassDef) -> Expression | None:
    """``@dataclasses.dataclass`` stacked with jaxdc (the runtime rejects the class)."""
    for decorator in defn.decorators:
        callee = decorator.callee if isinstance(decorator, CallExpr) else decorator
        if isinstance(callee, RefExpr) and callee.fullname == names.STDLIB_DATACLASS:
            return decorator
    return None


def _inherited_as_is(instance: Instance, field: PytreeField, typ: Type) -> bool:
    """Whether a direct base that has ``field`` declares it with the same type ``typ``
    (in its own terms: ``Base[T]`` declares ``T``, which ``Base[list[int]]`` changes)."""
    for base in instance.type.bases:
        if field.owner in base.type.mro:
            own = compat.member_type(compat.self_instance(base.type), field.name)
            if own == typ:
                return True
    return False


def _where(info: TypeInfo, field: PytreeField) -> Context:
    """The field's own line if ``info`` declares it, else the class line (looked up only
    when there is something to report)."""
    if field.owner is info:
        statement = declaring_statements(info).get(field.name)
        if statement is not None:
            return statement
    return info.defn
