"""Fully qualified names the rules and the plugin recognise.

Classes are named by where they are *defined*, as mypy knows them; ``canonical`` maps the
few spellings that differ at runtime (``collections.abc.Mapping`` is mypy's
``typing.Mapping``; ``jax.Array`` is defined in a private module that moves between jax
releases) so both layers compare the same strings.
"""

from __future__ import annotations

# --- jaxdc names the plugin hooks (the *stubs'* module layout, docs/architecture.md) ------
DECORATOR = "jaxdc._dataclass.pytree_dataclass"
DECORATOR_CALL = "jaxdc._dataclass.PytreeDataclassDecorator.__call__"
PYTREE_NODE = "jaxdc._node.PyTreeNode"
PYTREE_NODE_REPLACE = "jaxdc._node.PyTreeNode.replace"
STATIC = "jaxdc._static.Static"
STATIC_MARKER = "jaxdc._static.STATIC_MARKER"  # Annotated[T, STATIC_MARKER]
FIELD = "jaxdc._field.field"
STATIC_FIELD = "jaxdc._field.static_field"
# flax.struct's API over jaxdc (`from jaxdc.compat import flax_struct as struct`): its
# decorator makes a jaxdc class, its `field(pytree_node=False)` a static field (flax takes
# `pytree_node` positionally too).
COMPAT_FLAX_DECORATOR = "jaxdc.compat.flax_struct.dataclass"
COMPAT_FLAX_FIELD = "jaxdc.compat.flax_struct.field"
# chex.dataclass's API over jaxdc (`from jaxdc.compat import chex_dataclass as chex`).
COMPAT_CHEX_DECORATOR = "jaxdc.compat.chex_dataclass.dataclass"
# Decorators that make a jaxdc class: their classes are pytrees (a data field may hold
# one) and get jaxdc's checks from the migration line on.
DECORATORS = frozenset({DECORATOR, COMPAT_FLAX_DECORATOR, COMPAT_CHEX_DECORATOR})
# Those that also give the class a `.replace` method at runtime (as flax and chex do).
REPLACE_DECORATORS = frozenset({COMPAT_FLAX_DECORATOR, COMPAT_CHEX_DECORATOR})
REPLACE = "jaxdc._replace.replace"
# From Python 3.13 on, the stubs make `jaxdc.replace` and `PyTreeNode.replace` callable
# objects (typed from `__replace__` where the checker synthesises it): the plugin types
# their `__call__`, with the object first, or bound to the object.
REPLACE_CALLS = frozenset(
    {"jaxdc._replace._ReplaceFieldKeywords.__call__", "jaxdc._replace._ReplaceAnyKeywords.__call__"}
)
BOUND_REPLACE_CALLS = frozenset(
    {"jaxdc._replace._BoundFieldKeywords.__call__", "jaxdc._replace._BoundAnyKeywords.__call__"}
)
JIT = "jaxdc._jit.jit"
ATTR = "jaxdc._mutation.attr"
COPY_AND_MUTATE = "jaxdc._copy_and_mutate.copy_and_mutate"
# jax.jit, whose static arguments are named in its call, not read from Static[...].
JAX_JIT = "jax._src.api.jit"

# Key under which a class's own field kinds are stored in ``TypeInfo.metadata``. Metadata
# is JSON that mypy serialises into its cache, so it is what survives warm runs, parallel
# workers and the daemon; the ``Annotated`` marker of ``Static[...]`` does not.
METADATA_KEY = "jaxdc"
# Dataclass options mypy does not record (``eq``, ``unsafe_hash``, fields left out of the
# hash), stored for every dataclass, and the mark of a class another library makes a pytree.
HASH_METADATA_KEY = "jaxdc-hash"
PYTREE_METADATA_KEY = "jaxdc-pytree"

STDLIB_DATACLASS = "dataclasses.dataclass"
STDLIB_FIELD = "dataclasses.field"
STDLIB_DICT = "builtins.dict"  # `metadata=dict(static=True)`, as JAX's docs write it
# JAX's own field specifier (jax >= 0.9.1): `dataclasses.field` with `{"static": True}` merged
# into its metadata. JAX declares it to checkers as `static = dataclasses.field` in
# `jax._src.tree`, so that Var is what a `jax.tree.static(...)` call names in mypy.
JAX_TREE_STATIC = "jax._src.tree.static"
# Decorators of other libraries whose classes are pytrees.
FOREIGN_PYTREE_DECORATORS = frozenset({"flax.struct.dataclass"})
# JAX's own registration decorators: the class is a pytree, so a data field of its type is
# no alarm. `register_static` is JAX's static spelling for a type: a pytree without leaves,
# its instances carried in the treedef.
JAX_PYTREE_DECORATORS = frozenset(
    {
        "jax._src.tree_util.register_static",
        "jax._src.tree_util.register_dataclass",
        "jax._src.tree_util.register_pytree_node_class",
        "jax._src.tree_util.register_pytree_with_keys_class",
    }
)

# --- types -------------------------------------------------------------------------------
JAX_ARRAY = "jax.Array"
# Array types whose subclasses are array-like data and never hashable statics.
ARRAY_TYPES = frozenset({JAX_ARRAY, "numpy.ndarray"})
# Scalars that JAX turns into arrays (NumPy scalars and Python numbers).
SCALAR_TYPES = frozenset(
    {
        "numpy.number",
        "numpy.bool",
        "numpy.bool_",
        "builtins.bool",
        "builtins.int",
        "builtins.float",
        "builtins.complex",
    }
)
TEXT_TYPES = frozenset({"builtins.str", "builtins.bytes"})
# Any container (a class iterating its items): one JAX does not flatten is a single leaf.
ITERABLE = "typing.Iterable"
# In a recursive alias (optax's and chex's `ArrayTree`), these spell "a list or tuple of
# subtrees" (rules/_jaxdc_rules/arraylike.py).
TREE_ALIAS_CONTAINERS = frozenset({"typing.Iterable", "typing.Collection"})
# Containers JAX flattens into their elements (mappings: their values), and the abstract
# types that name them: a `Sequence` is a list or a tuple, a `Mapping` a dict. (`Iterable`
# and `Collection` are not: their other common values, sets, generators, ranges and dict
# views, are single leaves jit rejects, and a dict flattens to its values, not the keys
# it iterates.)
PYTREE_CONTAINERS = frozenset(
    {
        "builtins.list",
        "builtins.tuple",
        "builtins.dict",
        "collections.OrderedDict",
        "collections.defaultdict",
        "typing.Sequence",
        "typing.MutableSequence",
        "typing.Mapping",
        "typing.MutableMapping",
        "flax.core.frozen_dict.FrozenDict",
    }
)
# Base classes that make each subclass a dataclass with `unsafe_hash=True` unless it defines
# `__hash__` (flax.linen modules: hashable, so they can be static fields), where the
# dataclass_transform the checkers read says nothing about the hash.
HASHED_DATACLASS_BASES = frozenset({"flax.linen.module.Module"})
# Base classes of other libraries' pytrees, as users import them (resolved like the
# ``extra_pytree_bases`` setting, to which they are added).
KNOWN_PYTREE_BASES = ("equinox.Module", "flax.struct.PyTreeNode")
# Mutable classes whose instances are unhashable (the runtime table's first row): the
# concrete stdlib ones, whose stubs do not always say ``__hash__: ClassVar[None]``.
MUTABLE_TYPES = frozenset(
    {
        "builtins.list",
        "builtins.dict",
        "builtins.set",
        "builtins.bytearray",
        "collections.deque",
        "collections.OrderedDict",
        "collections.defaultdict",
        "collections.Counter",
        "collections.ChainMap",
        "collections.UserDict",
        "collections.UserList",
        "typing.MutableSequence",
        "typing.MutableMapping",
        "typing.MutableSet",
    }
)
# Read-only interfaces Python makes unhashable (they define ``__eq__``, not ``__hash__``).
# Unhashable whatever their runtime `__hash__` says: a mappingproxy hashes its mapping
# (Python 3.12+), and the mapping it wraps is a dict in practice.
UNHASHABLE_TYPES = frozenset({"typing.Mapping", "typing.AbstractSet", "types.MappingProxyType"})
# Containers hashed through their elements (tuples are described as tuples).
HASHED_BY_ELEMENTS = frozenset({"builtins.frozenset"})

_ALIASES = {
    "jax._src.basearray.Array": JAX_ARRAY,
    "jaxlib._jax.Array": JAX_ARRAY,
    "jaxlib.xla_extension.Array": JAX_ARRAY,
    "collections.abc.Set": "typing.AbstractSet",
    "collections.abc.MutableSet": "typing.MutableSet",
    "flax.core.FrozenDict": "flax.core.frozen_dict.FrozenDict",
    "builtins.mappingproxy": "types.MappingProxyType",  # the class's own name at runtime
}


def canonical(fullname: str) -> str:
    """The one spelling both layers use for a class's fully qualified name."""
    alias = _ALIASES.get(fullname)
    if alias is not None:
        return alias
    if fullname.startswith("collections.abc."):
        return "typing." + fullname[len("collections.abc.") :]
    return fullname


def canonical_class(module: str, qualname: str) -> tuple[str, str]:
    """(module, qualified name) of a class under its canonical fully qualified name:
    ``collections.abc``/``Set`` -> ``typing``/``AbstractSet``, as mypy names it."""
    fullname = f"{module}.{qualname}"
    alias = canonical(fullname)
    if alias == fullname:
        return module, qualname
    head, _, name = alias.rpartition(".")
    return head, name
