"""Shapes, compatibility side: jax_dataclasses' EnforcedAnnotationsMixin, and jaxtyping's
own decorator on jaxdc classes (which needs the generated __init__'s signature)."""

# jaxtyping's shape strings ("b n", "n") are not forward references:
# ruff: noqa: F722, F821, UP037
from __future__ import annotations

import dataclasses
import inspect
import pydoc
import typing
from typing import Annotated, Any

import jax
import jax.numpy as jnp
import jaxdc as jdc
import pytest
from beartype import beartype
from jaxtyping import Array, Float, TypeCheckError, jaxtyped

# --- EnforcedAnnotationsMixin ----------------------------------------------------------


@jdc.pytree_dataclass
class Mnist(jdc.EnforcedAnnotationsMixin):
    image: Annotated[jax.Array, (28, 28), jnp.floating]
    label: Annotated[jax.Array, (10,), jnp.integer]


@jdc.pytree_dataclass
class Camera(jdc.EnforcedAnnotationsMixin):
    pose: Annotated[jax.Array, (4, 4), jnp.floating]


@jdc.pytree_dataclass
class View(jdc.EnforcedAnnotationsMixin):
    rgb: Annotated[jax.Array, jnp.floating, (3,)]
    camera: Camera


def mnist(*batch: int) -> Mnist:
    return Mnist(jnp.zeros((*batch, 28, 28)), jnp.zeros((*batch, 10), jnp.uint8))


def test_mixin_checks_and_reports_batch_axes() -> None:
    assert mnist().get_batch_axes() == ()
    assert mnist(5).get_batch_axes() == (5,)
    assert mnist(2, 3).get_batch_axes() == (2, 3)
    with pytest.raises(
        jdc.ShapeError,
        match=r"^field 'label' of class 'Mnist': batch axes are \(6,\) here but \(5,\) from "
        r"field 'image' \(Annotated\[Array, \(28, 28\), floating\], got f32\[5,28,28\]\)$",
    ):
        Mnist(jnp.zeros((5, 28, 28)), jnp.zeros((6, 10), jnp.uint8))
    with pytest.raises(jdc.ShapeError, match="dtype float32 is not integer"):
        Mnist(jnp.zeros((28, 28)), jnp.zeros(10))


@jdc.pytree_dataclass
class MnistPartial(jdc.EnforcedAnnotationsMixin):
    image: Annotated[jax.Array, (28, 28)]
    label: Annotated[jax.Array, jnp.integer]  # a dtype only: any shape, no batch axes


def test_a_field_with_a_dtype_only_has_any_shape_and_no_part_in_the_batch_axes() -> None:
    # jax_dataclasses' test_annotated_arrays::test_valid: batch axes come from `image` only.
    partial = MnistPartial(jnp.zeros((7, 28, 28)), jnp.zeros(70, jnp.int32))
    assert partial.get_batch_axes() == (7,)
    assert jax.vmap(lambda p: p.label.sum())(jax.tree.map(lambda a: a[:7], partial)).shape == (7,)
    assert MnistPartial(jnp.zeros((28, 28)), jnp.zeros((2, 3), jnp.int8)).get_batch_axes() == ()
    with pytest.raises(AssertionError, match="dtype float32 is not integer"):  # a ShapeError
        MnistPartial(jnp.zeros((7, 28, 28)), jnp.zeros(70))


def test_batch_axes_are_computed_from_the_arrays_held() -> None:
    m = mnist(5)
    assert jax.jit(lambda x: x)(m).get_batch_axes() == (5,)
    assert jax.tree.map(lambda a: a[None], m).get_batch_axes() == (1, 5)
    assert jax.tree.map(lambda a: a[:2], m).get_batch_axes() == (2,)
    seen = []
    jax.vmap(lambda x: seen.append(x.get_batch_axes()))(m)
    assert seen == [()]
    assert jax.jit(lambda x: jnp.zeros(x.get_batch_axes()))(m).shape == (5,)


def test_children_must_start_with_the_parents_batch_axes() -> None:
    View(jnp.zeros((2, 3)), Camera(jnp.zeros((2, 4, 4))))
    View(jnp.zeros((2, 3)), Camera(jnp.zeros((2, 7, 4, 4))))  # longer: fine
    with pytest.raises(
        jdc.ShapeError,
        match=r"^field 'camera' of class 'View': its batch axes \(5,\) do not start with the "
        r"batch axes \(2,\) from field 'rgb' \(Annotated\[Array, \(3,\), floating\], got "
        r"f32\[2,3\]\)$",
    ):
        View(jnp.zeros((2, 3)), Camera(jnp.zeros((5, 4, 4))))


def test_mixin_without_batch_axes_and_with_jaxtyping_annotations() -> None:
    @jdc.pytree_dataclass
    class Graph(jdc.EnforcedAnnotationsMixin):
        x: Float[Array, "b n"]
        mask: Float[Array, "b"]

    g = Graph(jnp.zeros((2, 3)), jnp.zeros(2))
    assert jdc.dims(g) == {"b": 2, "n": 3}
    with pytest.raises(jdc.ShapeError, match="class 'Graph' has no batch axes"):
        g.get_batch_axes()
    with pytest.raises(jdc.ShapeError, match="dimension 'b' is 3 here but 2"):
        Graph(jnp.zeros((2, 3)), jnp.zeros(3))


def test_mixin_subclasses_of_pytree_node_and_opting_out() -> None:
    class Node(jdc.EnforcedAnnotationsMixin, jdc.PyTreeNode):
        a: Annotated[jax.Array, (2,)]

    assert Node(jnp.zeros((7, 2))).get_batch_axes() == (7,)
    with pytest.raises(jdc.ShapeError, match=r"field 'a' of class 'Node': axis 1 is 3, expected 2"):
        Node(jnp.zeros((7, 3)))

    @jdc.pytree_dataclass(check_shapes=False)
    class Unchecked(jdc.EnforcedAnnotationsMixin):
        a: Annotated[jax.Array, (2,)]

    Unchecked(jnp.zeros(3))
    with pytest.raises(TypeError, match="has none"):
        Unchecked(jnp.zeros(2)).get_batch_axes()


# --- jaxtyping's decorator and the generated __init__ ------------------------------------

Matrix = Float[Array, "b n"]
Vector = Float[Array, "b"]


def _pair(decorate: Any) -> type:
    @decorate
    class Pair:
        x: Matrix
        y: Vector
        scale: float = 1.0
        names: list[str] = dataclasses.field(default_factory=list)
        tag: jdc.Static[str] = dataclasses.field(default="t", kw_only=True)

    return Pair


JaxdcPair = _pair(jdc.pytree_dataclass)
StdlibPair = _pair(dataclasses.dataclass(frozen=True))


def test_signature_equals_the_dataclass_one() -> None:
    assert inspect.signature(JaxdcPair.__init__) == inspect.signature(StdlibPair.__init__)
    assert inspect.signature(JaxdcPair) == inspect.signature(StdlibPair)
    assert JaxdcPair.__init__.__annotations__ == StdlibPair.__init__.__annotations__
    assert JaxdcPair.__init__.__globals__ is globals()
    assert JaxdcPair.__init__.__module__ == __name__
    assert _help_signature(JaxdcPair) == _help_signature(StdlibPair)
    assert _help_signature(JaxdcPair).startswith("Pair(x: 'Matrix', y: 'Vector', scale:")
    hints = typing.get_type_hints(JaxdcPair.__init__, include_extras=True)
    assert hints["x"] is Matrix and hints["return"] is type(None)


def _help_signature(cls: type) -> str:
    """The class signature line help() shows."""
    shown = pydoc.render_doc(cls, renderer=pydoc.plaintext)
    return next(line.strip(" |") for line in shown.splitlines() if "Pair(x" in line)


def _jaxtyping_checks_string_annotations() -> bool:
    """Whether this jaxtyping checks a dataclass whose annotations are strings (PEP 563, as
    everywhere in this module). jaxtyping 0.2.36, in the oldest `make test-matrix` leg,
    checks none (a stdlib dataclass is let through as silently as a jaxdc class), so
    there is no behaviour of jaxtyping's for jaxdc to match."""

    @jaxtyped(typechecker=beartype)
    @dataclasses.dataclass(frozen=True)
    class Probe:
        x: Float[Array, " b"]
        y: Float[Array, " b"]

    try:
        Probe(jnp.zeros(2), jnp.zeros(3))
    except TypeCheckError:
        return True
    return False


needs_string_annotation_checks = pytest.mark.skipif(
    not _jaxtyping_checks_string_annotations(),
    reason="this jaxtyping checks no dataclass with string annotations, stdlib ones included",
)


@needs_string_annotation_checks
@pytest.mark.parametrize("decorate", [jdc.pytree_dataclass, dataclasses.dataclass(frozen=True)])
def test_jaxtyped_beartype_checks_a_jaxdc_class_as_a_dataclass(decorate: Any) -> None:
    checked = jaxtyped(typechecker=beartype)(_pair(decorate))
    checked(jnp.zeros((2, 3)), jnp.zeros(2))
    with pytest.raises(
        TypeCheckError, match=r"(?s)typechecking parameter 'y'.*Actual value: f32\[3\]"
    ):
        checked(jnp.zeros((2, 3)), jnp.zeros(3))  # b: 2 vs 3
    with pytest.raises(
        TypeCheckError, match=r"(?s)typechecking parameter 'scale'.*Actual value: 'big'"
    ):
        checked(jnp.zeros((2, 3)), jnp.zeros(2), scale="big")


@needs_string_annotation_checks
def test_jaxtyped_beartype_under_future_annotations(load_module: Any) -> None:
    module = load_module(
        """
        from __future__ import annotations

        import dataclasses
        import jaxdc as jdc
        from beartype import beartype
        from jaxtyping import Array, Float, jaxtyped

        @jaxtyped(typechecker=beartype)
        @jdc.pytree_dataclass
        class A:
            x: Float[Array, "b n"]
            y: Float[Array, "b"]

        @jaxtyped(typechecker=beartype)
        @dataclasses.dataclass(frozen=True)
        class B:
            x: Float[Array, "b n"]
            y: Float[Array, "b"]
        """
    )
    for cls in (module.A, module.B):
        cls(jnp.zeros((2, 3)), jnp.zeros(2))
        with pytest.raises(
            TypeCheckError, match=r"(?s)typechecking parameter 'y'.*Actual value: f32\[3\]"
        ):
            cls(jnp.zeros((2, 3)), jnp.zeros(3))


def test_jaxtyped_class_still_round_trips_through_jit() -> None:
    checked = jaxtyped(typechecker=beartype)(_pair(jdc.pytree_dataclass))
    pair = checked(jnp.zeros((2, 3)), jnp.zeros(2))
    out = jax.jit(lambda p: jax.tree.map(lambda a: a[None], p))(pair)  # not re-checked
    assert out.x.shape == (1, 2, 3)
