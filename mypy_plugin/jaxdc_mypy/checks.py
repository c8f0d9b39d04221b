"""The per-class check: every data field array-like, every static field hashable.

Runs in mypy's type-checking phase (when mypy checks the decorator application or the
class keywords), where every type is complete: forward references and import cycles are
resolved and dataclass processing of other classes has finished.
"""

from __future__ import annotations

from mypy.nodes import Context, TypeInfo
from mypy.plugin import CheckerPluginInterface
from mypy.types import Type

from . import codes, compat, messages
from .arraylike import ANY, ArrayLikeRules
from .config import PluginConfig
from .display import show
from .fields import DATA, STATIC, declared_type, declaring_statements, pytree_fields
from .hashability import HashabilityRules


class ClassChecker:
    def __init__(self, config: PluginConfig) -> None:
        self._config = config
        self._arrays = ArrayLikeRules(config)

    def check(self, info: TypeInfo, api: CheckerPluginInterface) -> None:
        """Report each bad field of ``info`` once.

        A field declared in this class is reported on its own line. An inherited field is
        reported here only if this class changes its type (a generic base specialised,
        ``class B(A[list[int]])``): otherwise the base already reported it.
        """
        hashability = HashabilityRules(self._config, compat.all_modules(api), api.options)
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
                self._check_data(field.name, info, typ, context, api)

    def _check_data(
        self,
        name: str,
        info: TypeInfo,
        typ: Type,
        context: Context,
        api: CheckerPluginInterface,
    ) -> None:
        problem = self._arrays.non_array_part(typ)
        if problem is None:
            return
        shown = show(typ, api.options)
        if problem is ANY:
            if self._config.check_any:
                api.fail(messages.data_any(name, info.name, shown), context, code=codes.ANY)
            return
        api.fail(
            messages.data_not_arraylike(name, info.name, shown, problem), context, code=codes.DATA
        )
