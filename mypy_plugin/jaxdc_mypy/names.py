"""Fully qualified names the plugin recognises.

They are the names in the *stubs* (``stubs/jaxdc-stubs``), which mirror the runtime module
layout in docs/architecture.md. Keeping them in one place means a rename in the stubs is a
one-line change here. Pure Python: importing it never imports mypy.
"""

DECORATOR = "jaxdc._dataclass.pytree_dataclass"
DECORATOR_CALL = "jaxdc._dataclass.PytreeDataclassDecorator.__call__"
PYTREE_NODE = "jaxdc._node.PyTreeNode"
PYTREE_NODE_REPLACE = "jaxdc._node.PyTreeNode.replace"
STATIC = "jaxdc._static.Static"
FIELD = "jaxdc._field.field"
STATIC_FIELD = "jaxdc._field.static_field"
REPLACE = "jaxdc._replace.replace"
JIT = "jaxdc._jit.jit"
ATTR = "jaxdc._mutation.attr"
COPY_AND_MUTATE = "jaxdc._copy_and_mutate.copy_and_mutate"
JAX_JIT = "jax._src.api.jit"

# Key under which a class's own field kinds are stored in ``TypeInfo.metadata``. Metadata
# is JSON that mypy serialises into its cache, so it is what survives warm runs, parallel
# workers and the daemon; the ``Annotated`` marker of ``Static[...]`` does not.
METADATA_KEY = "jaxdc"

# Array types whose subclasses are array-like data and never hashable statics.
ARRAY_TYPES = frozenset({"jax._src.basearray.Array", "numpy.ndarray"})
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
# Containers that JAX flattens into their elements (dict: its values), and the abstract
# types such fields are often annotated with (they hold a list/tuple/dict at runtime).
PYTREE_CONTAINERS = frozenset(
    {
        "builtins.list",
        "builtins.tuple",
        "builtins.dict",
        "typing.Sequence",
        "typing.MutableSequence",
        "typing.Mapping",
        "typing.MutableMapping",
    }
)
# Mutable builtins whose instances are unhashable (the runtime table's first row).
MUTABLE_BUILTINS = frozenset(
    {
        "builtins.list",
        "builtins.dict",
        "builtins.set",
        "builtins.bytearray",
        "collections.deque",
    }
)
