"""jaxdc_mypy's checks: every misuse it must catch, and no alarm on correct code.

Expected diagnostics are the `# E: <code>` comments in the sources; each test compares
them exactly with what mypy + plugin reports (mypy's own codes included where the plugin
makes mypy report them, e.g. `call-arg` for an unknown `replace` keyword). The stubs'
`Static` bound makes plain mypy report `type-var` on some misuse too; that
error is ignored on those lines (`# type: ignore[type-var]` does not cover the plugin's
code, so the plugin's error still shows).
"""

from __future__ import annotations

from test_plugin_support import Project, project, warm_cache  # noqa: F401

PLUGIN_CODES = ("jaxdc-static", "jaxdc-data", "jaxdc-any", "call-arg", "arg-type")

# Static fields that must be rejected, in every spelling and decorator form.
STATIC_MISUSE = """
import dataclasses
from collections import deque
from typing import Optional, TypedDict, Union

import jax
import numpy as np
from jaxdc import PyTreeNode, Static, field, pytree_dataclass, static_field
import jaxdc as jdc


@dataclasses.dataclass
class Settings:
    lr: float


@dataclasses.dataclass(frozen=True)
class Holder:
    table: jax.Array


class Tag:
    def __eq__(self, other: object) -> bool:
        return True


class Row(TypedDict):
    a: int


@pytree_dataclass
class Bare:
    a: Static[list[int]]  # type: ignore[type-var]  # E: jaxdc-static
    b: Static[jax.Array]  # E: jaxdc-static
    c: Static[np.ndarray]  # type: ignore[type-var]  # E: jaxdc-static
    d: Static[Settings]  # E: jaxdc-static
    e: Static[Tag]  # E: jaxdc-static
    f: Static[Holder]  # E: jaxdc-static
    g: Static[tuple[int, list[str]]]  # E: jaxdc-static
    h: Static[Optional[dict[str, int]]]  # type: ignore[type-var]  # E: jaxdc-static
    i: Static[Union[int, set[int]]]  # type: ignore[type-var]  # E: jaxdc-static
    j: jdc.Static[bytearray]  # type: ignore[type-var]  # E: jaxdc-static
    k: Static[deque[int]]  # type: ignore[type-var]  # E: jaxdc-static
    m: Static[Row]  # E: jaxdc-static


@pytree_dataclass(kw_only=True)
class CallForm:
    a: list[int] = field(static=True)  # E: jaxdc-static
    b: dict[str, int] = field(metadata={"static": True})  # E: jaxdc-static
    c: jax.Array = static_field()  # E: jaxdc-static
    d: Static[jax.Array] = field(pytree=False, default_factory=lambda: jax.numpy.zeros(1))


class Node(PyTreeNode, kw_only=True):
    a: Static[jax.Array]  # E: jaxdc-static
    b: set[int] = field(static=True)  # E: jaxdc-static
    ok: jax.Array


class Ignored(PyTreeNode):
    a: Static[jax.Array]  # type: ignore[jaxdc-static]
"""

# Data fields that must be rejected; and jaxdc-any only when configured.
DATA_MISUSE = """
from typing import Any, Callable, Optional

import jax
from jaxdc import PyTreeNode, pytree_dataclass


class Plain:
    pass


@pytree_dataclass
class Model:
    name: str  # E: jaxdc-data
    blob: bytes  # E: jaxdc-data
    fn: Callable[[int], int]  # E: jaxdc-data
    kind: type[int]  # E: jaxdc-data
    other: Plain  # E: jaxdc-data
    maybe: Optional[str]  # E: jaxdc-data
    names: list[str]  # E: jaxdc-data
    table: dict[str, Plain]  # E: jaxdc-data
    pair: tuple[jax.Array, str]  # E: jaxdc-data
    loose: Any


class Sub(PyTreeNode):
    label: str  # E: jaxdc-data
    weights: jax.Array
"""

# Correct code: hashable statics, array-like data, excluded fields, sanctioned mutation,
# replace with known keywords. Not a single error is allowed.
CORRECT = """
import dataclasses
import enum
from collections.abc import Mapping, Sequence
from typing import Any, Callable, ClassVar, Generic, Literal, NamedTuple, Optional, TypeVar

import jax
import jax.numpy as jnp
import numpy as np
from jax.typing import ArrayLike
from jaxtyping import Array, Float

import jaxdc
from jaxdc import PyTreeNode, Static, field, pytree_dataclass, static_field

T = TypeVar("T")


class Mode(enum.Enum):
    A = 1


class Point(NamedTuple):
    x: int
    y: int


@dataclasses.dataclass(frozen=True)
class Config:
    depth: int
    names: tuple[str, ...]


class Keyed:
    def __eq__(self, other: object) -> bool:
        return True

    def __hash__(self) -> int:
        return 0


@pytree_dataclass
class Leafy:
    w: jax.Array
    b: Float[Array, "n"]
    n: np.ndarray
    s: np.float32
    i: int
    f: float
    c: complex
    flag: bool
    maybe: Optional[jax.Array]
    many: list[jax.Array]
    tup: tuple[jax.Array, ...]
    named: dict[str, jax.Array]
    seq: Sequence[jax.Array]
    mapping: Mapping[str, np.ndarray]
    like: ArrayLike
    anything: Any


@pytree_dataclass(kw_only=True)
class Statics:
    a: Static[int]
    b: Static[str]
    c: Static[type[int]]
    d: Static[Callable[[int], int]]
    e: Static[Literal["x", "y"]]
    f: Static[Mode]
    g: Static[None]
    h: Static[frozenset[int]]
    i: Static[tuple[int, ...]]
    j: Static[Config]
    k: Static[Point]
    m: Static[Keyed]
    n: Static[Optional[tuple[str, int]]]
    o: tuple[int, ...] = field(static=True, default=(1,))
    p: str = static_field(default="p")


@pytree_dataclass
class Custom:
    w: jax.Array
    name: Static[str]

    def __init__(self, n: int, name: str = "c") -> None:
        jaxdc.attr(self, lambda s: s.w).set(jnp.zeros(n))
        jaxdc.attr(self, lambda s: s.name).set(name)


class Tree(PyTreeNode, Generic[T]):
    child: Custom
    value: T
    label: Static[str] = "tree"
    scratch: dict[str, int] = field(pytree=False, default_factory=dict)
    count: int = field(init=False, default=0)
    registry: ClassVar[list[str]] = []


custom = Custom(3)
with jaxdc.copy_and_mutate(custom) as edited:
    jaxdc.attr(edited, lambda c: c.w).set(jnp.ones(3))
moved = jaxdc.replace(custom, w=jnp.ones(3), name="d")
tree = Tree(child=jaxdc.replace(moved, w=jnp.zeros(2)), value=1).replace(value=2, label="t")
"""

REPLACE_MISUSE = """
import jax
import jax.numpy as jnp
import jaxdc
from jaxdc import PyTreeNode, Static, field, pytree_dataclass


@pytree_dataclass
class State:
    params: jax.Array
    step: Static[int] = 0
    cache: int = field(init=False, default=0)


class Node(PyTreeNode):
    value: jax.Array


state = State(jnp.zeros(3))
jaxdc.replace(state, parms=jnp.ones(3))  # E: call-arg
jaxdc.replace(state, step="one")  # E: arg-type
jaxdc.replace(state, cache=1)  # E: call-arg
Node(jnp.zeros(2)).replace(valu=jnp.ones(2))  # E: call-arg
Node(jnp.zeros(2)).replace(value="x")  # E: arg-type
"""

MUTATION_MISUSE = """
import jax
import jax.numpy as jnp
import jaxdc
from jaxdc import Static, field, pytree_dataclass


@pytree_dataclass
class Inner:
    x: jax.Array


@pytree_dataclass
class Outer:
    inner: Inner
    mean: jax.Array = field(init=False)
    cache: int = field(pytree=False, init=False, default=0)
    name: Static[str] = "o"

    def __init__(self, inner: Inner) -> None:
        jaxdc.attr(self, lambda s: s.inner).set(inner)
        jaxdc.attr(self, lambda s: s.mean).set(inner.x.mean())
        jaxdc.attr(self, lambda s: s.cache).set(1)  # E: jaxdc-mutation
        jaxdc.attr(self, lambda s: s.inner.x + 1).set(inner.x)  # E: jaxdc-mutation

    def rename(self, name: str) -> None:
        jaxdc.attr(self, lambda s: s.name).set(name)  # E: jaxdc-mutation


def edit(obj: Outer) -> Outer:
    with jaxdc.copy_and_mutate(obj) as new:
        jaxdc.attr(new, lambda n: n.inner.x).set(jnp.ones(2))
        jaxdc.attr(new.inner, lambda i: i.x).set(jnp.ones(2))
        if new.name:
            jaxdc.attr(new, lambda n: n.name).set("edited")
        jaxdc.attr(obj, lambda n: n.name).set("original")  # E: jaxdc-mutation
    jaxdc.attr(new, lambda n: n.name).set("too late")  # E: jaxdc-mutation
    return new


class Plain:
    x: int = 0


jaxdc.attr(Plain(), lambda p: p.x).set(1)
"""

# Unusual input: unresolved names, non-literal field() flags, self references, stacked
# decorators, wrong calls. Only the listed diagnostics, and never an internal error.
UNUSUAL = """
import jax
import jaxdc
from jaxdc import PyTreeNode, Static, field, pytree_dataclass, static_field
from nowhere import Missing  # type: ignore[import-not-found]

flag = True


@pytree_dataclass
class Odd:
    a: Static
    b: Static["Undefined"]  # E: name-defined
    c: Static[Missing]
    d: Missing
    e: list[int] = field(static=flag, default_factory=list)
    f: int = field(pytree=flag, default=0)
    g: Static[int] = static_field(default=1)
    h: "jaxdc.Static[dict[str, int]]" = field(default_factory=dict)  # type: ignore[type-var]  # E: jaxdc-static


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


jaxdc.replace()  # E: call-arg
jaxdc.replace(1, x=2)
jaxdc.attr()  # E: call-arg
jaxdc.attr(Empty(), 3).set(1)  # E: jaxdc-mutation  # E: arg-type
"""

JIT_MISUSE = """
import jax
import jaxdc
from jaxdc import Static
from jaxdc import Static as S


@jaxdc.jit
def f(x: jax.Array, sizes: Static[list[int]], n: Static[int], arr: S[jax.Array]) -> jax.Array:  # type: ignore[type-var]  # E: jaxdc-static  # E: jaxdc-static
    return x


@jaxdc.jit
def g(x: jax.Array, n: Static[int], names: Static[tuple[str, ...]]) -> jax.Array:
    return x


@jaxdc.jit(donate_argnums=0)
def h(x: jax.Array, table: Static[dict[str, int]]) -> jax.Array:  # type: ignore[type-var]  # E: jaxdc-static
    return x


class Model:
    @jaxdc.jit(static_argnames="n")
    def apply(self, x: jax.Array, n: int, seen: Static[set[int]]) -> jax.Array:  # type: ignore[type-var]  # E: jaxdc-static
        return x


jaxdc.jit(g)
"""


def test_static_misuse_is_reported_for_every_spelling_and_form(project: Project) -> None:
    project.write({"static_misuse.py": STATIC_MISUSE})
    run = project.mypy()
    assert run.diagnostics == project.expected(), run.stdout


def test_non_array_data_is_reported(project: Project) -> None:
    project.write({"data_misuse.py": DATA_MISUSE})
    run = project.mypy()
    assert run.diagnostics == project.expected(), run.stdout


def test_correct_code_has_no_errors(project: Project) -> None:
    project.write({"correct.py": CORRECT})
    run = project.mypy()
    assert run.exit_code == 0, run.stdout + run.stderr
    assert run.errors == []


def test_replace_keywords_and_types_are_checked(project: Project) -> None:
    project.write({"replace_misuse.py": REPLACE_MISUSE})
    run = project.mypy()
    assert run.diagnostics == project.expected(), run.stdout


def test_attr_set_only_where_the_runtime_allows_assignment(project: Project) -> None:
    project.write({"mutation_misuse.py": MUTATION_MISUSE})
    run = project.mypy()
    assert run.diagnostics == project.expected(), run.stdout
    assert run.messages("jaxdc-mutation")[2] == (
        "cannot assign to field 'name' of 'Outer': jaxdc instances are frozen, like JAX "
        "arrays; fields can be set only on `self` in __init__/__post_init__ or inside `with "
        "jaxdc.copy_and_mutate(...)`. Fix: jaxdc.replace(obj, name=...), or `with "
        "jaxdc.copy_and_mutate(obj) as new: new.name = ...` (spelled `jaxdc.attr(new, lambda "
        "n: n.name).set(...)` where type checkers must accept it)."
    )


def test_unusual_input_gives_plain_diagnostics_not_crashes(project: Project) -> None:
    project.write({"unusual.py": UNUSUAL})
    run = project.mypy("--show-traceback", ".")
    assert "INTERNAL ERROR" not in run.stdout + run.stderr
    assert run.diagnostics == project.expected(), run.stdout


def test_jit_static_parameters_must_be_hashable(project: Project) -> None:
    project.write({"jit_misuse.py": JIT_MISUSE})
    run = project.mypy()
    assert run.diagnostics == project.expected(), run.stdout
    assert [m.split(":")[0] for m in run.messages("jaxdc-static")] == [
        "static parameter 'sizes' of jitted function 'f' has unhashable type 'list[int]'",
        "static parameter 'arr' of jitted function 'f' has unhashable type 'jax.Array'",
        "static parameter 'table' of jitted function 'h' has unhashable type 'dict[str, int]'",
        "static parameter 'seen' of jitted function 'apply' has unhashable type 'set[int]'",
    ]


def test_messages_name_class_field_part_reason_and_fix(project: Project) -> None:
    project.write(
        {
            "wording.py": """
            import dataclasses
            import jax
            from jaxdc import Static, pytree_dataclass

            @dataclasses.dataclass(frozen=True)
            class Holder:
                table: jax.Array

            @pytree_dataclass
            class Model:
                pair: Static[tuple[int, list[str]]]
                held: Static[Holder]
                name: str
            """
        }
    )
    run = project.mypy()
    assert run.messages("jaxdc-static") == [
        "static field 'pair' of class 'Model' has unhashable type 'list[str]': 'list' is "
        "mutable and not hashable. Static values are part of the treedef and used as jit "
        "cache keys, so they must be hashable. Fix: use an immutable type such as "
        "tuple[...] or frozenset[...], or make 'pair' a data field.",
        "static field 'held' of class 'Model' has unhashable type 'Holder': frozen dataclass "
        "'Holder' has field 'table' of unhashable type 'jax.Array' (arrays are not "
        "hashable). Static values are part of the treedef and used as jit cache keys, so "
        "they must be hashable. Fix: make 'held' a data field, or give 'Holder.table' a "
        "hashable type.",
    ]
    assert run.messages("jaxdc-data") == [
        "data field 'name' of class 'Model' has type 'str', which is not array-like: 'str' "
        "is not an array type. Data fields are pytree children that JAX traces as arrays. "
        "Fix: declare it Static[str] if it is configuration."
    ]


def test_dataclass_stacked_with_jaxdc_is_reported_in_both_orders(project: Project) -> None:
    """The runtime rejects both (one with jaxdc's message, one with the stdlib's)."""
    project.write(
        {
            "stacked.py": """
            import dataclasses

            import jax
            from jaxdc import PyTreeNode, pytree_dataclass


            @pytree_dataclass
            @dataclasses.dataclass(frozen=True)  # E: jaxdc-decorator
            class Under:
                x: jax.Array


            @dataclasses.dataclass(frozen=True)  # E: jaxdc-decorator
            @pytree_dataclass
            class Over:
                x: jax.Array


            @dataclasses.dataclass(frozen=True)  # E: jaxdc-decorator
            class Node(PyTreeNode):
                x: jax.Array
            """
        }
    )
    run = project.mypy()
    assert run.diagnostics == project.expected(), run.stdout
