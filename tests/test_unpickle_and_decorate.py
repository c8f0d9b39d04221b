"""Pickled data from another version of a class is refused by field name, never misassigned;
decorating something that cannot be a pytree dataclass is a TypeError naming it."""

from __future__ import annotations

import copy
import enum
import pickle
import sys
import types
from collections.abc import Iterator
from typing import Any, NamedTuple

import jax
import jax.numpy as jnp
import jaxdc as jdc
import pytest
from typing_extensions import TypedDict

MODULE = "jaxdc_versioned_module"


@pytest.fixture
def versioned() -> Iterator[types.ModuleType]:
    """A module whose class `Model` the test redefines, as a new release of a library would."""
    module = types.ModuleType(MODULE)
    sys.modules[MODULE] = module
    yield module
    del sys.modules[MODULE]


def _define(module: types.ModuleType, fields: dict[str, Any]) -> type:
    namespace = {"__annotations__": fields, "__module__": MODULE, "__qualname__": "Model"}
    cls = jdc.pytree_dataclass(type("Model", (), namespace))
    module.Model = cls  # type: ignore[attr-defined]
    return cls


def test_pickle_round_trip_and_deepcopy() -> None:
    @jdc.pytree_dataclass
    class Local:
        w: jax.Array
        name: jdc.Static[str] = "n"

    obj = Local(jnp.arange(3.0), "x")
    assert copy.deepcopy(obj) == obj


def test_module_level_pickle_round_trip(versioned: types.ModuleType) -> None:
    cls = _define(versioned, {"w": jax.Array, "name": jdc.Static[str]})
    obj = cls(jnp.arange(3.0), "x")
    back = pickle.loads(pickle.dumps(obj))
    assert back == obj and back.name == "x"
    assert jax.tree.structure(back) == jax.tree.structure(obj)


@pytest.mark.parametrize(
    ("new_fields", "needle"),
    [
        ({"w": jax.Array}, "it holds field(s) ['name'] that class 'Model' no longer has"),
        (
            {"w": jax.Array, "name": jdc.Static[str], "bias": jax.Array},
            "it lacks field(s) ['bias'] that class 'Model' has now",
        ),
        (
            {"weights": jax.Array, "name": jdc.Static[str]},
            "it holds field(s) ['w'] that class 'Model' no longer has; it lacks field(s) "
            "['weights'] that class 'Model' has now",
        ),
    ],
)
def test_data_written_for_another_version_is_refused_naming_the_fields(
    versioned: types.ModuleType, new_fields: dict[str, Any], needle: str
) -> None:
    old = _define(versioned, {"w": jax.Array, "name": jdc.Static[str]})
    data = pickle.dumps(old(jnp.arange(3.0), "x"))
    _define(versioned, new_fields)  # the class as a later version declares it
    with pytest.raises(TypeError) as info:
        pickle.loads(data)
    message = str(info.value)
    assert message.startswith("cannot unpickle an instance of 'Model': ")
    assert needle in message and "Fix:" in message


def test_older_positional_data_is_checked_by_length(versioned: types.ModuleType) -> None:
    from jaxdc._dataclass import reconstruct

    cls = _define(versioned, {"w": jax.Array, "name": jdc.Static[str]})
    assert reconstruct(cls, (jnp.ones(1), "x")).name == "x"
    with pytest.raises(TypeError, match=r"holds 1 field value\(s\), the class has 2 \(w, name\)"):
        reconstruct(cls, (jnp.ones(1),))


def _function(x: int) -> int:
    return x


class Color(enum.Enum):
    RED = 1


class Pair(NamedTuple):
    a: int
    b: int


class Row(TypedDict):
    a: int


@jdc.pytree_dataclass
class Done:
    w: jax.Array


@pytest.mark.parametrize(
    ("target", "needle"),
    [
        (_function, "decorates classes, got the function '_function'"),
        (Done(jnp.ones(1)), "decorates classes, got an instance of 'Done'"),
        (3, "decorates classes, got an instance of 'int'"),
        (Color, "cannot make the Enum 'Color' a pytree dataclass"),
        (Pair, "cannot make the NamedTuple 'Pair' a pytree dataclass"),
        (Row, "cannot make the TypedDict 'Row' a pytree dataclass"),
        (int, "cannot make the built-in class 'int' a pytree dataclass"),
    ],
)
@pytest.mark.parametrize("form", ["bare", "call"])
def test_decorating_what_cannot_be_a_pytree_dataclass(target: Any, needle: str, form: str) -> None:
    decorator = jdc.pytree_dataclass if form == "bare" else jdc.pytree_dataclass(kw_only=True)
    before = dict(vars(target)) if isinstance(target, type) else None
    with pytest.raises(TypeError) as info:
        decorator(target)
    assert needle in str(info.value) and "Fix:" in str(info.value)
    if before is not None:  # the class was left as it was
        assert dict(vars(target)) == before
