"""Generated modules of unusual but valid code around jaxdc classes (no tests here).

The plugin fuzz test (`test_plugin_fuzz.py`) type-checks these with mypy + jaxdc_mypy and
the runtime fuzz imports them. Each module is a random (seeded, so reproducible) mix of
fragments; each fragment is a few lines of code that users do write — string annotations,
aliases of `Static`, `ClassVar`/`InitVar`/`KW_ONLY`/`Final`, NewTypes, Protocols,
TypedDicts, recursive aliases and NamedTuples, bounded generics, classes inside functions,
`TYPE_CHECKING` imports, jit static parameters, malformed annotations — with the
diagnostics mypy + plugin must report written next to them as `# E: mypy-plugin <code>`
comments (everything else must be clean). `$n` makes a fragment's names unique in its module;
`$prev` is the previous module of the batch (for cross-module references).
"""

from __future__ import annotations

import random
import string
from dataclasses import dataclass

HEADER = """\
import dataclasses
import enum
import typing
from collections.abc import Callable, Hashable
from dataclasses import KW_ONLY, InitVar
from typing import (
    TYPE_CHECKING,
    Annotated,
    Any,
    ClassVar,
    Final,
    Generic,
    Literal,
    NamedTuple,
    NewType,
    Optional,
    Protocol,
    TypeVar,
    Union,
)

import jax
import jax.numpy as jnp
from typing_extensions import TypeAlias, TypedDict

import jaxdc
import jaxdc as jdc
from jaxdc import PyTreeNode, Static, field, pytree_dataclass, static_field
from jaxdc._static import STATIC_MARKER
"""

# Each entry: a name (shown when a module fails) and the fragment's source.
FRAGMENTS: dict[str, str] = {
    "string_annotations": """
@pytree_dataclass
class Quoted$n:
    w: "jax.Array"
    k: "Static[int]"
    j: Static["str"]
    o: "Optional[jax.Array]" = None
    nested: "Optional[Quoted$n]" = None
""",
    "static_alias_bare": """
S$n = jdc.Static


@pytree_dataclass
class BareAlias$n:
    w: jax.Array
    k: S$n[int]
    names: S$n[tuple[str, ...]] = ()
""",
    "static_typealias": """
Name$n: TypeAlias = jdc.Static[str]
Sizes$n: TypeAlias = "Static[tuple[int, ...]]"


class NamedAlias$n(PyTreeNode):
    name: Name$n
    sizes: Sizes$n
    w: jax.Array
""",
    "static_generic_alias": """
H$n = TypeVar("H$n", bound=Hashable)
P$n = jdc.Static[H$n]


@pytree_dataclass(kw_only=True)
class GenericAlias$n:
    k: P$n[int]
    label: P$n[str] = "a"
    w: jax.Array
""",
    "static_without_arguments": """
@pytree_dataclass
class NoArgs$n:
    w: jax.Array
    anything: Static = None
    more: jdc.Static = "x"
""",
    "dataclass_pseudo_fields": """
@pytree_dataclass
class Pseudo$n:
    count: ClassVar[int] = 0
    w: jax.Array
    scale: InitVar[float]
    _: KW_ONLY
    k: Static[int] = 2
    limit: Final = 3

    def __post_init__(self, scale: float) -> None:
        pass


Pseudo$n(jnp.zeros(2), 1.0, k=3)
""",
    "kw_only_marker_node": """
class KwNode$n(PyTreeNode):
    w: jax.Array
    _: dataclasses.KW_ONLY
    tag: Static[str] = "t"
    b: Optional[jax.Array] = None
""",
    "newtypes": """
UserId$n = NewType("UserId$n", int)
ListId$n = NewType("ListId$n", list[int])
Arr$n = NewType("Arr$n", jax.Array)


@pytree_dataclass
class NewTypes$n:
    uid: Static[UserId$n]
    w: Arr$n
    bad: Static[ListId$n]  # type: ignore[type-var]  # E: mypy-plugin jaxdc-static
""",
    "protocols": """
class Named$n(Protocol):
    @property
    def name(self) -> str: ...


class HasArray$n(Protocol):
    def __jax_array__(self) -> jax.Array: ...


P$n = TypeVar("P$n", bound=Named$n)


@pytree_dataclass
class Protocols$n:
    name: Static[str]
    w: jax.Array


def use_protocols$n(p: Named$n, q: P$n) -> P$n:
    return q


use_protocols$n(Protocols$n("a", jnp.zeros(1)), Protocols$n("b", jnp.ones(1)))
""",
    "typeddict_fields": """
class Opt$n(TypedDict):
    w: jax.Array
    b: jax.Array


class Row$n(TypedDict, total=False):
    a: int


@pytree_dataclass
class TypedDicts$n:
    state: Opt$n
    row: Static[Row$n]  # E: mypy-plugin jaxdc-static
""",
    "recursive_data_alias": """
Params$n: TypeAlias = Union[jax.Array, list["Params$n"], dict[str, "Params$n"]]


@pytree_dataclass
class RecursiveData$n:
    params: Params$n
    more: Optional[Params$n] = None
""",
    "recursive_static_alias": """
Shape$n: TypeAlias = Union[int, tuple["Shape$n", ...]]


class RecursiveStatic$n(PyTreeNode):
    shape: Static[Shape$n]
    w: jax.Array
""",
    "recursive_unhashable_alias": """
Tree$n: TypeAlias = Union[int, list["Tree$n"]]


@pytree_dataclass
class RecursiveBad$n:
    tree: Static[Tree$n]  # type: ignore[type-var]  # E: mypy-plugin jaxdc-static
""",
    "recursive_namedtuple": """
class Branch$n(NamedTuple):
    value: int
    children: tuple["Branch$n", ...]


class ArrayBranch$n(NamedTuple):
    w: jax.Array
    children: tuple["ArrayBranch$n", ...] = ()


@pytree_dataclass
class Trees$n:
    shape: Static[Branch$n]
    weights: ArrayBranch$n
""",
    "recursive_typeddict_data": """
class Node$n(TypedDict):
    w: jax.Array
    children: list["Node$n"]


@pytree_dataclass
class TypedTree$n:
    root: Node$n
""",
    "recursive_typeddict_static": """
class Config$n(TypedDict):
    depth: int
    sub: "Optional[Config$n]"


@pytree_dataclass
class StaticTypedTree$n:
    config: Static[Config$n]  # E: mypy-plugin jaxdc-static
    w: jax.Array
""",
    "bounded_generics": """
K$n = TypeVar("K$n", bound=Hashable)
A$n = TypeVar("A$n", bound=jax.Array)
V$n = TypeVar("V$n", int, str)


class Boxed$n(PyTreeNode, Generic[K$n, A$n]):
    key: Static[K$n]
    value: A$n


@pytree_dataclass
class Valued$n(Generic[V$n]):
    v: Static[V$n]
    w: jax.Array


class IntBox$n(Boxed$n[int, jax.Array]):
    extra: jax.Array


def make_box$n(k: K$n, v: A$n) -> Boxed$n[K$n, A$n]:
    return Boxed$n(k, v)
""",
    "class_in_function": """
def factory$n(scale: float) -> Any:
    @pytree_dataclass
    class Local$n:
        w: jax.Array
        k: Static[int] = 1

    class LocalNode$n(PyTreeNode):
        inner: Local$n
        name: Static[str] = "n"

    return LocalNode$n(Local$n(jnp.ones(2) * scale))


def nested_factory$n() -> None:
    def inner() -> None:
        @jdc.pytree_dataclass(kw_only=True)
        class Deep$n:
            w: jax.Array
            bad: Static[list[int]]  # type: ignore[type-var]  # E: mypy-plugin jaxdc-static
""",
    "type_checking_imports": """
if TYPE_CHECKING:
    from collections.abc import Sequence as Seq$n

    from typing_extensions import Self


@pytree_dataclass
class Checked$n:
    w: jax.Array
    names: Static["tuple[str, ...]"] = ()
    seq: "Optional[Seq$n[jax.Array]]" = None

    def again(self) -> "Self":
        return self
""",
    "type_checking_class": """
if TYPE_CHECKING:

    @pytree_dataclass
    class OnlyTyped$n:
        w: jax.Array
        k: Static[int]

else:
    OnlyTyped$n = None
""",
    "malformed_annotations": """
@pytree_dataclass
class Malformed$n:
    w: jax.Array
    a: "Static[int"  # E: mypy-plugin valid-type
    b: Static[1]  # E: mypy-plugin valid-type
    c: Static[int, str]  # E: mypy-plugin type-arg
""",
    "undefined_names": """
@pytree_dataclass
class Undefined$n:
    w: jax.Array
    a: Static["Nowhere$n"]  # E: mypy-plugin name-defined
    b: Nowhere$n  # E: mypy-plugin name-defined
""",
    "jit_static_parameters": """
Dims$n: TypeAlias = Union[int, tuple["Dims$n", ...]]


class Leaf$n(NamedTuple):
    size: int
    rest: Optional["Leaf$n"]


@jaxdc.jit
def step$n(
    x: jax.Array, dims: Static[Dims$n], leaf: Static[Leaf$n], n: jdc.Static[int] = 1
) -> jax.Array:
    return x


@jaxdc.jit(donate_argnums=0)
def bad_step$n(
    x: jax.Array,
    table: Static[dict[str, int]],  # type: ignore[type-var]  # E: mypy-plugin jaxdc-static
) -> jax.Array:
    return x
""",
    "decorator_forms": """
@jaxdc.pytree_dataclass
class Plain$n:
    w: jax.Array


@jdc.pytree_dataclass(slots=True, order=False)
class Slotted$n:
    w: jax.Array
    k: Static[int] = 0


@pytree_dataclass()
class Called$n:
    w: jax.Array


class Sub$n(Plain$n):
    pass


class Derived$n(PyTreeNode, kw_only=True):
    parent: Plain$n
    k: Static[str] = "d"
""",
    "field_specifiers": """
@pytree_dataclass
class Fields$n:
    w: jax.Array
    a: int = field(static=True, default=1)
    b: str = static_field(default="b")
    c: tuple[int, ...] = field(metadata={"static": True}, default=())
    d: float = field(pytree=False, default=0.5)
    e: list[jax.Array] = field(default_factory=list)
    f: list[int] = field(static=True, default_factory=list)  # E: mypy-plugin jaxdc-static
""",
    "static_unions": """
@pytree_dataclass
class Unions$n:
    w: jax.Array
    a: Static[Optional[int]] = None
    b: Static[Union[int, str]] = 0
    c: Static[Literal["x", "y"]] = "x"
    d: Static[type[int]] = int
    e: Static[Callable[[int], int]] = abs
""",
    "enums_and_frozen": """
class Mode$n(enum.Enum):
    A = 1
    B = 2


@dataclasses.dataclass(frozen=True)
class Cfg$n:
    depth: int
    mode: Mode$n


@dataclasses.dataclass(frozen=True)
class BadCfg$n:
    table: jax.Array


@pytree_dataclass
class Configured$n:
    cfg: Static[Cfg$n]
    mode: Static[Mode$n]
    w: jax.Array
    bad: Static[BadCfg$n]  # E: mypy-plugin jaxdc-static
""",
    "self_reference": """
class Chain$n(PyTreeNode):
    w: jax.Array
    next: "Optional[Chain$n]" = None
    children: "tuple[Chain$n, ...]" = ()
    tag: "Static[Optional[str]]" = None


def walk$n(c: Chain$n) -> int:
    return 1 + (walk$n(c.next) if c.next is not None else 0)
""",
    "methods_and_properties": """
@pytree_dataclass
class Methods$n:
    w: jax.Array
    k: Static[int] = 1

    @property
    def doubled(self) -> jax.Array:
        return self.w * 2

    @classmethod
    def zeros(cls, k: int) -> "Methods$n":
        return cls(jnp.zeros(k), k)

    @staticmethod
    def helper() -> int:
        return 1

    @typing.overload
    def get(self, i: int) -> jax.Array: ...
    @typing.overload
    def get(self, i: str) -> int: ...
    def get(self, i: Union[int, str]) -> Union[jax.Array, int]:
        return self.w[i] if isinstance(i, int) else self.k

    class Inner$n:
        value: int = 0
""",
    "replace_and_edits": """
@pytree_dataclass
class Editable$n:
    w: jax.Array
    k: Static[int] = 1


def edit$n(e: Editable$n, changes: dict[str, Any]) -> Editable$n:
    e = jdc.replace(e, w=e.w + 1)
    e = jdc.replace(e, **changes)
    with jdc.copy_and_mutate(e) as new:
        jdc.attr(new, lambda s: s.w).set(jnp.zeros(1))
    jdc.replace(e, typo=1)  # E: mypy-plugin call-arg
    return new
""",
    "annotated_metadata": """
@pytree_dataclass
class AnnotatedFields$n:
    w: Annotated[jax.Array, "weights"]
    a: Annotated[str, STATIC_MARKER] = "a"
    b: Annotated[jdc.Static[str], "doc"] = "b"
    c: jdc.Static[Annotated[str, "doc"]] = "c"
""",
    "optional_static": """
@pytree_dataclass
class OptionalStatic$n:
    w: jax.Array
    n: jdc.Static[int] | None = None
    m: Optional[jdc.Static[str]] = None
    o: Union[Static[str], None] = None
""",
    "stdlib_metadata": """
@pytree_dataclass
class StdlibField$n:
    w: jax.Array
    bad: set[int] = dataclasses.field(metadata={"static": True})  # E: mypy-plugin jaxdc-static
    name: str = dataclasses.field(default="x", metadata={"static": True})
""",
    "cross_module": """
from $prev import *  # noqa: F403


class Reexported$n(PyTreeNode):
    w: jax.Array
    k: Static[int] = 0
""",
}

# A module that does not parse: mypy must report it (a blocking error), never crash.
SYNTAX_ERROR = """
@pytree_dataclass
class Broken:
    w: jax.Array
    k: Static[int
"""


@dataclass(frozen=True)
class FuzzModule:
    name: str
    fragments: tuple[str, ...]
    source: str


def generate(count: int, seed: int = 0, *, both_forms: bool = True) -> list[FuzzModule]:
    """`count` modules `fuzz_000`, `fuzz_001`, ...: the first ones hold one fragment each
    (so a failure names its fragment), every fragment without and with `from __future__
    import annotations` (`both_forms`; else alternating); the rest are random mixes of two
    to five fragments."""
    rng = random.Random(seed)
    names = list(FRAGMENTS)
    singles = [(name, False) for name in names] + [(name, True) for name in names]
    if not both_forms:
        singles = [(name, i % 2 == 1) for i, name in enumerate(names)]
    modules = []
    for index in range(count):
        if index < len(singles):
            chosen = [singles[index][0]]
            future = singles[index][1]
        else:
            chosen = rng.sample(names, rng.randint(2, 5))
            future = rng.random() < 0.5
        if index == 0 and "cross_module" in chosen:  # nothing before it to import
            chosen.remove("cross_module")
        parts = ["from __future__ import annotations\n" if future else "", HEADER]
        for k, fragment in enumerate(chosen):
            template = string.Template(FRAGMENTS[fragment])
            parts.append(template.substitute(n=f"_{index}_{k}", prev=f"fuzz_{index - 1:03d}"))
        modules.append(FuzzModule(f"fuzz_{index:03d}", tuple(chosen), "\n".join(parts)))
    return modules
