"""The per-class check: every data field array-like, every static field hashable.

Runs in mypy's type-checking phase (when mypy checks the decorator application or the
class keywords), where every type is complete: forward references and import cycles are
resolved and dataclass processing of other classes has finished. The verdicts are the
shared rules' (``_jaxdc_rules``), asked about mypy types described by ``describe``.
"""

from __future__ import annotations

import importlib.util
import sys
from collections.abc import Callable, Collection

from _jaxdc_rules import messages as text, typedesc as td
from _jaxdc_rules.arraylike import UNKNOWN, ArrayLikeRules
from _jaxdc_rules.hashability import HashabilityRules
from _jaxdc_rules.kinds import DATA, STATIC
from _jaxdc_rules.messages import Problem
from _jaxdc_rules.typedesc import show
from mypy.nodes import (
    AssignmentStmt,
    CallExpr,
    ClassDef,
    Context,
    Decorator,
    Expression,
    FuncDef,
    MemberExpr,
    MypyFile,
    NameExpr,
    RefExpr,
    TypeInfo,
)
from mypy.plugin import CheckerPluginInterface
from mypy.types import Instance, NoneType, Type, UnionType, get_proper_type

from . import compat, messages, names, syntax
from .config import ClassNames, PluginConfig
from .converters import own_converters
from .dataclass_options import decorator_keywords
from .describe import Describer, class_name
from .fields import (
    PytreeField,
    declaring_statements,
    field_default,
    inherits_fields,
    made_defaults,
    own_field_declarations,
    pytree_fields,
)
from .shapes import ShapeChecker
from .static_bound import retract_bound_errors


class TypeRules:
    """The shared rules, with the configured classes, asked about mypy types.

    Lives for a whole run (and, in the daemon, until a module is read again: see
    ``ClassChecker.forget``): a type met by any check is described and judged once, so
    ``jax.Array``'s MRO is read once per run rather than once per field. A description
    made in the type-checking phase never goes stale within a run: every class it reads
    has been analysed by then (mypy checks a module only after analysing what it uses).
    """

    def __init__(
        self,
        hashability: HashabilityRules,
        arrays: ArrayLikeRules,
        modules: dict[str, MypyFile],
        api: CheckerPluginInterface,
    ) -> None:
        self._describer = Describer(modules, api.options)
        self._unhashable = _Verdicts(self._describer, hashability.unhashable_part)
        self._non_array = _Verdicts(self._describer, arrays.non_array_part)

    def unhashable_part(self, typ: Type) -> Problem | None:
        try:
            return self._unhashable[typ]
        except TypeError:  # a type mypy cannot hash (see ``Describer.describe``)
            return self._unhashable.judge(typ)

    def non_array_part(self, typ: Type) -> Problem | None:
        try:
            return self._non_array[typ]
        except TypeError:
            return self._non_array.judge(typ)

    def show(self, typ: Type) -> str:
        return show(self._describer.describe(typ))


class _Verdicts(dict[Type, "Problem | None"]):
    """A rule's verdict per type, worked out (``judge``) the first time it is asked.

    Kept by the type, so that a type met again (most field types are: ``jax.Array``,
    ``Static[str]``) costs one lookup, and by its description, so that types described
    alike (`Static[str]` through any alias, each class's own `T`) are judged once."""

    def __init__(self, describer: Describer, rule: Callable[[td.TypeDesc], Problem | None]):
        super().__init__()
        self._describer = describer
        self._rule = rule
        self._by_description: dict[td.TypeDesc, Problem | None] = {}

    def __missing__(self, typ: Type) -> Problem | None:
        verdict = self[typ] = self.judge(typ)
        return verdict

    def judge(self, typ: Type) -> Problem | None:
        desc = self._describer.describe(typ)
        if desc in self._by_description:
            return self._by_description[desc]
        verdict = self._by_description[desc] = self._rule(desc)
        return verdict


class ClassChecker:
    def __init__(self, config: PluginConfig, resolve: Callable[[str], str | None]) -> None:
        self._check_any = config.check_any
        self._warn_float_statics = config.warn_float_statics
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
        self._shapes = ShapeChecker()
        # Built again when the configured names resolve to other classes (they resolve as
        # modules load) and when a module is read again (``forget``).
        self._rules: tuple[tuple[frozenset[str], ...], TypeRules] | None = None
        self._rules_module: str | None = None  # the module the configured names were read for

    def rules(self, api: CheckerPluginInterface) -> TypeRules:
        """The shared rules with the configured classes (also used for jit parameters).

        A configured name resolves once mypy has analysed its module, which happens between
        the modules it checks, never while it checks one: the names are looked up again
        only when the module being checked changes."""
        return self._rules_in(compat.checked_module(api), api)

    def _rules_in(self, file: MypyFile, api: CheckerPluginInterface) -> TypeRules:
        """``rules`` while ``file`` is being checked."""
        module = file.fullname
        if self._rules is not None and module == self._rules_module:
            return self._rules[1]
        self._rules_module = module
        arrays = self._extra_arrays.fullnames()
        hashable = self._extra_hashable.fullnames()
        pytree_bases = self._extra_pytree_bases.fullnames() | self._known_pytree_bases.fullnames()
        key = (arrays, hashable, pytree_bases)
        if self._rules is None or self._rules[0] != key:
            rules = TypeRules(
                HashabilityRules(arrays, hashable),
                ArrayLikeRules(arrays, pytree_bases),
                compat.all_modules(api),
                api,
            )
            self._rules = (key, rules)
        self._warn_unresolved(api)
        return self._rules[1]

    def forget(self) -> None:
        """Drop every description and verdict: a module is being read again (the daemon
        after an edit), so classes they were made from may have changed."""
        self._rules = None
        self._rules_module = None

    def check(self, info: TypeInfo, api: CheckerPluginInterface) -> None:
        """Report each bad field of ``info`` once.

        A field declared in this class is reported on its own line. An inherited field is
        reported here only if this class changes its type (a generic base specialised,
        ``class B(A[list[int]])``): otherwise a base already reported it, or had nothing
        to report (``class C(B)`` inherits B's ``list[int]`` and B's error).
        """
        file = compat.checked_module(api)  # where `info` is defined
        rules = self._rules_in(file, api)
        defn = info.defn
        if compat.has_errors_reported(api):  # most files have none to take back
            retract_bound_errors(
                api,
                range(defn.line, (defn.end_line or defn.line) + 1),
                lambda: [stmt.unanalyzed_type for stmt in declaring_statements(info).values()],
            )
        if defn.decorators:  # not on a PyTreeNode subclass without any
            self._check_decorators(info, api)
        fields, inherited = _fields_to_judge(info)
        # What `record_fields` stored, read once here for its rarer entries.
        recorded = info.metadata.get(names.METADATA_KEY, _NOTHING_RECORDED)
        described: Collection[str] = ()
        if "made_defaults" in recorded:  # most classes give no field a default made by a call
            described = _check_descriptor_defaults(info, api)
        for name, kind, typ in fields:
            # Most fields pass: judged here, with a message built only for a problem.
            message = None
            if kind == STATIC:
                problem = rules.unhashable_part(typ)
                if problem is not None or self._warn_float_statics:
                    message = self._static_message(rules, name, info, typ, problem)
            elif kind == DATA:
                problem = rules.non_array_part(typ)
                if problem is not None and (problem is not UNKNOWN or self._check_any):
                    message = _data_message(rules, name, info, typ, problem)
            if message is not None and name not in described:  # (its fix is the descriptor's)
                message.report(api, _where(info, name, name in inherited))
        if "converters" in recorded:  # most classes declare none (see `declares_converters`)
            _check_converters(info, compat.self_instance(info), api)
        if _defines_a_constructor(info):  # most classes leave both to the decorator
            _check_non_fields_set(info, api)
        self._shapes.check(info, file, api)

    def _check_decorators(self, info: TypeInfo, api: CheckerPluginInterface) -> None:
        """jaxdc's decorator stacked with the stdlib's, or given ``frozen=False``."""
        stacked = _stdlib_dataclass_decorator(info.defn)
        if stacked is not None:
            node = info.has_base(names.PYTREE_NODE)
            messages.stacked_dataclass(class_name(info), node=node).report(api, stacked)
        not_frozen = _not_frozen(info.defn)
        if not_frozen is not None:
            messages.not_frozen_option(not_frozen[0]).report(api, not_frozen[1])

    def float_static(self, typ: Type) -> str | None:
        """``float`` or ``complex`` when a static of type ``typ`` recompiles on every new
        value (Optional included) and the opt-in check (``warn_float_statics``) is on."""
        return _float_kind(typ) if self._warn_float_statics else None

    def _static_message(
        self, rules: TypeRules, name: str, info: TypeInfo, typ: Type, problem: Problem | None
    ) -> messages.ErrorMessage | None:
        """An unhashable static field, else one of type float (when that check is on)."""
        if problem is not None:
            return messages.static_unhashable(name, class_name(info), problem)
        if kind := self.float_static(typ):
            shown = rules.show(typ)
            return messages.float_static_field(name, class_name(info), shown, kind)
        return None

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


_FLOAT_KINDS = {"builtins.float": "float", "builtins.complex": "complex"}


def _data_message(
    rules: TypeRules, name: str, info: TypeInfo, typ: Type, problem: Problem
) -> messages.ErrorMessage:
    """A data field that is not array-like, or (with ``check_any``) typed ``Any``."""
    shown, cls = rules.show(typ), class_name(info)
    if problem is UNKNOWN:
        return messages.data_any(name, cls, shown)
    return messages.data_not_arraylike(name, cls, shown, problem)


def _float_kind(typ: Type) -> str | None:
    """``float``/``complex`` for those types and their Optional; None for anything else
    (an ``int | float`` static, say, is left alone: it may well be a count)."""
    proper = get_proper_type(typ)
    items = proper.items if isinstance(proper, UnionType) else [proper]
    kinds = set()
    for item in map(get_proper_type, items):
        if isinstance(item, Instance) and item.type.fullname in _FLOAT_KINDS:
            kinds.add(_FLOAT_KINDS[item.type.fullname])
        elif not isinstance(item, NoneType):
            return None
    if not kinds:
        return None
    return "complex" if "complex" in kinds else "float"


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


def _check_converters(info: TypeInfo, instance: Instance, api: CheckerPluginInterface) -> None:
    """Each converter ``info`` declares returns what its field accepts (for an overloaded
    converter, at least one overload does: which one applies depends on the value)."""
    for name, (expr, converter) in own_converters(info).items():
        declared = compat.member_type(instance, name)
        if declared is None or not converter.returns:
            continue
        if not any(compat.fits(returned, declared) for returned in converter.returns):
            shown = " | ".join(compat.format_type(r, api.options) for r in converter.returns)
            message = messages.converter_returns(
                name,
                class_name(info),
                _converter_name(expr),
                shown,
                compat.format_type(declared, api.options),
            )
            message.report(api, expr)


def _check_descriptor_defaults(info: TypeInfo, api: CheckerPluginInterface) -> set[str]:
    """The fields whose default is a data descriptor (an instance of a class defining
    ``__set__`` or ``__delete__``), reported: every unflatten would run its ``__set__``, so
    the runtime refuses the class. Returns their names."""
    statements = declaring_statements(info)
    found = set()
    for name in made_defaults(info):
        stmt = statements.get(name)
        default = field_default(stmt.rvalue) if stmt is not None else None
        if stmt is None or default is None:
            continue
        proper = get_proper_type(compat.expression_type(api, default))
        if isinstance(proper, Instance) and _is_data_descriptor(proper.type):
            cls, descriptor = class_name(info), class_name(proper.type)
            messages.descriptor_field(name, cls, descriptor).report(api, stmt)
            found.add(name)
    return found


def _is_data_descriptor(info: TypeInfo) -> bool:
    return any("__set__" in base.names or "__delete__" in base.names for base in info.mro)


# The methods that run while an instance is constructed, where the runtime refuses an
# attribute that is not a field (elsewhere every assignment is refused as frozen).
_CONSTRUCTORS = ("__init__", "__post_init__")


def _defines_a_constructor(info: TypeInfo) -> bool:
    """Whether the class body defines ``__post_init__`` or an ``__init__`` of its own."""
    names = info.names
    init = names.get("__init__")
    return "__post_init__" in names or (init is not None and not init.plugin_generated)


def _check_non_fields_set(info: TypeInfo, api: CheckerPluginInterface) -> None:
    """``self.count = n`` in ``__init__``/``__post_init__``, ``count`` not a field: mypy makes
    it an attribute of the class, the runtime refuses it (the pytree would not carry it)."""
    implicit = {name for name, sym in info.names.items() if sym.implicit}
    if not implicit:
        return
    for method in _CONSTRUCTORS:
        sym = info.names.get(method)
        func = sym.node if sym is not None else None
        if isinstance(func, Decorator):
            func = func.func
        if not isinstance(func, FuncDef) or not func.arguments:
            continue
        this = func.arguments[0].variable.name
        for stmt in syntax.statements(func.body.body, into_definitions=False):
            if not isinstance(stmt, AssignmentStmt):
                continue
            for target in stmt.lvalues:
                if (
                    isinstance(target, MemberExpr)
                    and isinstance(target.expr, NameExpr)
                    and target.expr.name == this
                    and target.name in implicit
                ):
                    message = messages.non_field_in_construction(target.name, class_name(info))
                    message.report(api, target)


def _converter_name(expr: Expression) -> str:
    return (
        f"'{expr.fullname.rpartition('.')[2]}'" if isinstance(expr, RefExpr) else "(an expression)"
    )


def _stdlib_dataclass_decorator(defn: ClassDef) -> Expression | None:
    """``@dataclasses.dataclass`` stacked with jaxdc (the runtime rejects the class)."""
    for decorator in defn.decorators:
        callee = decorator.callee if isinstance(decorator, CallExpr) else decorator
        if isinstance(callee, RefExpr) and callee.fullname == names.STDLIB_DATACLASS:
            return decorator
    return None


# How the runtime names the place `frozen=False` was given (its error on jaxdc's own
# decorator, its warning on the migration lines).
_OPTION_SITES = {
    names.DECORATOR: "pytree_dataclass",
    names.COMPAT_FLAX_DECORATOR: names.COMPAT_FLAX_DECORATOR,
    names.COMPAT_CHEX_DECORATOR: names.COMPAT_CHEX_DECORATOR,
}


def _not_frozen(defn: ClassDef) -> tuple[str, Context] | None:
    """The decorator that declares a jaxdc class ``frozen=False``, with the runtime's name
    for it. (As a ``PyTreeNode`` subclass's class keyword, every checker already reports
    it: a non-frozen dataclass cannot derive from a frozen one.)"""
    for decorator in defn.decorators:
        if isinstance(decorator, CallExpr) and isinstance(decorator.callee, RefExpr):
            site = _OPTION_SITES.get(decorator.callee.fullname or "")
            frozen = decorator_keywords(decorator).get("frozen")
            if site is not None and isinstance(frozen, NameExpr):
                if frozen.fullname == "builtins.False":
                    return site, decorator
    return None


_NOTHING_INHERITED: frozenset[str] = frozenset()
_NOTHING_RECORDED: dict[str, object] = {}


def _fields_to_judge(
    info: TypeInfo,
) -> tuple[list[tuple[str, str, Type]], frozenset[str] | set[str]]:
    """(name, kind, type as seen on ``info``) of the fields of ``info`` to judge: those it
    declares, and those it inherits with a type it changes (whose names come second)."""
    if not inherits_fields(info):  # most classes: each field is declared here
        declared = own_field_declarations(info)
        if info.type_vars:  # `T` as seen on `C[T]`, as `compat.member_type` gives it
            instance = compat.self_instance(info)
            declared = [
                (name, kind, compat.as_seen_from(typ, instance, info))
                for name, kind, typ in declared
            ]
        return declared, _NOTHING_INHERITED
    instance = compat.self_instance(info)
    judged, inherited = [], set()
    for field in pytree_fields(info):
        if field.kind not in (DATA, STATIC):
            continue
        typ = compat.member_type(instance, field.name)
        if typ is None:
            continue
        if field.owner is not info:
            if _inherited_as_is(instance, field, typ):
                continue
            inherited.add(field.name)
        judged.append((field.name, field.kind, typ))
    return judged, inherited


def _inherited_as_is(instance: Instance, field: PytreeField, typ: Type) -> bool:
    """Whether a direct base that has ``field`` declares it with the same type ``typ``
    (in its own terms: ``Base[T]`` declares ``T``, which ``Base[list[int]]`` changes)."""
    for base in instance.type.bases:
        if field.owner in base.type.mro:
            own = compat.member_type(compat.self_instance(base.type), field.name)
            if own == typ:
                return True
    return False


def _where(info: TypeInfo, name: str, inherited: bool) -> Context:
    """The field's own line if ``info`` declares it, else the class line (looked up only
    when there is something to report)."""
    if not inherited:
        statement = declaring_statements(info).get(name)
        if statement is not None:
            return statement
    return info.defn
