"""`@jaxdc.jit`: `jax.jit` whose static parameters are the ones annotated `Static[T]`.

    @jaxdc.jit
    def step(state: State, n: jaxdc.Static[int]) -> State: ...

The annotation is the single source of truth, as for dataclass fields: no `static_argnames`
list to keep in step with the signature. Annotations are read the way field annotations
are (`jaxdc._annotations`): strings under `from __future__ import annotations`, names
imported locally in the defining function, `Annotated[T, STATIC_MARKER]` aliases.

The result is a thin wrapper around `jax.jit`'s own callable, kept for one reason: when a
static argument is unhashable, JAX reports the value's type but not which parameter got
it; the wrapper catches that error (only then: the normal call path is one extra Python
frame) and names the parameter and the fix. It keeps the function's signature
(`functools.wraps`, so `inspect.signature` and type checkers see the original), binds
like a method (`self` of a jaxdc class is an ordinary pytree argument), and forwards
`.lower(...)` and every other attribute of the jitted function.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable, Iterable, Sequence
from typing import Any

import jax
import numpy as np

from jaxdc._annotations import CallerScope, Namespaces, UnresolvedName, caller_scope, is_static
from jaxdc._tracebacks import drop_internal_frames

__all__ = ["jit"]

_JAX_UNHASHABLE = "Non-hashable static arguments"


def jit(
    fun: Callable[..., Any] | None = None,
    /,
    *,
    donate_argnums: int | Sequence[int] | None = None,
    donate_argnames: str | Iterable[str] | None = None,
    static_argnames: str | Iterable[str] | None = None,
    device: Any = None,
    backend: str | None = None,
    inline: bool = False,
    keep_unused: bool = False,
) -> Any:
    """`jax.jit` with parameters annotated `Static[T]` made static (plus any
    `static_argnames` given explicitly). Use bare or with `jax.jit`'s keyword options."""
    options = {
        "donate_argnums": donate_argnums,
        "donate_argnames": donate_argnames,
        "device": device,
        "backend": backend,
        "inline": inline,
        "keep_unused": keep_unused,
    }
    extra = (static_argnames,) if isinstance(static_argnames, str) else tuple(static_argnames or ())
    caller = caller_scope()
    if fun is None:
        return lambda f: Jitted(f, options, extra, caller)
    return Jitted(fun, options, extra, caller)


def _static_parameters(
    fun: Callable[..., Any], caller: CallerScope | None
) -> tuple[list[str], list[int]]:
    """(names, positional-only indices) of the parameters annotated `Static[...]`."""
    signature = inspect.signature(fun, eval_str=False)
    globalns = getattr(fun, "__globals__", None) or (caller.globalns if caller else {})
    ns = Namespaces(globalns, (caller and caller.localns) or {})
    names: list[str] = []
    nums: list[int] = []
    for i, p in enumerate(signature.parameters.values()):
        if p.annotation is inspect.Parameter.empty:
            continue
        try:
            static = is_static(p.annotation, ns)
        except UnresolvedName as exc:
            raise TypeError(
                f"cannot tell whether parameter '{p.name}' of '{fun.__qualname__}' is static: "
                f"its annotation {p.annotation!r} names '{exc.name}', which is not defined at "
                f"runtime. Fix: make '{exc.name}' importable at runtime, or pass "
                f"static_argnames=... to jaxdc.jit explicitly."
            ) from None
        if not static:
            continue
        if p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD):
            raise TypeError(
                f"parameter '{p.name}' of '{fun.__qualname__}' is variadic and annotated "
                f"Static[...]: jax.jit can only make named parameters static. Fix: give each "
                f"static value its own parameter."
            )
        if p.kind is p.POSITIONAL_ONLY:
            nums.append(i)
        else:
            names.append(p.name)
    return names, nums


class Jitted:
    """What `jaxdc.jit` returns: `jax.jit(fun, ...)` plus a clear unhashable-static error."""

    def __init__(
        self,
        fun: Callable[..., Any],
        options: dict[str, Any],
        extra: tuple[str, ...],
        caller: CallerScope | None,
    ) -> None:
        names, nums = _static_parameters(fun, caller)
        static_names = tuple(dict.fromkeys([*names, *extra]))
        params = list(inspect.signature(fun).parameters)
        self._static = (*(params[i] for i in nums), *static_names)  # for messages
        self._fun = fun
        self._jitted = jax.jit(
            fun, static_argnames=static_names or None, static_argnums=tuple(nums) or None, **options
        )
        functools.update_wrapper(self, fun)

    # Errors leave with jaxdc's frames dropped (`drop_internal_frames`, then a bare `raise`,
    # which adds no frame), as JAX drops its own: they point at the caller's line.
    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        try:
            return self._jitted(*args, **kwargs)
        except Exception as exc:
            try:
                if _unhashable_static(exc):
                    raise self._unhashable(args, kwargs) from None
                raise
            except Exception as error:
                drop_internal_frames(error)
                raise

    def lower(self, *args: Any, **kwargs: Any) -> Any:
        try:
            return self._jitted.lower(*args, **kwargs)
        except Exception as exc:
            try:
                if _unhashable_static(exc):
                    raise self._unhashable(args, kwargs) from None
                raise
            except Exception as error:
                drop_internal_frames(error)
                raise

    def __get__(self, instance: Any, owner: type | None = None) -> Any:
        """Bind like a function does, so `@jaxdc.jit` works on methods."""
        if instance is None:
            return self
        return _Bound(self, instance)

    def __getattr__(self, name: str) -> Any:  # trace, eval_shape, clear_cache, ...
        jitted = self.__dict__.get("_jitted")
        if jitted is None:  # not initialised (e.g. while copying): no delegation loop
            raise AttributeError(name)
        return getattr(jitted, name)

    def __repr__(self) -> str:
        return f"<jaxdc.jit of {self._fun.__qualname__}, static: {list(self._static) or 'none'}>"

    def _unhashable(self, args: tuple[Any, ...], kwargs: dict[str, Any]) -> TypeError:
        arguments = inspect.signature(self._fun).bind_partial(*args, **kwargs).arguments
        for name in self._static:
            try:
                hash(arguments.get(name))
            except TypeError:
                return TypeError(_message(self._fun.__qualname__, name, arguments[name]))
        return TypeError(f"a static argument of '{self._fun.__qualname__}' is not hashable")


def _unhashable_static(exc: Exception) -> bool:
    """JAX's error for an unhashable static argument (it names the type, not the parameter)."""
    return isinstance(exc, ValueError) and str(exc).startswith(_JAX_UNHASHABLE)


def _message(fun: str, name: str, value: Any) -> str:
    if isinstance(value, (jax.Array, np.ndarray)):
        return (
            f"static parameter '{name}' of '{fun}' got an array: arrays are not hashable, "
            f"so they cannot be static (jit cache keys). Fix: drop Static[...] from '{name}' "
            f"so the array is traced, or pass a tuple of Python scalars."
        )
    return (
        f"static parameter '{name}' of '{fun}' got a value of type '{type(value).__name__}', "
        f"which is not hashable; static arguments are jit cache keys. Fix: pass an immutable "
        f"value (a tuple instead of a list, a frozenset instead of a set), or drop "
        f"Static[...] from '{name}' to trace it."
    )


class _Bound:
    """A `Jitted` bound to an instance (`obj.method`): `self` goes first, as a pytree."""

    __slots__ = ("_instance", "_jitted")

    def __init__(self, jitted: Jitted, instance: Any) -> None:
        self._jitted, self._instance = jitted, instance

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        try:
            return self._jitted(self._instance, *args, **kwargs)
        except Exception as exc:
            drop_internal_frames(exc)
            raise

    def lower(self, *args: Any, **kwargs: Any) -> Any:
        try:
            return self._jitted.lower(self._instance, *args, **kwargs)
        except Exception as exc:
            drop_internal_frames(exc)
            raise

    @property
    def __signature__(self) -> inspect.Signature:
        params = list(inspect.signature(self._jitted).parameters.values())[1:]
        return inspect.signature(self._jitted).replace(parameters=params)
