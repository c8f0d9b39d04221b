"""Is a data field's type array-like, i.e. something JAX can trace as pytree leaves?

Judged by class names in the MRO (arrays, NumPy and Python scalars, pytree classes), so no
layer needs to import jax or numpy to ask. Containers JAX flattens pass when their elements
do: lists, tuples, dicts and the abstract types that name them (``Sequence``,
``MutableSequence``, ``Mapping``, ``MutableMapping``), ``OrderedDict``, ``defaultdict``,
flax's ``FrozenDict``, NamedTuples (optax states are NamedTuples of arrays), NewTypes of
those. Other containers (sets, deques, ``Counter``, ``Iterable``, ``Collection``, ...) are
one leaf to JAX, which jit rejects: they are reported as such, except ``Iterable`` and
``Collection`` inside a recursive alias, optax's and chex's spelling of a pytree of arrays
(``ArrayTree = Union[Array, Iterable["ArrayTree"], Mapping[Any, "ArrayTree"]]``). A
TypeVar is its bound, or each of its constraints (as a union is each of its members).
Pytrees of other libraries pass by default: jaxdc classes, equinox ``Module``, flax.struct classes
(``names.KNOWN_PYTREE_BASES``, and classes their decorators make).

Only the plugin checks data fields (the runtime would have to look at values, which
``jit`` does anyway); the rule lives here with the others so both read from one table.
"""

from __future__ import annotations

from collections.abc import Iterable

from _jaxdc_rules import names
from _jaxdc_rules.messages import Problem
from _jaxdc_rules.typedesc import (
    ANY,
    CALLABLE,
    CLASS_OBJECT,
    INSTANCE,
    LITERAL,
    TUPLE,
    TYPEDDICT,
    TYPEVAR,
    UNION,
    TypeDesc,
    refers_to_itself,
)

UNKNOWN = Problem("any")
"""An ``Any``/unconstrained part: fine, unless the user opted into ``check_any``."""


class ArrayLikeRules:
    """Finds the first part of a type that is not array-like (None if all of it is)."""

    def __init__(
        self, extra_arrays: Iterable[str] = (), extra_pytree_bases: Iterable[str] = ()
    ) -> None:
        self._leaves = (
            names.ARRAY_TYPES | names.SCALAR_TYPES | {names.canonical(n) for n in extra_arrays}
        )
        self._pytrees = {names.canonical(n) for n in extra_pytree_bases} | {names.PYTREE_NODE}

    def non_array_part(self, desc: TypeDesc) -> Problem | None:
        """The worst part: a real problem beats ``UNKNOWN``, which beats nothing."""
        return self._check(desc, set())

    def _check(self, desc: TypeDesc, seen: set[object]) -> Problem | None:
        if id(desc) in seen:  # a recursive type: its other parts decide
            return None
        seen.add(id(desc))
        form = desc.form
        if form == ANY:
            return UNKNOWN
        if form in (UNION, TUPLE, TYPEDDICT, LITERAL):
            return self._worst(desc.items, seen)
        if form == TYPEVAR:  # its bound or its constraints; unconstrained: not known
            return self._worst(desc.items, seen) if desc.items else UNKNOWN
        if form == CALLABLE:
            return Problem("callable")
        if form == CLASS_OBJECT:
            return Problem("class-object")
        if form == INSTANCE:
            return self._instance(desc, seen)
        return None  # None, NoReturn, errors already reported: nothing to trace

    def _worst(self, items: Iterable[TypeDesc], seen: set[object]) -> Problem | None:
        found = None
        for item in items:
            problem = self._check(item, seen)
            if problem is not None and problem is not UNKNOWN:
                return problem
            found = found or problem
        return found

    def _instance(self, desc: TypeDesc, seen: set[object]) -> Problem | None:
        if desc.supertype is not None:  # a NewType is what it wraps at runtime
            return self._check(desc.supertype, seen)
        own = desc.bases[0] if desc.bases else None
        if own is not None and (
            own.fullname in names.PYTREE_CONTAINERS or _of_subtrees(own.fullname, desc)
        ):
            # JAX flattens exactly these; a mapping's keys are part of the treedef.
            return self._worst(desc.items[-1:], seen)
        if own is not None and own.namedtuple:
            if ("fields", own.fullname) in seen:  # each class's fields once per walk
                return None
            seen.add(("fields", own.fullname))
            return self._worst((field.type for field in own.fields()), seen)
        mro = {base.fullname for base in desc.bases}
        if desc.pytree or mro & self._leaves or mro & self._pytrees:
            return None
        if desc.fullname in names.TEXT_TYPES:
            return Problem("text", desc.name)
        if names.ITERABLE in mro:
            return Problem("container", desc.name)
        return Problem("not-array", desc.name)


def _of_subtrees(fullname: str, desc: TypeDesc) -> bool:
    """``Iterable[ArrayTree]`` in a recursive alias (``ArrayTree = Union[Array,
    Iterable["ArrayTree"], Mapping[Any, "ArrayTree"]]``, as optax and chex spell a pytree
    of arrays): there it names a list or tuple of subtrees."""
    items = desc.items
    return fullname in names.TREE_ALIAS_CONTAINERS and bool(items) and refers_to_itself(items[-1])
