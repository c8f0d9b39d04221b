"""Static fields: spellings, value validation at construction, class-definition checks."""

from __future__ import annotations

import dataclasses
from typing import Optional

import jax
import jax.numpy as jnp
import jaxdc as jdc
import numpy as np
import pytest


def test_three_spellings_of_static_mean_the_same() -> None:
    @jdc.pytree_dataclass
    class A:
        x: jax.Array
        a: jdc.Static[int]
        b: int = jdc.field(static=True, default=2)
        c: int = dataclasses.field(default=3, metadata={"static": True})
        d: int = jdc.static_field(default=4)

    a = A(jnp.ones(1), 1)
    assert len(jax.tree.leaves(a)) == 1
    assert "A[A(a=1, b=2, c=3, d=4)]" in str(jax.tree.structure(a))
    assert dataclasses.fields(A)[2].metadata["static"] is True


@pytest.mark.parametrize(
    ("value", "shown", "fix"),
    [
        ([1, 2], "'list'", "tuple instead of a list"),
        ({"a": 1}, "'dict'", "Fix: pass an immutable value"),
        ({1}, "'set'", "frozenset instead of a set"),
        (np.ones(2), "'numpy.ndarray'", "make 'cfg' a data field"),
        (jnp.ones(2), "'jax.Array'", "make 'cfg' a data field"),
        ((1, jnp.ones(2)), "'tuple' containing a 'jax.Array'", "make 'cfg' a data field"),
        ((1, (np.ones(1),)), "'tuple' containing a 'numpy.ndarray'", "make 'cfg' a data field"),
    ],
)
def test_unhashable_static_value_rejected_at_construction(
    value: object, shown: str, fix: str
) -> None:
    @jdc.pytree_dataclass
    class Model:
        w: jax.Array
        cfg: jdc.Static[object]

    with pytest.raises(TypeError) as info:
        Model(jnp.ones(1), value)
    message = str(info.value)
    assert "static field 'cfg' of class 'Model'" in message
    assert shown in message and fix in message


def test_unhashable_static_value_rejected_by_replace_and_custom_init() -> None:
    @jdc.pytree_dataclass
    class A:
        x: jax.Array
        names: jdc.Static[tuple[str, ...]] = ()

    a = A(jnp.ones(1))
    with pytest.raises(TypeError, match="static field 'names' of class 'A'"):
        jdc.replace(a, names=["x"])

    @jdc.pytree_dataclass
    class B:
        x: jax.Array
        names: jdc.Static[tuple[str, ...]]

        def __init__(self, x: jax.Array) -> None:
            self.x = x
            self.names = ["oops"]  # type: ignore[assignment]

    with pytest.raises(TypeError, match="static field 'names' of class 'B'"):
        B(jnp.ones(1))


def test_stale_list_footgun_cannot_happen() -> None:
    """jax#7826: a list static mutated after the first jit call gave stale results."""

    @jdc.pytree_dataclass
    class A:
        x: jax.Array
        scales: jdc.Static[tuple[float, ...]]

    with pytest.raises(
        TypeError,
        match=r"static field 'scales' of class 'A' got a value of type 'list', which is not hashable",
    ):
        A(jnp.ones(1), [1.0])  # type: ignore[arg-type]


class EqOnly:
    def __eq__(self, other: object) -> bool:
        return True


@dataclasses.dataclass
class MutableCfg:
    lr: float


@dataclasses.dataclass(frozen=True)
class FrozenWithArray:
    w: jax.Array


@dataclasses.dataclass(frozen=True)
class FrozenCfg:
    lr: float
    names: tuple[str, ...] = ()


@pytest.mark.parametrize(
    ("annotation", "shown", "reason"),
    [
        (list[int], "list[int]", "'list' is mutable and not hashable"),
        (dict[str, int], "dict[str, int]", "'dict' is mutable and not hashable"),
        (set, "set", "'set' is mutable and not hashable"),
        (bytearray, "bytearray", "'bytearray' is mutable and not hashable"),
        (np.ndarray, "numpy.ndarray", "arrays are not hashable"),
        (jax.Array, "jax.Array", "arrays are not hashable"),
        (MutableCfg, "MutableCfg", "dataclass 'MutableCfg' is not frozen"),
        (EqOnly, "EqOnly", "'EqOnly' defines __eq__ but not __hash__"),
        (FrozenWithArray, "FrozenWithArray", "has field 'w' of unhashable type 'jax.Array'"),
        (Optional[list[int]], "list[int]", "'list' is mutable"),
        (tuple[int, list[int]], "list[int]", "'list' is mutable"),
        (int | dict[str, int], "dict[str, int]", "'dict' is mutable"),
    ],
)
def test_unhashable_static_type_rejected_at_class_definition(
    annotation: object, shown: str, reason: str
) -> None:
    with pytest.raises(TypeError) as info:

        @jdc.pytree_dataclass
        class Bad:
            x: jax.Array
            cfg: jdc.Static[annotation]  # type: ignore[valid-type]

    message = str(info.value)
    assert message.startswith("static field 'cfg' of class '")
    assert "Bad'" in message and f"unhashable type '{shown}'" in message
    assert reason in message and "Fix: " in message


def test_field_static_true_type_is_checked_too() -> None:
    with pytest.raises(TypeError, match="static field 'ids' of class .*'list\\[int\\]'"):

        @jdc.pytree_dataclass
        class Bad:
            ids: list[int] = jdc.field(static=True, default_factory=list)


@pytest.mark.parametrize(
    "annotation",
    [
        int,
        str,
        float,
        bool,
        tuple[int, ...],
        frozenset[str],
        type[int],
        None,
        FrozenCfg,
        Optional[str],
        "typing.Literal['a', 'b']",
        "collections.abc.Callable[[int], int]",
    ],
)
def test_hashable_static_types_accepted(annotation: object) -> None:
    import collections.abc  # noqa: F401 - used by the string annotations
    import typing  # noqa: F401

    @jdc.pytree_dataclass
    class Good:
        x: jax.Array
        cfg: jdc.Static[annotation] = None  # type: ignore[valid-type]

    assert Good(jnp.ones(1)).cfg is None


def test_static_annotation_conflicting_with_field_static_false() -> None:
    with pytest.raises(TypeError, match="field 'n' of class .*Static.*static=False"):

        @jdc.pytree_dataclass
        class Bad:
            n: jdc.Static[int] = jdc.field(static=False, default=1)


def test_static_and_excluded_is_rejected() -> None:
    with pytest.raises(TypeError, match="static=True, pytree=False"):
        jdc.field(static=True, pytree=False)
