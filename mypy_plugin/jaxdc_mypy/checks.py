"""The per-class check: every data field array-like, every static field hashable.

Runs in mypy's type-checking phase (when mypy checks the decorator application or the
class keywords), where every type is complete: forward references and import cycles are
resolved and dataclass processing of other classes has finished.
"""

from __future__ import annotations

from collections.abc import Callable

from mypy.nodes import Context, TypeInfo
from mypy.plugin import CheckerPluginInterface
from mypy.types import Type

from . import codes, compat, messages
from .arraylike import ANY, ArrayLikeRules
from .config import ClassNames, PluginConfig
from .display import show
from .fields import DATA, STATIC, declared_type, declaring_statements, pytree_fields
from .hashability import HashabilityRules


class ClassChecker:
    def __init__(self, config: PluginConfig, resolve: Callable[[str], str | None]) -> None:
        self._check_any = config.check_any
        self._extra_arrays = ClassNames(config.extra_array_types, resolve)
        self._extra_pytree_bases = ClassNames(config.extra_pytree_bases, resolve)
        self._extra_hashable = ClassNames(config.extra_hashable_types, resolve)

    def hashability(self, api: CheckerPluginInterface) -> HashabilityRules:
        """The static-field rules with the configured classes (also used for jit)."""
        return HashabilityRules(
            self._extra_arrays.fullnames(),
            self._extra_hashable.fullnames(),
            compat.all_modules(api),
            api.options,
        )

    def check(self, info: TypeInfo, api: CheckerPluginInterface) -> None:
        """Report each bad field of ``info`` once.

        A field declared in this class is reported on its own line. An inherited field is
        reported here only if this class changes its type (a generic base specialised,
        ``class B(A[list[int]])``): otherwise the base already reported it.
        """
        hashability = self.hashability(api)
        arrays = ArrayLikeRules(self._extra_arrays.fullnames(), self._extra_pytree_bases.fullnames())
        instance = compat.self_instance(info)
        statements = declaring_statements(info)
        for field in pytree_fields(info):
            if field.kind not in (DATA, STATIC):
                continue
            typ = compat.member_type(instance, field.name)
            if typ is None:
                continue
            if field.owner is info:
                context: Context = statements.get(field.name) or info.defn
            elif typ == declared_type(field):
                continue
            else:
                context = info.defn
            if field.kind == STATIC:
                problem = hashability.unhashable_part(typ)
                if problem is not None:
                    api.fail(
                        messages.static_unhashable(field.name, info.name, problem),
                        context,
                        code=codes.STATIC,
                    )
            else:
                self._check_data(arrays, field.name, info, typ, context, api)

    def _check_data(
        self,
        arrays: ArrayLikeRules,
        name: str,
        info: TypeInfo,
        typ: Type,
        context: Context,
        api: CheckerPluginInterface,
    ) -> None:
        problem = arrays.non_array_part(typ)
        if problem is None:
            return
        shown = show(typ, api.options)
        if problem is ANY:
            if self._check_any:
                api.fail(messages.data_any(name, info.name, shown), context, code=codes.ANY)
            return
        api.fail(
            messages.data_not_arraylike(name, info.name, shown, problem), context, code=codes.DATA
        )
