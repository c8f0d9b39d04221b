"""The plugin class: which mypy hook serves which jaxdc name.

The work is in ``handlers`` (and the rule modules it imports), loaded on the first hook
call: a warm run, answered from mypy's cache, calls no hook and so never pays for
importing them, nor the shared wording (``_jaxdc_rules.messages``: ``config`` and
``static_spelling`` import it only on their error paths). Dataclass semantics
(``__init__``, frozen, ordering) stay mypy's own ``dataclass_transform`` handling, driven
by the stubs.
"""

from __future__ import annotations

import functools
import os
import sys
import zlib
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import _jaxdc_rules
from mypy.nodes import MypyFile, TypeAlias, TypeInfo
from mypy.options import Options
from mypy.plugin import (
    AnalyzeTypeContext,
    Plugin,
    ReportConfigContext,
)
from mypy.types import Type

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
        self._type_analyze_answers = _Answers(self._type_analyze_hook)
        self._attribute_answers = _Answers(self._attribute_hook)
        self._subclass_answers = _Answers(self._base_class_hook)
        # Class fullname -> whether it is a jaxdc class (see `_attribute_hook`).
        self._jaxdc_owners: dict[str, bool] = {}
        # mypy asks each plugin for a hook for every name it meets (a call, an attribute, a
        # name in an annotation, a decorator): tens of thousands of questions in a large
        # project, each a Python call from mypy's compiled code. Instance attributes stand
        # in for the methods of these names (mypy looks them up on the instance), so a
        # question is a dictionary lookup in C: in a table fixed here, or in answers worked
        # out the first time a name is asked (`_Answers`).
        self._install_hook_lookups(self._deferred)

    def _install_hook_lookups(self, handler: Callable[[str], _Hook]) -> None:
        """Answer mypy's questions for hooks from tables whose hooks are ``handler(name)``
        for ``Handlers.<name>``: deferred ones until the handlers are imported, then the
        handlers' own methods (one Python call less for each hook mypy calls)."""
        self._handler = handler
        self._assign_field = handler("assign_field")
        for method, lookup in self._hook_lookups(handler).items():
            setattr(self, method, lookup)
        self._attribute_answers.clear()
        self._subclass_answers.clear()

    def _hook_lookups(
        self, handler: Callable[[str], _Hook]
    ) -> dict[str, Callable[[str], _Hook | None]]:
        return {
            "get_type_analyze_hook": self._type_analyze_answers.__getitem__,
            "get_attribute_hook": self._attribute_answers.__getitem__,
            "get_base_class_hook": self._subclass_answers.__getitem__,
            "get_method_hook": _Answers(self._method_hook).__getitem__,
            "get_method_signature_hook": _Answers(self._method_signature_hook).__getitem__,
            "get_class_decorator_hook": {
                **dict.fromkeys(names.DECORATORS, handler("record_decorated")),
                names.STDLIB_DATACLASS: handler("record_dataclass"),
                **dict.fromkeys(names.FOREIGN_PYTREE_DECORATORS, handler("record_foreign_pytree")),
                **dict.fromkeys(names.JAX_PYTREE_DECORATORS, handler("record_jax_pytree")),
            }.get,
            # After semantic analysis: mypy's dataclass processing, then converter fields'
            # `__init__` parameters retyped (`converters`).
            "get_class_decorator_hook_2": dict.fromkeys(
                names.DECORATORS, handler("make_dataclass")
            ).get,
            "get_function_hook": {
                **dict.fromkeys(names.DECORATORS, handler("check_decorated")),
                names.JIT: handler("jit"),
                names.JAX_JIT: handler("jax_jit"),
                names.ATTR: handler("attr"),
                names.COPY_AND_MUTATE: handler("copy_type"),
            }.get,
            "get_function_signature_hook": {
                names.REPLACE: handler("replace_function_signature")
            }.get,
        }

    @property
    def _handlers(self) -> Handlers:
        if self._loaded is None:
            from .handlers import Handlers

            self._loaded = Handlers(
                self._config, self.options, self._class_fullname, self._answer_fields
            )
            self._install_hook_lookups(functools.partial(getattr, self._loaded))
        return self._loaded

    def _deferred(self, name: str) -> _Hook:
        """The hook ``Handlers.<name>``, imported when it is first called, not when mypy
        first asks for it: a run answered from the cache never pays for the import."""
        return functools.partial(self._call_handler, name)

    def _call_handler(self, name: str, *args: Any) -> Any:
        return getattr(self._handlers, name)(*args)

    def _class_fullname(self, name: str) -> str | None:
        """Where the class ``name`` (possibly a re-export) is defined, once loaded."""
        sym = self.lookup_fully_qualified(name)
        return sym.node.fullname if sym is not None and isinstance(sym.node, TypeInfo) else None

    # --- semantic analysis: record field kinds --------------------------------------------

    def _type_analyze_hook(self, fullname: str) -> tuple[_Hook | None, bool]:
        """``S = jdc.Static`` then ``x: S[int]``: ``Static[int]``, as pyright and the runtime
        read it (mypy follows the typing spec, for which ``S`` is ``Static[Any]``).

        Asked for every name in every annotation mypy analyses, hence the memo;
        ``get_additional_deps`` forgets a module's answers when the daemon re-reads it.
        """
        bare = static_spelling.is_bare_static_alias(self.lookup_fully_qualified(fullname))
        if bare is None:
            return None, False  # not analysed yet: mypy defers, and asks again
        return (self._subscript_static if bare else None), True

    def _subscript_static(self, ctx: AnalyzeTypeContext) -> Type:
        static = self.lookup_fully_qualified(names.STATIC)
        assert static is not None and isinstance(static.node, TypeAlias)
        return static_spelling.subscript_static(static.node, ctx)

    def get_additional_deps(self, file: MypyFile) -> list[tuple[int, str, int]]:
        """Called when mypy reads a module: in a daemon update, answers memoised about that
        module's names (and the per-run verdicts) are forgotten."""
        if self._type_analyze_answers:
            prefix = file.fullname + "."
            for name in [n for n in self._type_analyze_answers if n.startswith(prefix)]:
                del self._type_analyze_answers[name]
        self._attribute_answers.clear()
        self._subclass_answers.clear()
        self._jaxdc_owners.clear()
        if self._loaded is not None:
            self._loaded.forget()
        return []

    def _base_class_hook(self, fullname: str) -> tuple[_Hook | None, bool]:
        """Asked for each base of every class: a subclass of ``PyTreeNode`` is recorded.
        Settled once the base's MRO is known; forgotten when the daemon reads a module
        again (a base may then have gained or lost ``PyTreeNode``)."""
        sym = self.lookup_fully_qualified(fullname)
        base = sym.node if sym is not None else None
        if not isinstance(base, TypeInfo) or not base.mro:
            return None, False
        is_node = base.has_base(names.PYTREE_NODE)
        return (self._handler("record_subclass") if is_node else None), True

    # --- type checking: report ------------------------------------------------------------

    def _attribute_hook(self, fullname: str) -> tuple[_Hook | None, bool]:
        """The fields of jaxdc classes, for every attribute mypy checks (a field's
        declaration too); told per class, from its metadata, and forgotten when the daemon
        reads a module again. The fields of classes recorded in this run are answered in
        advance (``_answer_fields``); this is the answer for the rest."""
        owner = fullname.rpartition(".")[0]
        is_jaxdc = self._jaxdc_owners.get(owner)
        if is_jaxdc is None:
            sym = self.lookup_fully_qualified(owner) if owner else None
            info = sym.node if sym is not None else None
            is_jaxdc = isinstance(info, TypeInfo) and any(
                names.METADATA_KEY in c.metadata for c in info.mro
            )
            self._jaxdc_owners[owner] = is_jaxdc
        return (self._assign_field if is_jaxdc else None), True

    def _answer_fields(self, owner: str, fields: list[str]) -> None:
        """Settle the attribute hook's answers for a jaxdc class's fields when they are
        recorded: mypy asks about every field's declaration (and uses), each a name not
        asked before, whose miss is a Python call (``_attribute_hook``). The answer is the
        one that call would give; when the daemon forgets answers, it gives them again."""
        self._jaxdc_owners[owner] = True
        prefix = owner + "."
        for name in fields:
            self._attribute_answers[prefix + name] = self._assign_field

    def _method_hook(self, fullname: str) -> tuple[_Hook | None, bool]:
        if fullname == names.DECORATOR_CALL:
            return self._handler("check_decorated"), True
        # mypy simulates `Base.__init_subclass__(...)` for every class, named after the
        # first base that defines it: `object` for every class but PyTreeNode's subclasses
        # (PyTreeNode defines it), which are the ones `check_subclass` checks.
        if fullname.endswith(".__init_subclass__") and fullname != _OBJECT_INIT_SUBCLASS:
            return self._handler("check_subclass"), True
        return None, True

    def _method_signature_hook(self, fullname: str) -> tuple[_Hook | None, bool]:
        # mypy names the method after the receiver's class (`pkg.Model.replace`); the hook
        # itself checks that it is PyTreeNode's.
        if fullname.endswith(".replace"):
            return self._handler("replace_method_signature"), True
        if fullname in names.REPLACE_CALLS:
            return self._handler("replace_call_signature"), True
        if fullname in names.BOUND_REPLACE_CALLS:
            return self._handler("bound_replace_signature"), True
        return None, True

    # --- caches ---------------------------------------------------------------------------

    def get_additional_indirect_deps(self, file: MypyFile) -> set[str]:
        """Modules whose classes decide this module's verdicts, for incremental runs.

        A static field of type ``Key`` (a frozen dataclass in ``keys``) becomes unhashable
        when ``Inner``, a field type of ``Key`` in a third module, gains ``__eq__``. mypy
        re-checks a module when the interface of a module it *uses* changes, and depends
        itself on the modules of the MRO of every type in the module (a field's declared
        type included); this hook (called from mypy 2.4.0 on; older warm runs miss such a
        change) adds the modules found inside dataclasses, such as ``Inner``'s.
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


_Hook = Callable[..., Any]
_OBJECT_INIT_SUBCLASS = "builtins.object.__init_subclass__"


class _Answers(dict[str, "_Hook | None"]):
    """Hook answers by fullname: a name asked again is answered by the dictionary lookup
    alone. ``work_out`` answers a new name, and says whether the answer is settled (not
    when a name is not analysed yet: mypy asks again later)."""

    def __init__(self, work_out: Callable[[str], tuple[_Hook | None, bool]]) -> None:
        super().__init__()
        self._work_out = work_out

    def __missing__(self, fullname: str) -> _Hook | None:
        answer, settled = self._work_out(fullname)
        if settled:
            self[fullname] = answer
        return answer


def _source_digest() -> str:
    """Checksum of the plugin's code and of the rules it applies (``_jaxdc_rules``): mypy
    only watches the entry module's file. A CRC, not a cryptographic hash: it only has to
    change when the code does. Every mypy run (warm ones too) computes it, so the files are
    read with bare system calls (a third of the time of ``Path.glob`` and ``read_bytes``)."""
    checksum = 0
    for package in (os.path.dirname(__file__), os.path.dirname(_jaxdc_rules.__file__)):
        for name in sorted(os.listdir(package)):
            if name.endswith(".py"):
                checksum = _crc_of_file(os.path.join(package, name), checksum)
    return f"{checksum:08x}"


def _crc_of_file(path: str, checksum: int) -> int:
    fd = os.open(path, os.O_RDONLY)
    try:
        while chunk := os.read(fd, 1 << 16):
            checksum = zlib.crc32(chunk, checksum)
    finally:
        os.close(fd)
    return checksum
