"""The per-class check: every data field array-like, every static field hashable.

Runs in mypy's type-checking phase (when mypy checks the decorator application or the
class keywords), where every type is complete: forward references and import cycles are
resolved and dataclass processing of other classes has finished.
"""

from __future__ import annotations

from collections.abc import Callable

from mypy.nodes import Context, MypyFile, TypeInfo
from mypy.plugin import CheckerPluginInterface
from mypy.types import Type

from . import codes, compat, messages
from .arraylike import ANY, ArrayLikeRules
from .config import ClassNames, PluginConfig
from .display import show
from .fields import (
    DATA,
    STATIC,
    PytreeField,
    declared_type,
    declaring_statements,
    pytree_fields,
)
from .hashability import HashabilityRules
from .shapes import check_shapes


class ClassChecker:
    def __init__(self, config: PluginConfig, resolve: Callable[[str], str | None]) -> None:
        self._check_any = config.check_any
        self._extra_arrays = ClassNames(config.extra_array_types, resolve)
        self._extra_pytree_bases = ClassNames(config.extra_pytree_bases, resolve)
        self._extra_hashable = ClassNames(config.extra_hashable_types, resolve)
        # Built once the configured names stop changing (they resolve as modules load).
        self._hashability: (
            tuple[tuple[frozenset[str], ...], dict[str, MypyFile], HashabilityRules] | None
        ) = None
        self._arrays: tuple[tuple[frozenset[str], ...], ArrayLikeRules] | None = None

    def hashability(self, api: CheckerPluginInterface) -> HashabilityRules:
        """The static-field rules with the configured classes (also used for jit)."""
        key = (self._extra_arrays.fullnames(), self._extra_hashable.fullnames())
        modules = compat.all_modules(api)
        cached = self._hashability
        if cached is None or cached[0] != key or cached[1] is not modules:
            cached = self._hashability = (
                key,
                modules,
                HashabilityRules(*key, modules, api.options),
            )
        return cached[2]

    def _arraylike(self) -> ArrayLikeRules:
        key = (self._extra_arrays.fullnames(), self._extra_pytree_bases.fullnames())
        if self._arrays is None or self._arrays[0] != key:
            self._arrays = (key, ArrayLikeRules(*key))
        return self._arrays[1]

    def check(self, info: TypeInfo, api: CheckerPluginInterface) -> None:
        """Report each bad field of ``info`` once.

        A field declared in this class is reported on its own line. An inherited field is
        reported here only if this class changes its type (a generic base specialised,
        ``class B(A[list[int]])``): otherwise the base already reported it.
        """
        hashability = self.hashability(api)
        arrays = self._arraylike()
        instance = compat.self_instance(info)
        for field in pytree_fields(info):
            if field.kind not in (DATA, STATIC):
                continue
            typ = compat.member_type(instance, field.name)
            if typ is None or (field.owner is not info and typ == declared_type(field)):
                continue
            if field.kind == STATIC:
                problem = hashability.unhashable_part(typ)
                if problem is not None:
                    message = messages.static_unhashable(field.name, info.name, problem)
                    api.fail(message, _where(info, field), code=codes.STATIC)
            else:
                self._check_data(arrays, field, info, typ, api)
        check_shapes(info, compat.all_modules(api).get(info.module_name), api)

    def _check_data(
        self,
        arrays: ArrayLikeRules,
        field: PytreeField,
        info: TypeInfo,
        typ: Type,
        api: CheckerPluginInterface,
    ) -> None:
        problem = arrays.non_array_part(typ)
        if problem is None or (problem is ANY and not self._check_any):
            return
        shown = show(typ, api.options)
        if problem is ANY:
            message, code = messages.data_any(field.name, info.name, shown), codes.ANY
        else:
            message = messages.data_not_arraylike(field.name, info.name, shown, problem)
            code = codes.DATA
        api.fail(message, _where(info, field), code=code)


def _where(info: TypeInfo, field: PytreeField) -> Context:
    """The field's own line if ``info`` declares it, else the class line (looked up only
    when there is something to report)."""
    if field.owner is info:
        statement = declaring_statements(info).get(field.name)
        if statement is not None:
            return statement
    return info.defn
