from collections.abc import Callable, Iterable, Sequence
from typing import Any, Concatenate, Generic, TypeVar, overload, type_check_only

from jax import Device
from jax.stages import Lowered
from typing_extensions import ParamSpec, Self

_P = ParamSpec("_P")
_P2 = ParamSpec("_P2")
_R_co = TypeVar("_R_co", covariant=True)
_S = TypeVar("_S")
_R2 = TypeVar("_R2")

# Stub-only: the runtime returns `jaxdc._jit.Jitted`, which wraps jax.jit's result and
# forwards its other attributes. The ParamSpec keeps the wrapped signature, so call sites
# are checked exactly as if the function were undecorated.
@type_check_only
class _Jitted(Generic[_P, _R_co]):
    def __call__(self, *args: _P.args, **kwargs: _P.kwargs) -> _R_co: ...
    def lower(self, *args: _P.args, **kwargs: _P.kwargs) -> Lowered: ...
    # Decorated methods bind `self` like plain functions do.
    @overload
    def __get__(self, instance: None, owner: type[Any] | None = None, /) -> Self: ...
    @overload
    def __get__(
        self: Callable[Concatenate[_S, _P2], _R2], instance: _S, owner: type[Any] | None = None, /
    ) -> _Jitted[_P2, _R2]: ...

# The options go with the function too (`jit(f, static_argnames="k")`, as with jax.jit), and
# then also type `functools.partial(jit, static_argnames=...)` used as a decorator.
@overload
def jit(
    fun: Callable[_P, _R_co],
    *,
    donate_argnums: int | Sequence[int] | None = None,
    donate_argnames: str | Iterable[str] | None = None,
    static_argnames: str | Iterable[str] | None = None,
    device: Device | None = None,
    backend: str | None = None,
    inline: bool = False,
    keep_unused: bool = False,
) -> _Jitted[_P, _R_co]: ...
@overload
def jit(
    fun: None = None,
    *,
    donate_argnums: int | Sequence[int] | None = None,
    donate_argnames: str | Iterable[str] | None = None,
    static_argnames: str | Iterable[str] | None = None,
    device: Device | None = None,
    backend: str | None = None,
    inline: bool = False,
    keep_unused: bool = False,
) -> Callable[[Callable[_P, _R_co]], _Jitted[_P, _R_co]]: ...
