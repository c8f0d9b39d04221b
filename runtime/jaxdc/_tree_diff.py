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

from jaxdc._display import array_summary, class_name
from jaxdc._metadata import StaticMetadata

__all__ = ["TreeDifference", "abstract_leaf", "describe", "same_static", "tree_diff"]

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
    _walk(old, new, (), found)
    return found


def abstract_leaf(x: Any) -> Any:
    """What `jit` keeps of a data leaf: a `jax.ShapeDtypeStruct` for an array, a tracer or
    a Python number (weakly typed), the leaf itself otherwise."""
    if isinstance(x, _NUMBERS):
        return _struct((), jax.dtypes.canonicalize_dtype(np.result_type(type(x))), True)
    shape, dtype = getattr(x, "shape", None), getattr(x, "dtype", None)
    if shape is None or dtype is None:
        return x
    return _struct(tuple(shape), dtype, _weak(x))


def _struct(shape: tuple[int, ...], dtype: Any, weak: bool) -> jax.ShapeDtypeStruct:
    # (its __init__ is unannotated on some JAX releases)
    return jax.ShapeDtypeStruct(shape, dtype, weak_type=weak)  # type: ignore[no-untyped-call,unused-ignore]


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


def _walk(old: Any, new: Any, keys: tuple[Any, ...], found: list[TreeDifference]) -> None:
    a, b = _one_level(old), _one_level(new)
    path = jax.tree_util.keystr(keys)
    if a is None and b is None:
        _compare_leaves(old, new, path, found)
        return
    if a is None or b is None or a[1][0] is not b[1][0] or len(a[0]) != len(b[0]):
        found.append(TreeDifference(path, "structure", old, new))
        return
    (old_children, (node_type, old_meta)), (new_children, (_, new_meta)) = a, b
    if [k for k, _ in old_children] != [k for k, _ in new_children]:
        found.append(TreeDifference(path, "structure", old, new))  # e.g. other dict keys
        return
    if not same_static(old_meta, new_meta):
        if not _named_fields(old_meta, new_meta, path, found):
            found.append(TreeDifference(path, "static", old_meta, new_meta, None, _name(node_type)))
            return
    for (key, x), (_, y) in zip(old_children, new_children, strict=True):
        _walk(x, y, (*keys, key), found)


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


def _compare_leaves(old: Any, new: Any, path: str, found: list[TreeDifference]) -> None:
    a, b = abstract_leaf(old), abstract_leaf(new)
    if not (isinstance(a, jax.ShapeDtypeStruct) and isinstance(b, jax.ShapeDtypeStruct)):
        if type(old) is not type(new):
            found.append(TreeDifference(path, "structure", old, new))
        return
    if a.shape != b.shape:
        found.append(TreeDifference(path, "shape", old, new))
    elif a.dtype != b.dtype or a.weak_type != b.weak_type:
        found.append(TreeDifference(path, "dtype", old, new))


def _name(node_type: Any) -> str:
    return class_name(node_type) if isinstance(node_type, type) else repr(node_type)


def _shown(x: Any) -> str:
    """A subtree or leaf in a message: arrays as `f32[3]`, containers by kind and size."""
    leaf = abstract_leaf(x)
    if isinstance(leaf, jax.ShapeDtypeStruct):
        text = array_summary(leaf)
        return f"{text} (weakly typed)" if leaf.weak_type else text
    if x is None:
        return "None"
    if type(x) in (list, tuple):
        return f"{type(x).__name__} of {len(x)}"
    if type(x) is dict:
        return f"dict with keys {sorted(x, key=repr)}"
    return class_name(type(x))
