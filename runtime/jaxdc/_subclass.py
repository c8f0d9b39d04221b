"""Making a hidden subclass of a user's class without running any of the user's class code.

jaxdc makes classes of its own from user classes (the editing views of `copy_and_mutate`
are instances of one per class). Creating a class the ordinary way, `type(cls)(name,
bases, namespace)`, runs the class machinery of the user: the metaclass's `__new__` and
`__init__`, every base's `__init_subclass__` (which may require class keywords, as in
jaxls's `class SE3Var(Var[SE3], default_factory=...)`, or record each subclass in a
registry), and `__set_name__` on the namespace. None of that may run behind the user's
back, so `hidden_subclass`:

- calls `type.__new__` (or `abc.ABCMeta.__new__` for ABCs, so the class gets ABC caches of
  its own instead of reading its base's), skipping the metaclass's own `__new__` and
  `__init__`; the class is still an instance of the user's metaclass (through a hidden
  subclass of it, below), so class-level properties and methods keep working;
- puts `NoClassHooks` before the user's class among the bases: `type.__new__` calls the
  `__init_subclass__` found after the new class in its MRO, and that is `NoClassHooks`'s,
  which does nothing. (It stays there: setting `__bases__` to the user's class alone
  afterwards fails for most classes, whose instance layout CPython then compares with
  `NoClassHooks`'s. It defines nothing else, so it changes no attribute a user reads.)
- passes only jaxdc's own namespace, whose objects have no `__set_name__`;
- makes the class's metaclass a hidden subclass of the user's metaclass (made the same
  way, once per metaclass) whose `__call__` constructs the user's class: `type(view)(...)`
  runs the user's metaclass `__call__` once, for the user's class, never for the hidden one.

What remains visible, and is documented (docs/runtime-toolkit.md): the class is listed by
`cls.__subclasses__()`, its MRO shows `NoClassHooks`, and a metaclass that overrides
`mro()` is asked for it.
"""

from __future__ import annotations

import abc
from typing import Any

__all__ = ["NoClassHooks", "hidden_subclass"]


class NoClassHooks:
    """First base of a class made by `hidden_subclass`: stands in for the user's
    `__init_subclass__` hooks (see the module docstring)."""

    __slots__ = ()

    def __init_subclass__(cls, **kwargs: Any) -> None:
        pass  # deliberately nothing: the point is that the user's hooks do not run


def hidden_subclass(cls: type, namespace: dict[str, Any]) -> type:
    """A subclass of `cls` made without running user code; calling it constructs `cls`."""
    return _make(_hidden_metaclass(type(cls)), cls, namespace)


_METACLASSES: dict[type, type] = {}  # the user's metaclass -> its hidden subclass


def _hidden_metaclass(metaclass: type) -> type:
    hidden = _METACLASSES.get(metaclass)
    if hidden is None:

        def __call__(sub: type, *args: Any, **kwargs: Any) -> Any:
            """Construct the user's class (the last base) instead of the hidden one."""
            return sub.__bases__[-1](*args, **kwargs)

        namespace = {
            "__call__": __call__,
            "__module__": metaclass.__module__,
            "__qualname__": metaclass.__qualname__,
        }
        hidden = _METACLASSES[metaclass] = _make(type(metaclass), metaclass, namespace)
    return hidden


def _make(metaclass: type, cls: type, namespace: dict[str, Any]) -> type:
    new = abc.ABCMeta.__new__ if issubclass(metaclass, abc.ABCMeta) else type.__new__
    return new(metaclass, cls.__name__, (NoClassHooks, cls), namespace)
