"""check_shapes=True: shapes and dtypes checked when a user builds an instance (issue 10).

Real arrays throughout; the transformations (jit, vmap, scan, grad, tree_map) are run for
real, with shapes that a check on unflatten would reject, so a check that ran there fails
the test.
"""

# jaxtyping's shape strings ("b n", "n") are not forward references:
# ruff: noqa: F722, F821, UP037
from __future__ import annotations

import re
from typing import Annotated, Any, Optional

import jax
import jax.numpy as jnp
import jaxdc as jdc
import numpy as np
import pytest
from jaxtyping import Array, Bool, Float, Int, Integer, Key, Shaped, UInt8


@jdc.pytree_dataclass(check_shapes=True)
class Batch:
    x: Float[Array, "b n"]
    y: Float[Array, "b n"]


@jdc.pytree_dataclass(check_shapes=True)
class Seq:
    tokens: Int[Array, "*batch t"]
    mask: Bool[Array, "*batch t"]
    emb: Float[Array, "t d"]
    step: Int[Array, ""]


def f32(*shape: int) -> jax.Array:
    return jnp.zeros(shape, jnp.float32)


def i32(*shape: int) -> jax.Array:
    return jnp.zeros(shape, jnp.int32)


def raises(message: str) -> Any:
    """pytest.raises for a ShapeError whose message is exactly `message`."""
    return pytest.raises(jdc.ShapeError, match=f"^{re.escape(message)}$")


# --- the error texts ---------------------------------------------------------------------


def test_dimension_conflict_names_field_class_annotation_value_and_earlier_binding() -> None:
    with raises(
        "field 'y' of class 'Batch': dimension 'b' is 5 here but 4 from field 'x' "
        '(Float[Array, "b n"], got f32[4,3])'
    ):
        Batch(f32(4, 3), f32(5, 3))


def test_shape_error_is_a_public_value_error() -> None:
    assert issubclass(jdc.ShapeError, ValueError)
    assert issubclass(jdc.ShapeError, AssertionError)  # what jax_dataclasses raised
    with pytest.raises(
        ValueError,
        match=r"field 'y' of class 'Batch': dimension 'n' is 2 here but 3 from field 'x'",
    ):
        Batch(f32(4, 3), f32(4, 2))


@pytest.mark.parametrize(
    ("y", "message"),
    [
        (
            i32(4, 3),
            "field 'y' of class 'Batch': dtype int32 is not Float "
            '(Float[Array, "b n"], got i32[4,3])',
        ),
        (
            f32(4, 3, 1),
            "field 'y' of class 'Batch': expected 2 dimensions, got 3 "
            '(Float[Array, "b n"], got f32[4,3,1])',
        ),
        (
            f32(4, 2),
            "field 'y' of class 'Batch': dimension 'n' is 2 here but 3 from field 'x' "
            '(Float[Array, "b n"], got f32[4,3])',
        ),
        (
            np.zeros((5, 3), np.float32),
            "field 'y' of class 'Batch': dimension 'b' is 5 here but 4 from field 'x' "
            '(Float[Array, "b n"], got f32[4,3])',
        ),
        (
            1.5,
            "field 'y' of class 'Batch': expected 2 dimensions, got 0 "
            '(Float[Array, "b n"], got float 1.5)',
        ),
    ],
)
def test_error_texts(y: Any, message: str) -> None:
    with raises(message):
        Batch(f32(4, 3), y)


def test_fixed_size_and_same_field_conflicts() -> None:
    @jdc.pytree_dataclass(check_shapes=True)
    class Square:
        m: Float[Array, "n n"]
        rgb: Float[Array, "h 3"]

    with raises(
        "field 'm' of class 'Square': dimension 'n' is 3 at axis 1 but 2 at axis 0 "
        '(Float[Array, "n n"], got f32[2,3])'
    ):
        Square(f32(2, 3), f32(5, 3))
    with raises(
        "field 'rgb' of class 'Square': axis 1 is 4, expected 3 "
        '(Float[Array, "h 3"], got f32[5,4])'
    ):
        Square(f32(2, 2), f32(5, 4))


def test_variadic_conflict_and_minimum_rank() -> None:
    with raises(
        "field 'mask' of class 'Seq': dimensions '*batch' are (3,) here but (2,) from field "
        "'tokens' (Int[Array, \"*batch t\"], got i32[2,7])"
    ):
        Seq(i32(2, 7), jnp.zeros((3, 7), bool), f32(7, 4), i32())
    with raises(
        "field 'tokens' of class 'Seq': expected at least 1 dimension, got 0 "
        '(Int[Array, "*batch t"], got i32[])'
    ):
        Seq(i32(), jnp.zeros((3, 7), bool), f32(7, 4), i32())


def test_python_scalar_dtype_is_named() -> None:
    @jdc.pytree_dataclass(check_shapes=True)
    class Counter:
        n: Int[Array, ""]

    Counter(3)  # a Python int is an integer scalar
    with raises(
        "field 'n' of class 'Counter': dtype float (a Python float) is not Int "
        '(Int[Array, ""], got float 2.5)'
    ):
        Counter(2.5)


# --- bindings: one set of names per instance -----------------------------------------------


def test_dims_returns_the_bindings() -> None:
    s = Seq(i32(8, 5), jnp.ones((8, 5), bool), f32(5, 16), i32())
    assert jdc.dims(s) == {"t": 5, "d": 16, "batch": (8,)}
    assert jdc.dims(Batch(f32(4, 3), f32(4, 3))) == {"b": 4, "n": 3}


def test_dims_on_a_class_without_checks_is_a_type_error() -> None:
    @jdc.pytree_dataclass
    class Plain:
        x: Float[Array, "n"]

    with pytest.raises(TypeError, match=r"class 'Plain' has none\. Fix: .*check_shapes=True"):
        jdc.dims(Plain(f32(3)))
    with pytest.raises(
        TypeError,
        match=r"jaxdc\.dims\(\) needs an instance of a jaxdc class declared with check_shapes=True, got an instance of 'object'",
    ):
        jdc.dims(object())


def test_names_are_scoped_per_instance_not_shared_with_nested_instances() -> None:
    @jdc.pytree_dataclass(check_shapes=True)
    class Outer:
        inner: Batch
        z: Float[Array, "b"]

    inner = Batch(f32(4, 3), f32(4, 3))
    outer = Outer(inner, f32(7))  # 'b' of Outer is not 'b' of inner
    assert jdc.dims(outer) == {"b": 7}


def test_symbolic_dimensions_and_field_order() -> None:
    @jdc.pytree_dataclass(check_shapes=True)
    class Padded:
        padded: Float[Array, "n+2"]  # uses n before the field that binds it
        x: Float[Array, "n"]
        pairs: Float[Array, "n*(n-1)//2"]

    Padded(f32(5), f32(3), f32(3))
    with raises(
        "field 'padded' of class 'Padded': dimension 'n+2' is 4 here but 5 (n=3) "
        '(Float[Array, "n+2"], got f32[4])'
    ):
        Padded(f32(4), f32(3), f32(3))


def test_fstring_dimensions_read_static_fields() -> None:
    @jdc.pytree_dataclass(check_shapes=True)
    class Grid:
        size: jdc.Static[int]
        cells: Float[Array, "{size} {size}"]

    Grid(3, f32(3, 3))
    with pytest.raises(jdc.ShapeError, match=r"dimension '\{size\}' is 2 here but 3"):
        Grid(3, f32(2, 3))


def test_broadcastable_anonymous_and_documentation_names() -> None:
    @jdc.pytree_dataclass(check_shapes=True)
    class Broad:
        a: Float[Array, "#b c"]
        b: Float[Array, "#b _ rows=4"]
        c: Shaped[Array, "..."]

    Broad(f32(1, 3), f32(5, 9, 4), i32(2, 2, 2))
    Broad(f32(5, 3), f32(1, 9, 4), jnp.zeros(()))
    with pytest.raises(jdc.ShapeError, match="dimension 'b' is 6 here but 5 from field 'a'"):
        Broad(f32(5, 3), f32(6, 9, 4), i32())
    with pytest.raises(jdc.ShapeError, match="axis 2 is 3, expected 4"):
        Broad(f32(5, 3), f32(5, 9, 3), i32())


def test_broadcastable_variadic_dimensions() -> None:
    @jdc.pytree_dataclass(check_shapes=True)
    class Pair:
        a: Float[Array, "#*batch n"]
        b: Float[Array, "#*batch n"]

    Pair(f32(1, 4, 2), f32(3, 1, 2))
    assert jdc.dims(Pair(f32(1, 4, 2), f32(3, 1, 2))) == {"n": 2, "batch": (3, 4)}
    with pytest.raises(jdc.ShapeError, match=r"which do not broadcast with \(2,\) from field 'a'"):
        Pair(f32(2, 2), f32(3, 2))


# --- dtypes --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("annotation", "good", "bad"),
    [
        (Float[Array, "n"], [jnp.float32, jnp.bfloat16, jnp.float16], [jnp.int32, bool]),
        (Int[Array, "n"], [jnp.int8, jnp.int32], [jnp.uint8, jnp.float32]),  # Int: signed
        (Integer[Array, "n"], [jnp.int8, jnp.uint8], [jnp.float32]),
        (UInt8[Array, "n"], [jnp.uint8], [jnp.uint16, jnp.int8]),
        (Bool[Array, "n"], [bool], [jnp.int32]),
        (Shaped[Array, "n"], [bool, jnp.int32, jnp.complex64], []),
        (Annotated[jax.Array, jnp.integer], [jnp.int32, jnp.uint8], [jnp.float32]),
        (Annotated[jax.Array, jnp.floating, (3,)], [jnp.float32, jnp.bfloat16], [jnp.int32]),
        (Annotated[jax.Array, jnp.float32], [jnp.float32], [jnp.float16]),
        (Annotated[jax.Array, float], [jnp.float32, jnp.float16], [jnp.int32]),
    ],
)
def test_dtype_categories(annotation: Any, good: list[Any], bad: list[Any]) -> None:
    @jdc.pytree_dataclass(check_shapes=True)
    class One:
        x: annotation  # type: ignore[valid-type]

    for dtype in good:
        One(jnp.zeros(3, dtype))
    for dtype in bad:
        with pytest.raises(jdc.ShapeError, match="dtype"):
            One(jnp.zeros(3, dtype))


def test_prng_keys() -> None:
    @jdc.pytree_dataclass(check_shapes=True)
    class Rng:
        key: Key[Array, ""]

    Rng(jax.random.key(0))
    with pytest.raises(jdc.ShapeError, match="dtype uint32 is not Key"):
        Rng(jnp.zeros((), jnp.uint32))


# --- jax_dataclasses' Annotated form -------------------------------------------------------


def test_annotated_form_shares_leading_batch_axes() -> None:
    @jdc.pytree_dataclass(check_shapes=True)
    class Points:
        xyz: Annotated[jax.Array, (..., 50, 3), jnp.floating]
        ids: Annotated[jax.Array, jnp.integer, (50,)]  # `...` implied, any order

    p = Points(f32(2, 7, 50, 3), i32(2, 7, 50))
    assert jdc.dims(p) == {"...": (2, 7)}
    with raises(
        "field 'ids' of class 'Points': batch axes are (2,) here but (2, 7) from field 'xyz' "
        "(Annotated[Array, (..., 50, 3), floating], got f32[2,7,50,3])"
    ):
        Points(f32(2, 7, 50, 3), i32(2, 50))
    with raises(
        "field 'xyz' of class 'Points': axis 2 is 4, expected 3 "
        "(Annotated[Array, (..., 50, 3), floating], got f32[2,50,4])"
    ):
        Points(f32(2, 50, 4), i32(2, 50))


def test_annotated_form_without_shape_checks_only_the_dtype() -> None:
    @jdc.pytree_dataclass(check_shapes=True)
    class Image:
        pixels: Annotated[jax.Array, jnp.floating]
        doc: Annotated[jax.Array, "free-form metadata is ignored"]

    Image(f32(2, 3, 4), i32(9))
    with pytest.raises(jdc.ShapeError, match="dtype int32 is not floating"):
        Image(i32(2), i32(9))


# --- which values are checked --------------------------------------------------------------


def test_non_array_leaves_follow_the_documented_rule() -> None:
    @jdc.pytree_dataclass(check_shapes=True)
    class Maybe:
        x: Float[Array, "n"]
        y: Optional[Float[Array, "n"]] = None  # noqa: UP045 - both spellings are read

    Maybe(f32(3))  # None skips
    Maybe(f32(3), None)
    spec = jax.ShapeDtypeStruct((3,), jnp.float32)
    Maybe(spec, spec)  # checked like arrays
    with pytest.raises(jdc.ShapeError, match="dimension 'n' is 4 here but 3"):
        Maybe(spec, jax.ShapeDtypeStruct((4,), jnp.float32))
    sharding = jax.sharding.SingleDeviceSharding(jax.devices()[0])
    Maybe(sharding, sharding)  # neither an array nor a scalar: skipped
    Maybe(np.zeros(3, np.float32), jnp.zeros(3))  # NumPy arrays are checked like JAX's
    with pytest.raises(
        jdc.ShapeError,
        match=r"field 'y' of class 'Maybe': dimension 'n' is 2 here but 3 from field 'x'",
    ):
        Maybe(np.zeros(3, np.float32), np.zeros(2, np.float32))


def test_unions_of_array_annotations() -> None:
    @jdc.pytree_dataclass(check_shapes=True)
    class Either:
        x: Float[Array, "n"] | Int[Array, "n m"]
        y: Float[Array, "n"] | float

    Either(f32(3), f32(3))
    Either(i32(3, 2), 1.5)
    with raises(
        "field 'x' of class 'Either': i32[3] matches none of its alternatives "
        '(Float[Array, "n"]: dtype int32 is not Float; '
        'Int[Array, "n m"]: expected 2 dimensions, got 1)'
    ):
        Either(i32(3), 1.5)


def test_fields_without_shape_annotations_are_not_checked() -> None:
    @jdc.pytree_dataclass(check_shapes=True)
    class Mixed:
        x: Float[Array, "n"]
        w: jax.Array
        tree: dict[str, jax.Array]
        name: jdc.Static[str] = "m"

    Mixed(f32(3), i32(9, 9), {"a": f32(1)})


# --- opting in -----------------------------------------------------------------------------


def test_off_by_default_and_both_spellings_on() -> None:
    @jdc.pytree_dataclass
    class Off:
        x: Float[Array, "b"]
        y: Float[Array, "b"]

    Off(f32(2), f32(3))  # not checked

    class OnNode(jdc.PyTreeNode, check_shapes=True):
        x: Float[Array, "b"]
        y: Float[Array, "b"]

    with pytest.raises(jdc.ShapeError, match="class 'OnNode'"):
        OnNode(f32(2), f32(3))


def test_check_shapes_is_inherited_and_can_be_turned_off() -> None:
    @jdc.pytree_dataclass
    class Child(Batch):
        z: Float[Array, "n"]

    with pytest.raises(jdc.ShapeError, match="field 'z' of class 'Child'"):
        Child(f32(4, 3), f32(4, 3), f32(2))

    @jdc.pytree_dataclass(check_shapes=False)
    class Loose(Batch):
        pass

    Loose(f32(4, 3), f32(5, 3))

    class Node(jdc.PyTreeNode, check_shapes=True):
        x: Float[Array, "b"]

    class SubNode(Node):
        y: Float[Array, "b"]

    with pytest.raises(jdc.ShapeError, match="class 'SubNode'"):
        SubNode(f32(2), f32(3))


def test_option_must_be_a_bool() -> None:
    with pytest.raises(TypeError, match=r"check_shapes=\.\.\.\) takes True or False"):
        jdc.pytree_dataclass(check_shapes="yes")


def test_custom_init_and_post_init_are_checked_once_finished() -> None:
    @jdc.pytree_dataclass(check_shapes=True)
    class Derived:
        x: Float[Array, "n"]
        sq: Float[Array, "n n"] = jdc.field(init=False, pytree=True)

        def __post_init__(self) -> None:
            object.__setattr__(self, "sq", jnp.outer(self.x, self.x))

    assert Derived(f32(3)).sq.shape == (3, 3)

    @jdc.pytree_dataclass(check_shapes=True)
    class Custom:
        x: Float[Array, "n"]
        y: Float[Array, "n"]

        def __init__(self, n: int, m: int) -> None:
            self.x = f32(n)
            self.y = f32(m)

    Custom(2, 2)
    with pytest.raises(jdc.ShapeError, match="field 'y' of class 'Custom'"):
        Custom(2, 3)


# --- when checks run -----------------------------------------------------------------------


def test_replace_is_checked() -> None:
    b = Batch(f32(4, 3), f32(4, 3))
    assert jdc.replace(b, y=f32(4, 3)).y.shape == (4, 3)
    with raises(
        "field 'y' of class 'Batch': dimension 'b' is 2 here but 4 from field 'x' "
        '(Float[Array, "b n"], got f32[4,3])'
    ):
        jdc.replace(b, y=f32(2, 3))
    assert jdc.replace(b, x=f32(2, 3), y=f32(2, 3)).x.shape == (2, 3)  # consistent change


def test_from_state_dict_is_checked() -> None:
    b = Batch(f32(4, 3), f32(4, 3))
    restored = jdc.from_state_dict(b, {"x": jnp.ones((4, 3)), "y": jnp.ones((4, 3))})
    assert float(restored.x.sum()) == 12.0
    # A target that never went through __init__ (built by unflatten) with mismatched shapes:
    odd = jax.tree.unflatten(jax.tree.structure(b), [f32(4, 3), f32(2, 3)])
    with pytest.raises(jdc.ShapeError, match="field 'y' of class 'Batch'"):
        jdc.from_state_dict(odd, jdc.to_state_dict(odd))


def test_copy_and_mutate_results_are_checked_with_validate() -> None:
    @jdc.pytree_dataclass
    class Holder:
        batch: Batch
        others: list[Batch]

    good = Batch(f32(4, 3), f32(4, 3))
    holder = Holder(good, [good])
    with jdc.copy_and_mutate(holder) as new:
        new.others[0].x = jnp.ones((4, 3))
    assert float(new.others[0].x.sum()) == 12.0
    # A node made by unflatten with mismatched shapes: its edited copy is checked ...
    odd = jax.tree.unflatten(jax.tree.structure(good), [f32(4, 3), f32(2, 3)])
    with pytest.raises(jdc.ShapeError, match="field 'y' of class 'Batch'"):
        with jdc.copy_and_mutate(Holder(odd, [])) as new:
            new.batch.x = jnp.ones((4, 3))
    with pytest.raises(jdc.ShapeError, match="field 'y' of class 'Batch'"):
        with jdc.copy_and_mutate(odd) as root:
            root.x = jnp.ones((4, 3))
    # ... unless validation is off, as for every other copy_and_mutate check.
    with jdc.copy_and_mutate(odd, validate=False) as root:
        root.x = jnp.ones((4, 3))


def test_construction_inside_jit_is_checked_against_traced_shapes() -> None:
    def build(x: jax.Array) -> Batch:
        return Batch(x, x[:2])

    with pytest.raises(jdc.ShapeError, match="dimension 'b' is 2 here but 4"):
        jax.jit(build)(f32(4, 3))
    assert jax.jit(lambda x: Batch(x, x * 2))(f32(4, 3)).y.shape == (4, 3)


def test_construction_inside_vmap_sees_per_example_shapes() -> None:
    @jdc.pytree_dataclass(check_shapes=True)
    class Row:
        v: Float[Array, "n"]
        w: Float[Array, "n"]

    rows = jax.vmap(lambda v: Row(v, v + 1))(f32(8, 3))  # per example: (3,)
    assert rows.v.shape == (8, 3)  # the batched result is built by unflatten: not checked
    with pytest.raises(jdc.ShapeError, match="dimension 'n' is 2 here but 3"):
        jax.vmap(lambda v: Row(v, v[:2]))(f32(8, 3))


def test_transformations_never_check() -> None:
    """Each transformation below makes instances whose shapes break the annotations (vmap
    and scan slice the batch axis away; tree_map adds one): a check on unflatten would
    raise, so passing shows none ran."""
    b = Batch(f32(4, 3), jnp.ones((4, 3)))
    rows = jax.vmap(lambda r: r)(b)
    assert rows.x.shape == (4, 3)
    seen = []
    jax.vmap(lambda r: seen.append(r.x.shape))(b)
    assert seen == [(3,)]  # the per-example instance has "b n" data of shape (3,)
    scanned = jax.lax.scan(lambda c, r: (c, r), 0, b)[1]
    assert scanned.y.shape == (4, 3)
    grown = jax.tree.map(lambda a: a[None], b)  # rank 3 for "b n"
    assert grown.x.shape == (1, 4, 3)
    traced = jax.jit(lambda r: jax.tree.map(lambda a: a[0], r))(b)
    assert traced.x.shape == (3,)
    grads = jax.grad(lambda r: (r.x * r.y).sum())(b)
    assert isinstance(grads, Batch) and grads.x.shape == (4, 3)
    assert jax.eval_shape(lambda r: jax.tree.map(lambda a: a.T, r), b).x.shape == (3, 4)


def test_scan_carry_of_a_checked_class_and_construction_in_the_body() -> None:
    def body(carry: Batch, x: jax.Array) -> tuple[Batch, jax.Array]:
        new = Batch(carry.x + x, carry.y)  # checked at trace time, against (4, 3)
        return new, new.x.sum()

    carry, sums = jax.lax.scan(body, Batch(f32(4, 3), f32(4, 3)), jnp.ones((5, 4, 3)))
    assert sums.shape == (5,) and carry.x.shape == (4, 3)

    def bad(carry: Batch, x: jax.Array) -> tuple[Batch, None]:
        return Batch(carry.x, x), None

    with pytest.raises(jdc.ShapeError, match="dimension 'n' is 2 here but 3"):
        jax.lax.scan(bad, Batch(f32(4, 3), f32(4, 3)), jnp.ones((5, 4, 2)))


def test_dims_works_on_transformation_outputs() -> None:
    b = Batch(f32(4, 3), f32(4, 3))
    assert jdc.dims(jax.jit(lambda r: r)(b)) == {"b": 4, "n": 3}
    assert jdc.dims(jax.tree.map(lambda a: a[:2], b)) == {"b": 2, "n": 3}
    with pytest.raises(
        jdc.ShapeError, match=r"field 'x' of class 'Batch': expected 2 dimensions, got 3"
    ):
        jdc.dims(jax.tree.map(lambda a: a[None], b))


# --- annotations as users write them -------------------------------------------------------


def test_future_annotations_forward_references_and_local_imports(load_module: Any) -> None:
    module = load_module(
        """
        from __future__ import annotations

        import jax.numpy as jnp
        import jaxdc as jdc


        def make():
            from jaxtyping import Array, Float  # a local import, seen by the checks

            @jdc.pytree_dataclass(check_shapes=True)
            class Tree:
                value: Float[Array, "n"]
                child: Leaf | None = None  # defined below: compiled at first use

            @jdc.pytree_dataclass(check_shapes=True)
            class Leaf:
                w: Float[Array, "n n"]

            return Tree, Leaf
        """
    )
    tree, leaf = module.make()
    tree(f32(3), leaf(f32(2, 2)))
    with pytest.raises(jdc.ShapeError, match="field 'value' of class 'Tree': dtype int32"):
        tree(i32(3))
    with pytest.raises(jdc.ShapeError, match="field 'w' of class 'Leaf'"):
        leaf(f32(2, 3))


def test_a_shape_annotation_naming_an_undefined_type_fails_loudly(load_module: Any) -> None:
    module = load_module(
        """
        from __future__ import annotations
        from typing import TYPE_CHECKING, Optional

        import jaxdc as jdc
        from jaxtyping import Float

        if TYPE_CHECKING:
            from jax import Array

        @jdc.pytree_dataclass(check_shapes=True)
        class Hidden:
            x: Optional[Float[Array, "n"]]
        """
    )
    with pytest.raises(TypeError, match=r"cannot check the shapes of field 'x' .* 'Array'"):
        module.Hidden(f32(2))


def test_malformed_symbolic_dimension_fails_at_class_definition() -> None:
    with pytest.raises(
        TypeError,
        match=r"^field 'x' of class 'Bad': shape \"n\+\(\" is malformed: 'n\+\(' is not a "
        r"valid expression .*\. Fix: ",
    ):

        @jdc.pytree_dataclass(check_shapes=True)
        class Bad:
            x: Float[Array, "n+("]


def test_bad_annotated_form_fails_at_class_definition() -> None:
    with pytest.raises(TypeError, match=r"field 'x' of class 'Bad'.*more than one '\.\.\.'"):

        @jdc.pytree_dataclass(check_shapes=True)
        class Bad:
            x: Annotated[jax.Array, (..., 3, ...)]


# --- the generated fast path accepts exactly what the reference check accepts -------------


def _many() -> Any:
    """A class whose check the fast path handles, with every kind of dimension it does."""

    @jdc.pytree_dataclass(check_shapes=True)
    class Many:
        a: Float[Array, "b n"]
        b: Int[Array, "*batch n 2"]
        c: Float[Array, "... b"]
        d: Shaped[Array, "_ n *rest"]
        e: Float[Array, ""]
        f: Annotated[jax.Array, (..., 2), jnp.floating]
        g: Annotated[jax.Array, (3,), jnp.integer]

    return Many


def test_fast_path_agrees_with_the_reference_check() -> None:
    from jaxdc._shapes_check import bind
    from jaxdc._spec import spec_of

    Many = _many()
    check = spec_of(Many).shape_check
    shapes = Many.__jaxdc_shapes__
    assert check.__name__ == "check"  # the generated one, not the reference
    rng = np.random.default_rng(0)
    valid = Many(f32(1, 1), i32(1, 2), f32(1), i32(1, 1), f32(), f32(2), i32(3))
    treedef = jax.tree.structure(valid)
    dtypes = [np.float32, np.int32, np.uint8]
    outcomes = {True: 0, False: 0}
    for _ in range(600):
        leaves = []
        for _ in range(7):
            shape = tuple(int(s) for s in rng.integers(1, 4, size=rng.integers(0, 4)))
            leaves.append(np.zeros(shape, dtypes[rng.integers(0, 3)]))
        obj = jax.tree.unflatten(treedef, leaves)  # not checked
        try:
            bind(shapes, obj)
            reference = True
        except jdc.ShapeError:
            reference = False
        try:
            check(obj)
            fast = True
        except jdc.ShapeError:
            fast = False
        assert fast == reference, leaves
        outcomes[fast] += 1
    assert outcomes[False] > 0

    # mostly-valid instances, so that acceptance is exercised too
    for _ in range(300):
        b, n = (int(x) for x in rng.integers(1, 4, size=2))
        batch = tuple(int(x) for x in rng.integers(1, 3, size=rng.integers(0, 3)))
        leaves = [
            np.zeros((b, n), np.float32),
            np.zeros((*batch, n, 2), np.int32),
            np.zeros((5, b), np.float32),
            np.zeros((7, n, *batch), bool),
            np.zeros((), np.float32),
            np.zeros((*batch, 2), np.float32),
            np.zeros((*batch, 3), np.uint8 if rng.random() < 0.9 else np.float32),
        ]
        obj = jax.tree.unflatten(treedef, leaves)
        try:
            bind(shapes, obj)
            reference = True
        except jdc.ShapeError:
            reference = False
        try:
            check(obj)
            fast = True
        except jdc.ShapeError:
            fast = False
        assert fast == reference, leaves
        outcomes[fast] += 1
    assert outcomes[True] > 100


def test_constructor_check_agrees_with_the_reference_on_jax_arrays() -> None:
    """The check inlined in `__init__` remembers each field's last accepted dtype and aval,
    and the avals of the last instance it accepted whole: values of changing dtypes and
    shapes, one instance after another (repeating some), are still accepted and rejected
    exactly as the reference check decides."""
    from jaxdc._shapes_check import bind

    Many = _many()
    treedef = jax.tree.structure(
        Many(f32(1, 1), i32(1, 2), f32(1), i32(1, 1), f32(), f32(2), i32(3))
    )
    rng = np.random.default_rng(1)
    good = [jnp.float32, jnp.int32, jnp.float32, jnp.uint8, jnp.float32, jnp.float32, jnp.int32]
    others = [jnp.float32, jnp.int32, jnp.uint8]
    outcomes = {True: 0, False: 0}
    for _ in range(300):
        b, n = (int(x) for x in rng.integers(1, 3, size=2))
        shapes = [(b, n), (n, 2), (2, b), (1, n), (), (2,), (3,)]
        leaves = [
            jnp.zeros(
                shape if rng.random() < 0.95 else (*shape, 1),
                dtype if rng.random() < 0.95 else others[rng.integers(0, 3)],
            )
            for shape, dtype in zip(shapes, good, strict=True)
        ]
        try:
            bind(Many.__jaxdc_shapes__, jax.tree.unflatten(treedef, leaves))
            reference = True
        except jdc.ShapeError:
            reference = False
        try:
            Many(*leaves)
            fast = True
        except jdc.ShapeError:
            fast = False
        assert fast == reference, leaves
        outcomes[fast] += 1
    assert outcomes[True] > 0 and outcomes[False] > 0


def test_jaxtyping_is_optional() -> None:
    """Without jaxtyping, the Annotated form works and jaxdc never imports it."""
    import subprocess
    import sys
    import textwrap

    code = textwrap.dedent(
        """
        import sys
        sys.modules["jaxtyping"] = None  # `import jaxtyping` now fails
        from typing import Annotated
        import jax, jax.numpy as jnp
        import jaxdc as jdc

        @jdc.pytree_dataclass(check_shapes=True)
        class Points:
            xyz: Annotated[jax.Array, (..., 3), jnp.floating]
            ids: Annotated[jax.Array, jnp.integer]

        Points(jnp.zeros((5, 3)), jnp.zeros(5, int))
        try:
            Points(jnp.zeros((5, 2)), jnp.zeros(5, int))
        except jdc.ShapeError as error:
            print(error)
        assert sys.modules["jaxtyping"] is None
        """
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == (
        "field 'xyz' of class 'Points': axis 1 is 2, expected 3 "
        "(Annotated[Array, (..., 3), floating], got f32[5,2])"
    )
