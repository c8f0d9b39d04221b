import sys
from typing import Any, Generic, Protocol, TypeVar, overload, type_check_only

from typing_extensions import ParamSpec, dataclass_transform

_T = TypeVar("_T")
_T_co = TypeVar("_T_co", covariant=True)
_P = ParamSpec("_P")

# From Python 3.13 on, checkers synthesise `__replace__` (what `copy.replace` calls) for a
# dataclass_transform class, with its fields as keyword parameters; the runtime gives every
# jaxdc class one, on every Python. `replace`'s keywords are those of the object's
# `__replace__` where the checker synthesises it, and any keyword where it does not:
# stubs/README.md and docs/checker-parity.md have the measured designs and each checker's
# limits. Before 3.13 the signatures are what they always were.
if sys.version_info >= (3, 13):
    # What `replace` needs of an object: its `__replace__`, whose parameters become
    # replace's keywords. The type comes from `__class__`, not from `__replace__`'s return:
    # mypy and pyrefly synthesise `__replace__` returning the class, so `self` (`Self`) or a
    # value typed by a type variable would lose its type (pyrefly keeps it this way; mypy
    # does not, see docs/checker-parity.md). Narrowing object's `__class__` is on purpose.
    @type_check_only
    class _SupportsReplace(Protocol[_P, _T_co]):
        @property  # type: ignore[misc]
        def __class__(self) -> type[_T_co]: ...  # type: ignore[override]
        def __replace__(self, *args: _P.args, **kwargs: _P.kwargs) -> object: ...

    @type_check_only
    class _ReplaceFieldKeywords:
        def __call__(
            self, obj: _SupportsReplace[_P, _T], /, *args: _P.args, **changes: _P.kwargs
        ) -> _T: ...

    @type_check_only
    class _ReplaceAnyKeywords:
        def __call__(self, obj: _T, /, **changes: Any) -> _T: ...

    # Whether this checker synthesises `__replace__` cannot be a function overload on `obj`
    # (a misspelt keyword would fail the typed overload and fall through to the one taking
    # any keyword, silently), so it is asked once, of a probe class: the descriptor's
    # `__get__` sees only the probe, and `replace` is one of the two callables, never both.
    @dataclass_transform()
    def _probe_transform(cls: type[_T], /) -> type[_T]: ...
    @type_check_only
    class _SynthesisedReplace(Protocol):
        def __replace__(self, *, synthesised: int = ...) -> object: ...

    @type_check_only
    class _ReplaceForThisChecker:
        @overload
        def __get__(
            self, instance: _SynthesisedReplace, owner: object, /
        ) -> _ReplaceFieldKeywords: ...
        @overload
        def __get__(self, instance: object, owner: object, /) -> _ReplaceAnyKeywords: ...

    @_probe_transform
    @type_check_only
    class _Probe:
        synthesised: int
        replace: _ReplaceForThisChecker

    _probe: _Probe
    replace = _probe.replace
    """`jaxdc.replace(obj, **changes)`: a copy of `obj` with the given fields changed,
    without running `__init__`; its keywords are `obj`'s fields."""

    # `PyTreeNode.replace`: decided per object, since a method binds its object first (a
    # class with its own `__init__` has no `__replace__` for pyright, and keeps taking any
    # keyword there).
    @type_check_only
    class _BoundFieldKeywords(Generic[_P, _T_co]):
        def __call__(self, *args: _P.args, **changes: _P.kwargs) -> _T_co: ...

    @type_check_only
    class _BoundAnyKeywords(Generic[_T_co]):
        def __call__(self, **changes: Any) -> _T_co: ...

    @type_check_only
    class _ReplaceMethod:
        @overload
        def __get__(self, instance: None, owner: object, /) -> _ReplaceAnyKeywords: ...
        @overload
        def __get__(
            self, instance: _SupportsReplace[_P, _T], owner: object, /
        ) -> _BoundFieldKeywords[_P, _T]: ...
        @overload
        def __get__(self, instance: _T, owner: object, /) -> _BoundAnyKeywords[_T]: ...

else:
    # Field names and value types of `changes` are checked by the mypy plugin.
    def replace(obj: _T, /, **changes: Any) -> _T: ...
