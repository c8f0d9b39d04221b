"""`tree_diff(old, new)`: how two pytrees differ as `jit` sees them, by field name.

    >>> jaxdc.tree_diff(state, jaxdc.replace(state, opt=jaxdc.replace(state.opt, lr=0.2)))
    [TreeDifference(path='.opt.lr', kind='static', old=0.1, new=0.2, field='lr', owner='Opt')]

`jit` traces again when the tree structure, a static value, or a leaf's shape or dtype
differs from every earlier call; array values never make it trace. So this compares
exactly those, and nothing else: a tool for tests and debuggers, and what `jaxdc.jit`'s
retrace explanation (`_retrace`) uses. It works on any pytree; the static fields of jaxdc
classes are compared one by one and named (their treedef metadata carries the names, see
`_metadata`), other nodes' metadata as a whole.

Paths are written as JAX's `keystr` writes key paths (`.opt.lr`, `[0]`, `['w']`; the root
is `''`). A node whose type, number of children, keys or (non-jaxdc) metadata differ is one
`structure` or `static` difference: its children cannot be paired, so they are not
compared. A jaxdc node whose static fields differ still has the same data fields, so its
children are compared too.
"""

from __future__ import annotations

import dataclasses
from typing import Any, Literal

import jax
import numpy as np
from _jaxdc_rules import messages
from jax.tree_util import DictKey, SequenceKey

from jaxdc._display import array_summary, class_name
from jaxdc._metadata import CACHE_ATTR, StaticMetadata, registered_metadata

__all__ = [
    "Leaf",
    "Node",
    "Shape",
    "Skeleton",
    "TreeDifference",
    "describe",
    "same_static",
    "skeleton",
    "skeleton_diff",
    "tree_diff",
]

Kind = Literal["static", "structure", "shape", "dtype"]
_NUMBERS = (bool, int, float, complex)


@dataclasses.dataclass(frozen=True)
class TreeDifference:
    """One way two pytrees differ: at `path`, `old` became `new`.

    `kind`: `static` (a static field, or a non-jaxdc node's metadata: `old` and `new` are
    the values), `structure` (`old` and `new` are the two subtrees), `shape` or `dtype`
    (`old` and `new` are the two leaves). For a jaxdc static field, `field` is its name and
    `owner` its class as messages show it; for other metadata `owner` is the node's class.
    """

    path: str
    kind: Kind
    old: Any
    new: Any
    field: str | None = None
    owner: str | None = None

    def __str__(self) -> str:
        """The difference in one clause: `.opt.lr changed 0.1 -> 0.2 (static field 'lr' of
        'Opt')`."""
        return describe(self, self.path or "the tree")


def describe(d: TreeDifference, path: str) -> str:
    """`d` in one clause, its path written as `path` (a parameter name may prefix it)."""
    if d.kind == "static":
        old, new = repr(d.old), repr(d.new)
        if d.field is not None:
            return messages.difference_static_field(path, old, new, d.field, str(d.owner))
        return messages.difference_static_metadata(path, old, new, str(d.owner))
    if d.kind == "structure":
        return messages.difference_structure(path, _shown(d.old), _shown(d.new))
    return messages.difference_leaf(path, d.kind, _shown(d.old), _shown(d.new))


def tree_diff(old: Any, new: Any) -> list[TreeDifference]:
    """Every difference between pytrees `old` and `new` that would make `jit` trace again
    (structure, static values, leaf shapes and dtypes), in tree order; `[]` when a jitted
    function would reuse its trace."""
    found: list[TreeDifference] = []
    _walk(skeleton(old, keep=True), skeleton(new, keep=True), (), found)
    return found


def skeleton_diff(old: Skeleton, new: Skeleton) -> list[TreeDifference]:
    """`tree_diff` of two skeletons (`old`, `new` of a difference are skeletons unless they
    were made with `keep=True`)."""
    found: list[TreeDifference] = []
    _walk(old, new, (), found)
    return found


class Shape:
    """What `jit` keeps of an array leaf: shape, dtype, weak type (a light record: made for
    every leaf of every trace, where `jax.ShapeDtypeStruct` costs tens of microseconds)."""

    __slots__ = ("dtype", "shape", "weak_type")

    def __init__(self, shape: tuple[int, ...], dtype: Any, weak_type: bool) -> None:
        self.shape, self.dtype, self.weak_type = shape, dtype, weak_type

    def same(self, other: Shape) -> bool:
        return (
            self.shape == other.shape
            and self.dtype == other.dtype
            and self.weak_type == other.weak_type
        )


class Leaf:
    """A leaf as jit sees it: its `Shape` for an array, else only its type."""

    __slots__ = ("abstract", "kind", "value")

    def __init__(self, abstract: Shape | None, kind: type, value: Any) -> None:
        self.abstract, self.kind, self.value = abstract, kind, value


class Node:
    """A pytree node: its type and metadata, and its children's keys and skeletons."""

    __slots__ = ("children", "keys", "kind", "meta", "value")

    def __init__(
        self,
        kind: Any,
        meta: Any,
        keys: tuple[Any, ...],
        children: tuple[Skeleton, ...],
        value: Any,
    ) -> None:
        self.kind, self.meta, self.keys = kind, meta, keys
        self.children, self.value = children, value


Skeleton = Leaf | Node
_NO_VALUE = object()  # a skeleton made without keeping the values
_ARRAY_LEAVES = (jax.Array, np.ndarray, np.generic, *_NUMBERS)


def skeleton(x: Any, keep: bool = False) -> Skeleton:
    """What jit keys a pytree by, read by flattening only (never unflattening, which could
    run a class's `__init__`): every node's type, metadata and keys, every leaf's shape and
    dtype. `keep`: hold the subtrees too (a difference then shows them); without, no leaf
    (a tracer, a large array) is kept alive. Arrays, jaxdc instances and Python's
    containers are read directly (a trace records every argument); other nodes through
    JAX's registry."""
    value = x if keep else _NO_VALUE
    kind = type(x)
    if isinstance(x, _ARRAY_LEAVES):
        return Leaf(_shape_of(x), kind, value)
    if kind is list or kind is tuple:
        keys: tuple[Any, ...] = tuple(SequenceKey(i) for i in range(len(x)))
        return Node(kind, None, keys, tuple(skeleton(c, keep) for c in x), value)
    if kind is dict and all(type(k) is str for k in x):  # (JAX sorts keys of other types)
        names = sorted(x)
        keys = tuple(DictKey(k) for k in names)
        return Node(dict, names, keys, tuple(skeleton(x[k], keep) for k in names), value)
    if x is None:
        return Node(kind, None, (), (), value)
    own = registered_metadata(kind)
    if own is not None and own.data_keys is not None:  # a jaxdc instance: its flatten cache
        children, meta = getattr(x, CACHE_ATTR)
        return Node(kind, meta, own.data_keys, tuple(skeleton(c, keep) for c in children), value)
    level = _one_level(x)
    if level is None:
        return Leaf(_shape_of(x), kind, value)
    pairs, (node_kind, meta) = level
    keys = tuple(k for k, _ in pairs)
    return Node(node_kind, meta, keys, tuple(skeleton(c, keep) for _, c in pairs), value)


def _shape_of(x: Any) -> Shape | None:
    """A leaf's `Shape`: arrays, tracers and Python numbers (weakly typed), else None."""
    if isinstance(x, _NUMBERS):
        return Shape((), jax.dtypes.canonicalize_dtype(np.result_type(type(x))), True)
    shape, dtype = getattr(x, "shape", None), getattr(x, "dtype", None)
    if shape is None or dtype is None:
        return None
    return Shape(tuple(shape), dtype, _weak(x))


def _weak(x: Any) -> bool:
    weak = getattr(x, "weak_type", None)
    if weak is None:
        weak = getattr(getattr(x, "aval", None), "weak_type", False)
    return bool(weak)


def _one_level(x: Any) -> tuple[list[tuple[Any, Any]], Any] | None:
    """(children with their keys, (node type, node metadata)), or None for a leaf."""
    children, treedef = jax.tree_util.tree_flatten_with_path(x, is_leaf=lambda y: y is not x)
    node: Any = treedef  # (jaxlib's PyTreeDef is untyped)
    if node.num_nodes == 1 and node.num_leaves == 1:
        return None
    return [(path[0], child) for path, child in children], node.node_data()


def _walk(a: Skeleton, b: Skeleton, keys: tuple[Any, ...], found: list[TreeDifference]) -> None:
    path = jax.tree_util.keystr(keys)
    if isinstance(a, Leaf) and isinstance(b, Leaf):
        _compare_leaves(a, b, path, found)
        return
    if (
        not (isinstance(a, Node) and isinstance(b, Node))
        or a.kind is not b.kind
        or a.keys != b.keys
    ):
        found.append(TreeDifference(path, "structure", _shown_as(a), _shown_as(b)))
        return
    if not same_static(a.meta, b.meta):
        if not _named_fields(a.meta, b.meta, path, found):
            found.append(TreeDifference(path, "static", a.meta, b.meta, None, _name(a.kind)))
            return
    for key, x, y in zip(a.keys, a.children, b.children, strict=True):
        _walk(x, y, (*keys, key), found)


def _shown_as(s: Skeleton) -> Any:
    """What a difference holds as `old` or `new`: the subtree if kept, else its skeleton."""
    return s if s.value is _NO_VALUE else s.value


def same_static(a: Any, b: Any) -> bool:
    """Whether two static values (or metadata) are the same cache key, as jit compares
    them (`==`), with a value of another type never the same (jit's static arguments are
    compared that way too: 1, 1.0 and True are three keys)."""
    if a is b:
        return True
    if isinstance(a, tuple) and isinstance(b, tuple) and len(a) == len(b):
        return all(same_static(x, y) for x, y in zip(a, b, strict=True))
    try:
        return type(a) is type(b) and bool(a == b)
    except Exception:  # e.g. an array in metadata (no single truth value): not the same
        return False


def _named_fields(a: Any, b: Any, path: str, found: list[TreeDifference]) -> bool:
    """Differences of a jaxdc node's static fields, one per field; False if the metadata
    is not jaxdc's."""
    if not (isinstance(a, StaticMetadata) and isinstance(b, StaticMetadata)):
        return False
    if a.names != b.names:
        return False
    for name, x, y in zip(a.names, a, b, strict=True):
        if not same_static(x, y):
            found.append(TreeDifference(f"{path}.{name}", "static", x, y, name, a.shown))
    return True


def _compare_leaves(a: Leaf, b: Leaf, path: str, found: list[TreeDifference]) -> None:
    if a.abstract is None or b.abstract is None:
        if a.kind is not b.kind:
            found.append(TreeDifference(path, "structure", _shown_as(a), _shown_as(b)))
        return
    if a.abstract.shape != b.abstract.shape:
        found.append(TreeDifference(path, "shape", _shown_as(a), _shown_as(b)))
    elif a.abstract.dtype != b.abstract.dtype or a.abstract.weak_type != b.abstract.weak_type:
        found.append(TreeDifference(path, "dtype", _shown_as(a), _shown_as(b)))


def _name(node_type: Any) -> str:
    return class_name(node_type) if isinstance(node_type, type) else repr(node_type)


def _shown(x: Any) -> str:
    """A subtree or leaf in a message: arrays as `f32[3]`, containers by kind and size."""
    s = x if isinstance(x, (Leaf, Node)) else skeleton(x)
    if isinstance(s, Leaf):
        if s.abstract is None:
            return class_name(s.kind)
        text = array_summary(s.abstract)
        return f"{text} (weakly typed)" if s.abstract.weak_type else text
    if s.kind is type(None):
        return "None"
    if s.kind in (list, tuple):
        return f"{s.kind.__name__} of {len(s.children)}"
    if s.kind is dict:
        return f"dict with keys {list(s.meta)}"
    return _name(s.kind)
