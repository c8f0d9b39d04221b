"""Bad input to every public function: a documented exception naming the class and the
field (or parameter, or path), and the input object left as it was.

Each case is an operation (construct, replace, copy_and_mutate, from_state_dict, jit,
hash, assignment, ...) applied to a model and one of its fields with one bad value. The
documented exceptions are listed in docs/runtime-toolkit.md ("Errors"). `make test` runs
every operation on every field kind with the first bad values of each pool;
`make test-full` (JAXDC_TEST_FULL=1) every combination.
"""

from __future__ import annotations

import dataclasses
import itertools
import os
from collections.abc import Callable, Iterator
from dataclasses import InitVar, dataclass
from typing import Any

import jax
import jax.numpy as jnp
import jaxdc as jdc
import numpy as np
import pytest

FULL = os.environ.get("JAXDC_TEST_FULL") == "1"


@jdc.pytree_dataclass
class Inner:
    v: jax.Array
    tag: jdc.Static[str] = "inner"


@jdc.pytree_dataclass
class Model:
    w: jax.Array
    inner: Inner
    layers: list
    size: jdc.Static[int]
    names: tuple[str, ...] = jdc.field(static=True, default=())
    cache: int = jdc.field(pytree=False, default=0)
    scale: InitVar[float] = 1.0

    def __post_init__(self, scale: float) -> None:
        pass


class Node(jdc.PyTreeNode, kw_only=True):
    w: jax.Array
    mode: jdc.Static[str] = "train"
    derived: jax.Array | None = jdc.field(init=False, pytree=True, default=None)


def _model() -> Model:
    return Model(jnp.ones(3), Inner(jnp.zeros(2)), [jnp.ones(1)], 4, ("a",))


@jdc.jit
def step(x: jax.Array, n: jdc.Static[Any]) -> jax.Array:
    return x


def _node() -> Node:
    return Node(w=jnp.ones(2))


MAKERS: dict[str, Callable[[], Any]] = {"Model": _model, "Node": _node}

# Values that cannot be static (unhashable), and leaves a state dict must not hold where
# the target has an array.
UNHASHABLE = [[1, 2], {"a": 1}, np.zeros(2), jnp.zeros(2), {1, 2}, bytearray(b"x"), (1, [2])]
WRONG_LEAVES = ["x", None, {"a": 1}, [1.0], np.zeros(7), np.zeros((), np.int8)]


def _snapshot(obj: Any) -> tuple[Any, ...]:
    """What must not change: the tree structure, each leaf (by identity), every attribute."""
    leaves, treedef = jax.tree.flatten(obj)
    return (
        treedef,
        [id(leaf) for leaf in leaves],
        dict(vars(obj)) if hasattr(obj, "__dict__") else None,
    )


@dataclass(frozen=True)
class Case:
    operation: str
    model: str  # a key of MAKERS (the input object), or what the operation is given
    field: str
    value: Any
    run: Callable[[Any], object]
    expected: type[BaseException] | tuple[type[BaseException], ...] = TypeError
    must_name: tuple[str, ...] = ()  # default: the model and the field

    @property
    def id(self) -> str:
        return f"{self.operation}-{self.model}.{self.field}-{type(self.value).__name__}"

    @property
    def names(self) -> tuple[str, ...]:
        return self.must_name or (f"'{self.model}'", f"'{self.field}'")


def _fields(model: str, kind: str) -> list[str]:
    spec = type(MAKERS[model]()).__jaxdc_spec__
    return [f.name for f in spec.fields if f.kind == kind]


def _first(values: list[Any], n: int) -> list[Any]:
    return values if FULL else values[:n]


def _mutate(obj: Any, name: str, value: Any) -> None:
    with jdc.copy_and_mutate(obj) as new:
        setattr(new, name, value)


def _construct(obj: Any, name: str, value: Any) -> Any:
    values = {f.name: getattr(obj, f.name) for f in dataclasses.fields(obj) if f.init}
    return type(obj)(**{**values, name: value})


def _restore(obj: Any, name: str, value: Any) -> Any:
    state = jdc.to_state_dict(obj)
    state[name] = value
    return jdc.from_state_dict(obj, state)


def _static_cases() -> Iterator[Case]:
    """Unhashable values for static fields: construction, replace, copy_and_mutate."""
    for model in MAKERS:
        for name, value in itertools.product(_fields(model, "static"), _first(UNHASHABLE, 3)):
            yield Case(
                "replace", model, name, value, lambda o, n=name, v=value: jdc.replace(o, **{n: v})
            )
            yield Case(
                "construct", model, name, value, lambda o, n=name, v=value: _construct(o, n, v)
            )
            yield Case(
                "copy_and_mutate", model, name, value, lambda o, n=name, v=value: _mutate(o, n, v)
            )


def _leaf_cases() -> Iterator[Case]:
    """Data fields given what cannot replace their value: from_state_dict, copy_and_mutate."""
    for model in MAKERS:
        for name, value in itertools.product(_fields(model, "data"), _first(WRONG_LEAVES, 2)):
            if getattr(MAKERS[model](), name) is None:
                continue  # a None leaf takes None only: another pool
            yield Case(
                "from_state_dict",
                model,
                name,
                value,
                lambda o, n=name, v=value: _restore(o, n, v),
                ValueError,
            )
            yield Case(
                "copy_and_mutate(validate=True)",
                model,
                name,
                value,
                lambda o, n=name, v=value: _mutate(o, n, v),
                (TypeError, ValueError),
            )


def _refusal_cases() -> Iterator[Case]:
    """Fields that cannot be set this way, names that are not fields, hashing arrays."""
    for model in MAKERS:
        fields = dataclasses.fields(MAKERS[model]())
        for name in _fields(model, "excluded"):
            yield Case(
                "replace excluded",
                model,
                name,
                1,
                lambda o, n=name: jdc.replace(o, **{n: 1}),
                ValueError,
            )
        for name in ["typo", "_private"]:
            yield Case(
                "replace unknown", model, name, 1, lambda o, n=name: jdc.replace(o, **{n: 1})
            )
            yield Case(
                "copy_and_mutate unknown",
                model,
                name,
                1,
                lambda o, n=name: _mutate(o, n, 1),
                (AttributeError, TypeError),
            )
        for name in [f.name for f in fields]:
            frozen = dataclasses.FrozenInstanceError
            yield Case("assign", model, name, 1, lambda o, n=name: setattr(o, n, 1), frozen)
            yield Case("delete", model, name, 1, lambda o, n=name: delattr(o, n), frozen)
        yield Case("hash", model, "w", None, hash)


def _other_cases() -> Iterator[Case]:
    """jit static arguments, arguments that are not jaxdc instances, bad declarations."""
    for value in _first(UNHASHABLE, 2):
        yield Case(
            "jit static argument",
            "Model",
            "n",
            value,
            lambda o, v=value: step(o.w, v),
            must_name=("'step'", "'n'"),
        )
    for function in (jdc.to_state_dict, jdc.replace):
        yield Case(
            function.__name__,
            "Model",
            "(a dict)",
            {},
            lambda o, f=function: f({"w": o.w}),
            must_name=("'dict'",),
        )
    yield Case(
        "from_state_dict",
        "Model",
        "(a list)",
        [],
        lambda o: jdc.from_state_dict([o.w], {}),
        must_name=("'list'",),
    )
    yield Case(
        "copy_and_mutate",
        "Model",
        "(an int)",
        3,
        lambda o: _mutate(3, "w", 1),
        must_name=("'int'",),
    )
    yield Case(
        "field",
        "Model",
        "static",
        True,
        lambda o: jdc.field(static=True, pytree=False),
        must_name=("static=True", "pytree=False"),
    )
    yield Case(
        "pytree_dataclass",
        "Model",
        "nonsense",
        True,
        lambda o: jdc.pytree_dataclass(nonsense=True),
        must_name=("'nonsense'",),
    )


CASES = [*_static_cases(), *_leaf_cases(), *_refusal_cases(), *_other_cases()]


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_bad_input_raises_a_documented_error_naming_it_and_changes_nothing(case: Case) -> None:
    obj = MAKERS[case.model]()
    before = _snapshot(obj)
    with pytest.raises(case.expected) as info:
        case.run(obj)
    message = str(info.value)
    for needle in case.names:
        assert needle in message, f"{needle} not in: {message}"
    assert _snapshot(obj) == before


# --- the wrong kind of object, to every public function ----------------------------------
# Each public function of jaxdc and of jaxdc.compat.* given an object of the wrong kind (a
# class where an instance is needed, an instance where a class is, a non-callable, an object
# that is not a jaxdc instance, ...) raises a TypeError naming the function, what it needs
# and the object it got (never an AttributeError from inside jaxdc).

from jaxdc.compat import (  # noqa: E402
    chex_dataclass,
    flax_struct,
    jax_dataclasses as jdc_compat,
)


@dataclass(frozen=True)
class WrongKind:
    name: str  # the public name, as `test_every_public_name_is_covered` finds it
    run: Callable[[], object]
    needs: str  # what the message says is needed
    got: str  # how the message names the object


@dataclasses.dataclass
class _Plain:
    w: int


_INSTANCE = "an instance of a jaxdc pytree dataclass"
_CLASS_FIX = "Fix: pass an instance of the class (such as Model(...)), not the class itself"
_NOT_A_CLASS = "decorates classes"


def _wrong_kinds() -> list[WrongKind]:
    m = _model()
    w = WrongKind
    cases = [
        w("jit", lambda: jdc.jit(3), "needs a function", "got an instance of 'int' (3)"),
        w("jit", lambda: jdc.jit(m), "needs a function", "got an instance of 'Model'"),
        w("jit", lambda: jdc.jit(donate_argnums=0)("f"), "needs a function", "'str' ('f')"),
        w("jit", lambda: jdc.jit(step, static_argnames=3), "static_argnames=...", "'int' (3)"),
        w("jit", lambda: jdc.jit(step, donate_argnums="x"), "donate_argnums=...", "('x')"),
        w("pytree_dataclass", lambda: jdc.pytree_dataclass(m), _NOT_A_CLASS, "of 'Model'"),
        w("pytree_dataclass", lambda: jdc.pytree_dataclass()(3), _NOT_A_CLASS, "'int' (3)"),
        w("pytree_dataclass", lambda: jdc.pytree_dataclass(step), _NOT_A_CLASS, "'step'"),
        w("PytreeDataclassDecorator", lambda: jdc.PytreeDataclassDecorator(3), "mapping", "(3)"),
        w(
            "replace",
            lambda: jdc.replace(Model, w=1),
            _INSTANCE,
            f"the class 'Model'. {_CLASS_FIX}",
        ),
        w("replace", lambda: jdc.replace(None), _INSTANCE, "got None."),
        w("replace", lambda: jdc.replace(_Plain(1), w=2), _INSTANCE, "an instance of '_Plain'"),
        w("replace", lambda: jdc.replace(m.w), _INSTANCE, "got an array (f32[3])"),
        w("copy_and_mutate", lambda: jdc.copy_and_mutate(Model), _INSTANCE, _CLASS_FIX),
        w("copy_and_mutate", lambda: jdc.copy_and_mutate(None), _INSTANCE, "got None."),
        w("copy_and_mutate", lambda: jdc.copy_and_mutate(m, "yes"), "True or False", "('yes')"),
        w("attr", lambda: jdc.attr(Model, lambda o: o.w), _INSTANCE, _CLASS_FIX),
        w("attr", lambda: jdc.attr(_Plain(1), lambda o: o.w), _INSTANCE, "of '_Plain'"),
        w("attr", lambda: jdc.attr(m, 3), "attribute path", "got an instance of 'int' (3)"),
        w("to_state_dict", lambda: jdc.to_state_dict(Model), _INSTANCE, _CLASS_FIX),
        w("to_state_dict", lambda: jdc.to_state_dict(_Plain(1)), _INSTANCE, "of '_Plain'"),
        w("from_state_dict", lambda: jdc.from_state_dict(Model, {}), _INSTANCE, _CLASS_FIX),
        w("from_state_dict", lambda: jdc.from_state_dict(m, 3), "a state dict", "'int' (3)"),
        w("from_state_dict", lambda: jdc.from_state_dict(m, None), "a state dict", "got None"),
        w("dims", lambda: jdc.dims(Model), "check_shapes=True", _CLASS_FIX),
        w("dims", lambda: jdc.dims(_Plain(1)), "check_shapes=True", "of '_Plain'"),
        w("field", lambda: jdc.field(default_factory=3), "default_factory=...", "'int' (3)"),
        w("field", lambda: jdc.field(metadata=[1]), "metadata=...", "an instance of 'list'"),
        w("field", lambda: jdc.field(static="yes"), "static=...", "('yes')"),
        w("field", lambda: jdc.field(pytree=1), "pytree=...", "'int' (1)"),
        w(
            "static_field",
            lambda: jdc.static_field(default_factory=[]),
            "default_factory",
            "'list'",
        ),
        w("PyTreeNode", lambda: jdc.PyTreeNode.replace(3), _INSTANCE, "'int' (3)"),
        w(
            "EnforcedAnnotationsMixin",
            lambda: jdc.EnforcedAnnotationsMixin.get_batch_axes(3),  # type: ignore[arg-type]
            "check_shapes=True",
            "'int' (3)",
        ),
        w("flax_struct.dataclass", lambda: flax_struct.dataclass(m), _NOT_A_CLASS, "'Model'"),
        w("flax_struct.field", lambda: flax_struct.field(metadata=3), "metadata=...", "(3)"),
        w(
            "flax_struct.PyTreeNode",
            lambda: flax_struct.PyTreeNode.replace(None),
            _INSTANCE,
            "None",
        ),
        w("chex_dataclass.dataclass", lambda: chex_dataclass.dataclass(m), _NOT_A_CLASS, "'Model'"),
        w(
            "jax_dataclasses.pytree_dataclass",
            lambda: jdc_compat.pytree_dataclass(m),
            _NOT_A_CLASS,
            "'Model'",
        ),
        w(
            "chex_dataclass.mappable_dataclass",
            lambda: chex_dataclass.mappable_dataclass(m),
            "a dataclass",
            "'Model'",
        ),
        w(
            "chex_dataclass.mappable_dataclass",
            lambda: chex_dataclass.mappable_dataclass(3),
            "a dataclass",
            "(3)",
        ),
    ]
    return cases


# Public names that are not functions taking objects, and why they have no case above.
NOT_FUNCTIONS = {
    "Attr": "the type of what attr() returns (attr's cases cover it)",
    "MigrationWarning": "a warning class",
    "ShapeError": "an exception class",
    "Static": "a typing alias: Static[T] is typing's own subscription",
    "asdict": "dataclasses.asdict itself (its own TypeError)",
    "astuple": "dataclasses.astuple itself (its own TypeError)",
    "fields": "dataclasses.fields itself (its own TypeError)",
    "is_dataclass": "dataclasses.is_dataclass itself (takes anything)",
}


@pytest.mark.parametrize("case", _wrong_kinds(), ids=lambda c: f"{c.name}-{c.got[:30]}")
def test_the_wrong_kind_of_object_is_a_type_error_naming_it(case: WrongKind) -> None:
    function = case.name.rsplit(".", 1)[-1]
    with pytest.raises(TypeError) as info:
        case.run()
    message = str(info.value)
    assert case.needs in message and case.got in message, message
    if function not in ("PyTreeNode", "EnforcedAnnotationsMixin"):  # methods: replace, dims
        assert f"{function}(" in message, message


def test_every_public_name_is_covered() -> None:
    public = set(jdc.__all__) | {f"flax_struct.{n}" for n in flax_struct.__all__}
    public |= {f"chex_dataclass.{n}" for n in chex_dataclass.__all__}
    # the compat jax_dataclasses module's own functions (the rest are jaxdc's objects)
    public |= {
        f"jax_dataclasses.{n}"
        for n in jdc_compat.__all__
        if getattr(jdc_compat, n) is not getattr(jdc, n, None)
    }
    covered = {case.name for case in _wrong_kinds()} | set(NOT_FUNCTIONS)
    assert public == covered
