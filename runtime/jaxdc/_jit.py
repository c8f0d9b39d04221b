"""`@jaxdc.jit`: `jax.jit` whose static parameters are the ones annotated `Static[T]`.

    @jaxdc.jit
    def step(state: State, n: jaxdc.Static[int]) -> State: ...

The annotation is the single source of truth, as for dataclass fields: no `static_argnames`
list to keep in step with the signature. Annotations are read the way field annotations
are (`jaxdc._annotations`): strings under `from __future__ import annotations`, names
imported locally in the defining function, `Annotated[T, STATIC_MARKER]` aliases.

They are read lazily, on the first call (or `.lower`, `.trace`, ...), not at decoration:
real code jits methods inside a class decorator, before the class name is bound in its
module (`def compose(self, other: "SO3") -> "SO3"`), and imports some annotation types
only under `TYPE_CHECKING`. A string annotation that does not mention `Static` (or
`STATIC_MARKER`) cannot make a parameter static, so a name in it that never resolves
makes it a data parameter, not an error.

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
import re
import typing
from collections.abc import Callable, Iterable, Sequence
from typing import Any

import jax
import numpy as np
from _jaxdc_rules import messages

from jaxdc._annotations import CallerScope, Namespaces, UnresolvedName, caller_scope, is_static
from jaxdc._display import class_name, given, type_shown, wrong_kind
from jaxdc._spec import spec_of
from jaxdc._tracebacks import drop_internal_frames

__all__ = ["jit"]

_JAX_UNHASHABLE = "Non-hashable static arguments"
_JAX_NOT_TRACEABLE = "Error interpreting argument to"
# The spellings through which a string annotation can reach the static marker.
_MENTIONS_STATIC = re.compile(r"\b(?:Static|STATIC_MARKER)\b")


def jit(
    fun: Callable[..., Any] | None = None,
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
        "donate_argnums": _positions("donate_argnums", donate_argnums),
        "donate_argnames": _names("donate_argnames", donate_argnames),
        "device": device,
        "backend": backend,
        "inline": inline,
        "keep_unused": keep_unused,
    }
    extra = _names("static_argnames", static_argnames) or ()
    caller = caller_scope()
    if fun is None:
        return lambda f: Jitted(_callable(f), options, extra, caller)
    return Jitted(_callable(fun), options, extra, caller)


# `jax.jit` is built on the first call (`Jitted`), so its arguments are checked here: a
# wrong kind of object is an error at the `@jaxdc.jit` line, not at the first call.
def _callable(fun: Any) -> Callable[..., Any]:
    if not callable(fun):
        raise TypeError(wrong_kind("jaxdc.jit", messages.JIT_FUNCTION, fun))
    return fun  # type: ignore[no-any-return]


def _names(keyword: str, value: Any) -> tuple[str, ...] | None:
    """A name, or an iterable of them, as a tuple (None: not given)."""
    if value is None or isinstance(value, str):
        return None if value is None else (value,)
    names = tuple(value) if isinstance(value, Iterable) else None
    if names is None or not all(isinstance(v, str) for v in names):
        expected = "a parameter name or an iterable of them"
        raise TypeError(messages.wrong_keyword("jaxdc.jit", keyword, expected, given(value)))
    return names


def _positions(keyword: str, value: Any) -> int | tuple[int, ...] | None:
    """A position, or an iterable of them (a tuple), as `jax.jit` takes them."""
    if value is None or isinstance(value, (int, np.integer)):
        return None if value is None else int(value)
    positions = tuple(value) if isinstance(value, Iterable) else None
    if positions is None or not all(isinstance(v, (int, np.integer)) for v in positions):
        expected = "a parameter position or an iterable of them"
        raise TypeError(messages.wrong_keyword("jaxdc.jit", keyword, expected, given(value)))
    return positions


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
        if p.annotation is inspect.Parameter.empty or not _is_static_parameter(fun, p, ns):
            continue
        if p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD):
            raise TypeError(messages.jit_static_variadic(p.name, fun.__qualname__))
        if p.kind is p.POSITIONAL_ONLY:
            nums.append(i)
        else:
            names.append(p.name)
    return names, nums


def _is_static_parameter(fun: Callable[..., Any], p: inspect.Parameter, ns: Namespaces) -> bool:
    try:
        return is_static(p.annotation, ns)
    except UnresolvedName as exc:
        if not _mentions_static(p.annotation):
            return False  # e.g. "SO3" or a TYPE_CHECKING-only import: a data parameter
        raise TypeError(
            messages.jit_static_unresolved(p.name, fun.__qualname__, repr(p.annotation), exc.name)
        ) from None


def _mentions_static(annotation: Any) -> bool:
    if isinstance(annotation, typing.ForwardRef):
        annotation = annotation.__forward_arg__
    return not isinstance(annotation, str) or bool(_MENTIONS_STATIC.search(annotation))


class Jitted:
    """What `jaxdc.jit` returns: `jax.jit(fun, ...)` plus a clear unhashable-static error.

    The `jax.jit` callable is built on first use (`_compiled`), once the annotations can be
    resolved; until then only the arguments of `jaxdc.jit` are stored.
    """

    def __init__(
        self,
        fun: Callable[..., Any],
        options: dict[str, Any],
        extra: tuple[str, ...],
        caller: CallerScope | None,
    ) -> None:
        self._fun = fun
        self._options = options
        self._extra = extra
        self._caller = caller
        self._jitted: Any = None
        self._static: tuple[str, ...] = ()  # for messages
        functools.update_wrapper(self, fun)

    def _compiled(self) -> Any:
        jitted = self._jitted
        if jitted is None:
            fun = self._fun
            names, nums = _static_parameters(fun, self._caller)
            static_names = tuple(dict.fromkeys([*names, *self._extra]))
            params = list(inspect.signature(fun).parameters)
            jitted = jax.jit(
                fun,
                static_argnames=static_names or None,
                static_argnums=tuple(nums) or None,
                **self._options,
            )
            self._static = (*(params[i] for i in nums), *static_names)
            self._jitted = jitted
        return jitted

    # Errors (including a Static annotation that cannot be read, found on the first call)
    # leave with jaxdc's frames dropped (`drop_internal_frames`, then a bare `raise`, which
    # adds no frame), as JAX drops its own: they point at the caller's line. So each entry
    # point catches in its own frame; `_translated` holds what they share.
    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        try:
            return self._compiled()(*args, **kwargs)
        except Exception as exc:
            try:
                raise self._translated(exc, args, kwargs)
            except Exception as error:
                drop_internal_frames(error)
                raise

    def lower(self, *args: Any, **kwargs: Any) -> Any:
        try:
            return self._compiled().lower(*args, **kwargs)
        except Exception as exc:
            try:
                raise self._translated(exc, args, kwargs)
            except Exception as error:
                drop_internal_frames(error)
                raise

    def _translated(
        self, exc: Exception, args: tuple[Any, ...], kwargs: dict[str, Any]
    ) -> Exception:
        """JAX's unhashable-static error becomes one naming the parameter, and its error
        for a value it cannot trace one naming the class and the data field holding it;
        others stay."""
        if _unhashable_static(exc):
            error: Exception = self._unhashable(args, kwargs)
        elif _not_traceable(exc):
            arguments = inspect.signature(self._fun).bind_partial(*args, **kwargs).arguments
            found = _untraceable_field(arguments)
            if found is None:
                return exc
            error = TypeError(found)
        else:
            return exc
        error.__suppress_context__ = True  # as `raise ... from None`
        return error

    def __get__(self, instance: Any, owner: type | None = None) -> Any:
        """Bind like a function does, so `@jaxdc.jit` works on methods."""
        if instance is None:
            return self
        return _Bound(self, instance)

    def __getattr__(self, name: str) -> Any:  # trace, eval_shape, clear_cache, ...
        # Only reached for names the wrapper lacks. Before `__init__` ran (e.g. while
        # copying) or for dunders, there is nothing to delegate to: no recursion.
        if name.startswith("__") or "_fun" not in self.__dict__:
            raise AttributeError(name)
        return getattr(self._compiled(), name)

    def __repr__(self) -> str:
        if self._jitted is None:
            return f"<jaxdc.jit of {self._fun.__qualname__}, static: not resolved yet>"
        return f"<jaxdc.jit of {self._fun.__qualname__}, static: {list(self._static) or 'none'}>"

    def _unhashable(self, args: tuple[Any, ...], kwargs: dict[str, Any]) -> TypeError:
        arguments = inspect.signature(self._fun).bind_partial(*args, **kwargs).arguments
        for name in self._static:
            try:
                hash(arguments.get(name))
            except TypeError:
                return TypeError(_message(self._fun.__qualname__, name, arguments[name]))
        return TypeError(messages.jit_static_value_unknown(self._fun.__qualname__))


def _not_traceable(exc: Exception) -> bool:
    """JAX's error for a jit argument leaf it cannot trace (it names the path, not the field)."""
    return isinstance(exc, TypeError) and str(exc).startswith(_JAX_NOT_TRACEABLE)


def _untraceable_field(arguments: dict[str, Any]) -> str | None:
    """The message for the first leaf of `arguments` (parameter name -> value) that jit
    cannot trace and that a jaxdc class holds in a data field, or None."""
    for path, leaf in jax.tree_util.tree_flatten_with_path(arguments)[0]:
        if isinstance(leaf, _TRACEABLE) or hasattr(leaf, "__jax_array__"):
            continue
        owner: Any = arguments
        try:
            for key in path[:-1]:
                owner = _child(owner, key)
        except LookupError:
            return None
        last, spec = path[-1], spec_of(type(owner))
        if not isinstance(last, jax.tree_util.GetAttrKey) or spec is None:
            return None
        where = f"{path[0].key}{jax.tree_util.keystr(path[1:])}"
        return messages.data_value_not_traceable(
            last.name, class_name(spec.cls), type_shown(leaf), where
        )
    return None


_TRACEABLE = (jax.Array, np.ndarray, np.generic, bool, int, float, complex)


def _child(obj: Any, key: Any) -> Any:
    if isinstance(key, jax.tree_util.GetAttrKey):
        return getattr(obj, key.name)
    if isinstance(key, jax.tree_util.SequenceKey):
        return obj[key.idx]
    if isinstance(key, jax.tree_util.DictKey):
        return obj[key.key]
    raise LookupError(key)  # a node that names its children otherwise: not followed


def _unhashable_static(exc: Exception) -> bool:
    """JAX's error for an unhashable static argument (it names the type, not the parameter)."""
    return isinstance(exc, ValueError) and str(exc).startswith(_JAX_UNHASHABLE)


def _message(fun: str, name: str, value: Any) -> str:
    if isinstance(value, (jax.Array, np.ndarray)):
        return messages.jit_static_value_array(name, fun)
    return messages.jit_static_value_unhashable(name, fun, type(value).__name__)


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
