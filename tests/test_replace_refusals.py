"""`jdc.replace` refuses what it would lose and takes what `dataclasses.replace` takes.

- A field left out of the pytree (`pytree=False`) is refused: the new value would revert to
  the default after the first `jit`. An `init=False` field is carried in the pytree, so
  replace sets it (`dataclasses.replace` refuses it).
- An InitVar is passed to `__post_init__` (its default when not given; an error naming it
  when it has none), as `dataclasses.replace` does.
- Every error names the class and the field, and leaves the object as it was.
"""

from __future__ import annotations

import dataclasses
from dataclasses import InitVar
from pathlib import Path

import jax
import jax.numpy as jnp
import jaxdc as jdc
import pytest
from checkers import Project

SEEN: list[float] = []  # what Scaled.__post_init__ was given


@jdc.pytree_dataclass
class Scaled:
    w: jax.Array
    scale: InitVar[float]

    def __post_init__(self, scale: float) -> None:
        SEEN.append(scale)


class Node(jdc.PyTreeNode):
    w: jax.Array
    factor: InitVar[int] = 2
    cache: int = jdc.field(pytree=False, default=0)
    double: jax.Array = jdc.field(init=False, pytree=True, default=None)

    def __post_init__(self, factor: int) -> None:
        jdc.attr(self, lambda s: s.double).set(self.w * factor)


def _unchanged(before: object, after: object) -> None:
    assert jax.tree.structure(before) == jax.tree.structure(after)
    assert jax.tree.all(jax.tree.map(lambda a, b: a is b, before, after))


def test_initvar_is_passed_to_post_init_like_dataclasses_replace() -> None:
    SEEN.clear()
    obj = Scaled(jnp.ones(2), 2.0)
    jdc.replace(obj, w=jnp.zeros(2), scale=3.0)
    dataclasses.replace(obj, w=jnp.zeros(2), scale=4.0)
    assert SEEN == [2.0, 3.0, 4.0]


def test_initvar_default_is_used_when_not_given() -> None:
    node = Node(jnp.ones(2), factor=3)
    assert node.double.tolist() == [3.0, 3.0]
    assert node.replace(w=jnp.full(2, 5.0)).double.tolist() == [10.0, 10.0]  # factor=2
    assert jdc.replace(node, w=jnp.ones(2), factor=4).double.tolist() == [4.0, 4.0]


def test_initvar_without_default_must_be_given() -> None:
    obj = Scaled(jnp.ones(2), 2.0)
    with pytest.raises(ValueError) as info:
        jdc.replace(obj, w=jnp.zeros(2))
    assert "class 'Scaled': InitVar 'scale' must be specified" in str(info.value)
    assert "Fix: jaxdc.replace(obj, ..., scale=...)" in str(info.value)
    # The same rule (a ValueError before Python 3.13, a TypeError since).
    with pytest.raises((ValueError, TypeError), match="InitVar 'scale' must be specified"):
        dataclasses.replace(obj, w=jnp.zeros(2))


def test_field_left_out_of_the_pytree_is_refused() -> None:
    node = Node(jnp.ones(2))
    before = jax.tree.leaves(node)
    with pytest.raises(ValueError) as info:
        jdc.replace(node, cache=5)
    message = str(info.value)
    assert "cannot set field 'cache' of class 'Node'" in message
    assert "left out of the pytree (pytree=False)" in message and "Fix:" in message
    with pytest.raises(ValueError, match="field 'cache' of class 'Node'"):
        node.replace(cache=5)
    assert node.cache == 0 and all(
        a is b for a, b in zip(before, jax.tree.leaves(node), strict=True)
    )


def test_init_false_field_is_carried_so_replace_sets_it() -> None:
    """Unlike `dataclasses.replace`: jaxdc carries `init=False` fields in the pytree, so a
    value given to replace survives jit (the class's own `__post_init__` may recompute it;
    Node has a custom one that does, Plain does not)."""

    @jdc.pytree_dataclass
    class Plain:
        w: jax.Array
        note: jdc.Static[str] = jdc.field(init=False, default="n")

    new = jdc.replace(Plain(jnp.ones(1)), note="m")
    assert jax.jit(lambda p: p)(new).note == "m"


def test_unknown_field_is_named_even_next_to_initvars() -> None:
    obj = Scaled(jnp.ones(2), 2.0)
    with pytest.raises(TypeError) as info:
        jdc.replace(obj, scale=1.0, sclae=2.0, typo=3)
    assert str(info.value) == (
        "replace() got unknown field(s) 'sclae', 'typo' for class 'Scaled'; its fields "
        "are: w, scale (InitVar)."
    )


def test_initvar_given_to_a_class_whose_replace_skips_post_init_is_named() -> None:
    @jdc.pytree_dataclass
    class Custom:
        w: jax.Array
        scale: InitVar[float] = 1.0

        def __init__(self, w: jax.Array) -> None:
            jdc.attr(self, lambda s: s.w).set(w)

        def __post_init__(self, scale: float) -> None:  # never called: custom __init__
            raise AssertionError

    obj = Custom(jnp.ones(1))
    with pytest.raises(TypeError) as info:
        jdc.replace(obj, scale=2.0)
    assert "InitVar 'scale' for class 'Custom'" in str(info.value)
    assert jdc.replace(obj, w=jnp.zeros(1)).w.tolist() == [0.0]


def test_refused_replace_leaves_the_object_unchanged() -> None:
    node = Node(jnp.ones(2))
    leaves = jax.tree.leaves(node)
    for changes, error, message in (
        ({"cache": 1}, ValueError, r"replace\(\) cannot set field 'cache' of class 'Node'"),
        ({"nope": 1}, TypeError, r"replace\(\) got unknown field\(s\) 'nope' for class 'Node'"),
    ):
        with pytest.raises(error, match=message):
            jdc.replace(node, w=jnp.zeros(2), **changes)
        assert all(a is b for a, b in zip(leaves, jax.tree.leaves(node), strict=True))


def test_mypy_plugin_refuses_the_same_keywords(
    tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    project = Project.create(tmp_path, request.getfixturevalue("warm_cache"))
    project.write(
        {
            "edits.py": """
            from dataclasses import InitVar

            import jax
            import jax.numpy as jnp
            import jaxdc as jdc


            class Node(jdc.PyTreeNode):
                w: jax.Array
                factor: InitVar[int] = 2
                cache: int = jdc.field(pytree=False, default=0)
                double: jax.Array | None = jdc.field(init=False, pytree=True, default=None)

                def __post_init__(self, factor: int) -> None:
                    jdc.attr(self, lambda s: s.double).set(self.w * factor)


            class Scaled(jdc.PyTreeNode):
                w: jax.Array
                scale: InitVar[float]

                def __post_init__(self, scale: float) -> None:
                    pass


            node = Node(jnp.ones(2))
            jdc.replace(node, w=jnp.zeros(2), factor=3)
            node.replace(factor=3)
            scaled = Scaled(jnp.ones(1), 2.0)
            jdc.replace(scaled, scale=1.0)
            scaled.replace(w=jnp.zeros(1))  # E: mypy-plugin call-arg
            jdc.replace(scaled, scale="x")  # E: mypy-plugin arg-type
            jdc.replace(node, cache=1)  # E: mypy-plugin call-arg
            node.replace(cache=1)  # E: mypy-plugin call-arg
            jdc.replace(node, double=jnp.ones(2))
            """
        }
    )
    run = project.mypy()
    assert run.diagnostics == project.expected(), run.stdout


@jdc.pytree_dataclass
class Validated:
    """`__post_init__` raises AttributeError and TypeError of its own on bad values."""

    w: jax.Array

    def __post_init__(self) -> None:
        if self.w.ndim == 0:
            raise AttributeError("w must have an axis")
        if self.w.ndim > 1:
            raise TypeError("w must be a vector")


@pytest.mark.parametrize(
    ("value", "error", "message"),
    [
        (jnp.zeros(()), AttributeError, "w must have an axis"),
        (jnp.zeros((2, 2)), TypeError, "w must be a vector"),
    ],
)
def test_errors_raised_inside_replace_pass_through(
    value: jax.Array, error: type[Exception], message: str
) -> None:
    """`jdc.replace` tells a non-jaxdc argument apart only when the call fails: the class's
    own AttributeError and TypeError reach the caller as raised, not as "wrong kind"."""
    obj = Validated(jnp.zeros(2))
    with pytest.raises(error, match=f"^{message}$"):
        jdc.replace(obj, w=value)
    with pytest.raises(TypeError, match="Validated"):
        jdc.replace(Validated, w=value)  # the class itself is the wrong kind
