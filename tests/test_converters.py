"""`field(converter=...)`: called by `__init__` and `replace`, never by unflatten (issue 18).

The converters here count their calls, so a transformation (jit, vmap, grad, tree_map),
unpickling or copy_and_mutate that called one fails the count; the values they see are
real arrays and tracers.
"""

# jaxtyping's shape strings ("n") are not forward references:
# ruff: noqa: F821, UP037
from __future__ import annotations

import copy
import dataclasses
import inspect
import pickle
import re
import sys
import traceback
import typing
from collections.abc import Callable, Iterable
from typing import Any

import jax
import jax.numpy as jnp
import jaxdc as jdc
import numpy as np
import pytest
from _jaxdc_rules import messages
from beartype import beartype
from beartype.roar import BeartypeCallHintParamViolation
from jax.typing import ArrayLike
from jaxdc._tracebacks import GENERATED_DIR
from jaxtyping import Array, Float


class Counted:
    """A converter that records every value it is called on."""

    def __init__(self, convert: Callable[[Any], Any]) -> None:
        self.convert = convert
        self.seen: list[Any] = []

    def __call__(self, value: Any) -> Any:
        self.seen.append(value)
        return self.convert(value)


TO_ARRAY = Counted(jnp.asarray)
TO_TUPLE = Counted(tuple)


@jdc.pytree_dataclass
class State:
    x: jax.Array = jdc.field(converter=TO_ARRAY)
    sizes: jdc.Static[tuple[int, ...]] = jdc.field(default=range(2), converter=TO_TUPLE)
    step: jax.Array = jdc.field(default=0, converter=TO_ARRAY)


@pytest.fixture
def counted() -> tuple[Any, Counted, Counted]:
    TO_ARRAY.seen.clear()
    TO_TUPLE.seen.clear()
    return State, TO_ARRAY, TO_TUPLE


def test_init_converts_given_values_and_defaults(counted: Any) -> None:
    State, to_array, to_tuple = counted
    state = State([1.0, 2.0])
    assert isinstance(state.x, jax.Array) and state.x.tolist() == [1.0, 2.0]
    assert isinstance(state.step, jax.Array) and state.step.shape == ()
    assert state.sizes == (0, 1)  # the default, converted
    assert to_array.seen[0] == [1.0, 2.0] and to_array.seen[1] == 0
    assert to_tuple.seen == [range(2)]
    assert State([1.0], sizes=[3, 4]).sizes == (3, 4)  # a list made hashable before the check


def test_static_check_and_treedef_see_the_converted_value() -> None:
    @jdc.pytree_dataclass
    class Config:
        x: jax.Array
        names: jdc.Static[Any] = jdc.field(default=(), converter=list)

    with pytest.raises(TypeError, match="static field 'names' of class .*Config.*list"):
        Config(jnp.zeros(2))
    ok = Counted(tuple)

    @jdc.pytree_dataclass
    class Fixed:
        x: jax.Array
        names: jdc.Static[tuple[str, ...]] = jdc.field(default=(), converter=ok)

    leaves, treedef = jax.tree_util.tree_flatten(Fixed(jnp.zeros(2), names=["a"]))
    assert treedef == jax.tree_util.tree_structure(Fixed(jnp.ones(2), names=("a",)))
    assert len(leaves) == 1


def test_shape_check_sees_the_converted_value() -> None:
    @jdc.pytree_dataclass(check_shapes=True)
    class Vec:
        v: Float[Array, "n"] = jdc.field(converter=lambda v: jnp.asarray(v, jnp.float32))

    assert Vec([1, 2, 3]).v.dtype == jnp.float32  # ints, converted before the check
    with pytest.raises(
        jdc.ShapeError, match=r"field 'v' of class 'Vec': expected 1 dimension, got 2"
    ):
        Vec([[1.0]])


def test_replace_converts_the_changed_fields_only(counted: Any) -> None:
    State, to_array, to_tuple = counted
    state = State(jnp.zeros(2))
    to_array.seen.clear()
    to_tuple.seen.clear()
    new = jdc.replace(state, x=[5.0], sizes=[7])
    assert isinstance(new.x, jax.Array) and new.x.tolist() == [5.0]
    assert new.sizes == (7,) and new.step is state.step
    assert to_array.seen == [[5.0]] and to_tuple.seen == [[7]]
    assert jax.tree_util.tree_structure(new) == jax.tree_util.tree_structure(
        State(jnp.zeros(1), sizes=(7,))
    )


@pytest.mark.skipif(sys.version_info < (3, 13), reason="copy.replace is new in Python 3.13")
def test_copy_replace_converts() -> None:
    new = copy.replace(State(jnp.zeros(2)), x=[1.0])  # type: ignore[attr-defined]
    assert isinstance(new.x, jax.Array)


def test_pytree_node_replace_converts() -> None:
    class Node(jdc.PyTreeNode):
        x: jax.Array = jdc.field(converter=jnp.asarray)

    assert isinstance(Node([1.0]).replace(x=[2.0]).x, jax.Array)


def test_transformations_never_call_the_converter(counted: Any) -> None:
    State, to_array, to_tuple = counted
    state = State(jnp.ones((3, 2)), step=jnp.zeros(3))
    calls = len(to_array.seen), len(to_tuple.seen)

    out = jax.jit(lambda s: jdc.replace(s, step=s.step + 1))(state)
    assert out.step.tolist() == [1.0, 1.0, 1.0]
    batched = jax.vmap(lambda s: s.x.sum() + s.step)(state)
    assert batched.shape == (3,)
    grads = jax.grad(lambda s: jnp.sum(s.x**2))(state)
    assert grads.x.tolist() == (2 * state.x).tolist()
    nones = jax.tree_util.tree_map(lambda _: None, state)  # leaves no converter would accept
    assert nones.x is None and nones.sizes == (0, 1)
    assert (len(to_array.seen), len(to_tuple.seen)) == (calls[0] + 1, calls[1])  # jit's replace


def test_unpickling_and_copying_never_call_the_converter(counted: Any) -> None:
    State, to_array, to_tuple = counted
    state = State(jnp.ones(2), sizes=[1])
    calls = len(to_array.seen), len(to_tuple.seen)
    for restored in (pickle.loads(pickle.dumps(state)), copy.deepcopy(state), copy.copy(state)):
        assert restored.sizes == (1,) and restored.x.tolist() == [1.0, 1.0]
    with jdc.copy_and_mutate(state) as new:
        new.x = jnp.zeros(2)  # stored as assigned: the value the field holds
    assert new.x.tolist() == [0.0, 0.0]
    assert (len(to_array.seen), len(to_tuple.seen)) == calls


def test_factories_init_false_initvars_slots_and_inheritance() -> None:
    @jdc.pytree_dataclass(slots=True)
    class Parent:
        a: jax.Array = jdc.field(default_factory=lambda: [1.0], converter=jnp.asarray)
        b: jax.Array = jdc.field(init=False, default=2, converter=jnp.asarray)
        c: jax.Array = jdc.field(init=False, default_factory=lambda: 3, converter=jnp.asarray)

    @jdc.pytree_dataclass
    class Child(Parent):
        scale: dataclasses.InitVar[float] = jdc.field(default=2, converter=float)
        d: jax.Array = jdc.field(default=4, converter=jnp.asarray)

        def __post_init__(self, scale: float) -> None:
            assert type(scale) is float
            object.__setattr__(self, "d", self.d * scale)

    for obj in (Parent(), Child()):
        assert all(isinstance(getattr(obj, n), jax.Array) for n in ("a", "b", "c"))
    child = Child(a=[0.0], scale=3)
    assert child.d.tolist() == 12 and child.a.tolist() == [0.0]
    assert jdc.replace(child, scale=1, d=1).d.tolist() == 1  # InitVar converted again


def test_bad_converter_arguments_are_refused_when_the_field_is_declared() -> None:
    expected = messages.wrong_keyword(
        "jaxdc.field",
        "converter",
        "a function of one argument (such as jaxdc.as_array) or None",
        "an instance of 'int' (3)",
    )
    with pytest.raises(TypeError, match=f"^{re.escape(expected)}$"):
        jdc.field(converter=3)
    with pytest.raises(TypeError, match=f"^{re.escape(messages.FIELD_CONVERTER_AND_EXCLUDED)}$"):
        jdc.field(default=0, pytree=False, converter=int)
    assert jdc.static_field(default=(), converter=tuple).metadata["jaxdc.converter"] is tuple


def test_as_array() -> None:
    assert isinstance(jdc.as_array([1, 2]), jax.Array)
    assert isinstance(jdc.as_array(np.zeros(2)), jax.Array)
    x = jnp.zeros(2)
    assert jdc.as_array(x) is x
    assert jax.jit(lambda v: jdc.as_array(v) + 1)(x).tolist() == [1.0, 1.0]


def test_a_class_without_converters_gets_the_same_init() -> None:
    """Converters cost nothing where none is declared: no conversion line is generated."""

    @jdc.pytree_dataclass
    class Plain:
        x: jax.Array
        n: jdc.Static[int] = 0

    source = inspect.getsource(Plain.__init__)
    assert "_jx_c_" not in source and "_jx_c_" not in Plain.__jaxdc_replace__.__source__


def test_a_failing_converter_shows_the_generated_line_then_the_converter() -> None:
    def positive(value: int) -> int:
        if value <= 0:
            raise ValueError(f"{value} is not positive")
        return value

    @jdc.pytree_dataclass
    class Count:
        n: jdc.Static[int] = jdc.field(converter=positive)

    for call in (lambda: Count(0), lambda: jdc.replace(Count(1), n=-1)):
        with pytest.raises(ValueError, match="is not positive") as info:
            call()
        frames = traceback.extract_tb(info.value.__traceback__)
        generated = [f for f in frames if f.filename.startswith(GENERATED_DIR)]
        assert "_jx_c_n(" in generated[-1].line  # the conversion, as written
        assert frames[-1].name == "positive"


def sizes_of(value: Iterable[int]) -> tuple[int, ...]:
    """A converter whose input annotation is a string (this module's PEP 563 annotations)."""
    return tuple(value)


@jdc.pytree_dataclass
class Converted:
    x: jax.Array = jdc.field(converter=jdc.as_array)
    sizes: jdc.Static[tuple[int, ...]] = jdc.field(default=(), converter=sizes_of)
    unknown: jax.Array = jdc.field(default=0, converter=lambda v: jnp.asarray(v))
    plain: float = 0.0


def test_init_parameters_are_annotated_with_what_the_converter_takes() -> None:
    """The generated `__init__` says what callers pass (as attrs does): the converter's
    input type, none when the converter does not say, the field type without one."""
    hints = typing.get_type_hints(Converted.__init__)
    assert hints == {
        "x": ArrayLike,
        "sizes": Iterable[int],
        "plain": float,
        "return": type(None),
    }
    shown = inspect.signature(Converted.__init__).parameters
    assert shown["unknown"].annotation is inspect.Parameter.empty
    assert shown["x"].annotation is ArrayLike


def test_beartype_checks_init_against_the_converter_input() -> None:
    """A runtime checker of `__init__` accepts what the converter takes and still rejects
    what it does not."""
    checked = beartype(Converted)
    made = checked(np.ones(2), sizes=[1, 2])
    assert isinstance(made.x, jax.Array) and made.sizes == (1, 2)
    with pytest.raises(BeartypeCallHintParamViolation, match="parameter x="):
        checked("not an array")
