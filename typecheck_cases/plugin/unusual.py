"""Unusual input: unresolved names, non-literal flags, stacked decorators, wrong calls; no crash."""

import jax
import jaxdc
from jaxdc import PyTreeNode, Static, field, pytree_dataclass, static_field
from nowhere import Missing  # type: ignore[import-not-found]  # E: ty import-not-found  # runtime: raises ModuleNotFoundError

flag = True


@pytree_dataclass
class Odd:
    a: Static
    b: Static["Undefined"]  # E: pyright,basedpyright reportUndefinedVariable  # E: ty unresolved-reference  # E: pyrefly unknown-name  # E: zuban,mypy,mypy-plugin name-defined
    c: Static[Missing]
    d: Missing
    e: list[int] = field(static=flag, default_factory=list)
    f: int = field(pytree=flag, default=0)
    g: Static[int] = static_field(default=1)
    h: "jaxdc.Static[dict[str, int]]" = field(default_factory=dict)  # E: pyright,basedpyright reportInvalidTypeForm  # E: ty invalid-type-arguments  # E: pyrefly bad-specialization  # E: zuban,mypy type-var  # E: mypy-plugin jaxdc-static: static field 'h' of class 'Odd' has unhashable type 'dict[str, int]': 'dict' is mutable and not hashable. Static values are part of the treedef and used as jit cache keys, so they must be hashable. Fix: use an immutable type such as tuple[...] or frozenset[...], or make 'h' a data field.


class Self(PyTreeNode):
    child: "Self | None"
    parent: Static["Self"]


@pytree_dataclass
@pytree_dataclass
class Double:
    y: jax.Array


@pytree_dataclass
class Empty:
    pass


jaxdc.replace()  # E: pyright,basedpyright reportCallIssue  # E: ty missing-argument  # E: pyrefly bad-argument-count  # E: zuban,mypy,mypy-plugin call-arg
jaxdc.replace(1, x=2)  # E: pyright@3.13,basedpyright@3.13 reportArgumentType  # E: pyright@3.13,basedpyright@3.13 reportCallIssue  # E: ty@3.13 invalid-argument-type  # E: pyrefly@3.13 bad-argument-type  # E: mypy@3.13,mypy-plugin@3.13 arg-type
jaxdc.attr()  # E: pyright,basedpyright reportCallIssue  # E: ty missing-argument  # E: pyrefly bad-argument-count  # E: zuban,mypy,mypy-plugin call-arg
jaxdc.attr(Empty(), 3).set(1)  # E: pyright,basedpyright reportArgumentType  # E: ty invalid-argument-type  # E: pyrefly bad-argument-type  # E: zuban,mypy,mypy-plugin arg-type  # E: mypy,mypy-plugin arg-type  # E: mypy-plugin jaxdc-mutation: cannot assign to a field of 'Empty': jaxdc instances are frozen, like JAX arrays; fields can be set only on `self` in __init__/__post_init__ or inside `with jaxdc.copy_and_mutate(...)`. Fix: jaxdc.replace(obj, field=...), or `with jaxdc.copy_and_mutate(obj) as new: new.field = ...` (spelled `jaxdc.attr(new, lambda n: n.field).set(...)` where type checkers must accept it).
