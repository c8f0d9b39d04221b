"""The statics a treedef holds print with their class and field names (issue 17, part 1).

JAX writes a node's metadata with `repr` into its cache-miss explanations and into every
structure-mismatch error; these tests run the real transformations with a static field
changed and read the exact text. Equality, hashing and pickling stay the plain tuple's.
"""

from __future__ import annotations

import logging
import pickle
import warnings
from collections.abc import Callable
from typing import Any

import jax
import jax.export  # older jax (0.4.36) does not import its export module by itself
import jax.numpy as jnp
import jaxdc
import jaxdc._metadata
import pytest
from jax import lax
from jaxdc.compat import flax_struct


@jaxdc.pytree_dataclass
class Opt:
    w: jax.Array
    lr: jaxdc.Static[float]
    name: jaxdc.Static[str] = "a"


@jaxdc.pytree_dataclass(slots=True)
class Slotted:
    w: jax.Array
    lr: jaxdc.Static[float]


def _statics(obj: Any) -> Any:
    """The statics tuple an instance hands to JAX (its flatten cache's second item)."""
    return jax.tree_util.tree_flatten(obj)[1].node_data()[1]  # type: ignore[index]


def _changed(o: Opt) -> Opt:
    return jaxdc.replace(o, lr=0.2)


OLD, NEW = "Opt(lr=0.1, name='a')", "Opt(lr=0.2, name='a')"
_NEWEST_WORDING = tuple(int(p) for p in jax.__version__.split(".")[:2]) >= (0, 10)


def test_a_treedef_prints_class_and_field_names() -> None:
    assert str(jax.tree.structure(Opt(jnp.ones(2), 0.1))) == (
        f"PyTreeDef(CustomNode(Opt[{OLD}], [*]))"
    )
    assert str(jax.tree.structure(Slotted(jnp.ones(2), 0.1))) == (
        "PyTreeDef(CustomNode(Slotted[Slotted(lr=0.1)], [*]))"
    )


def test_every_way_of_making_an_instance_gives_the_named_metadata() -> None:
    a = Opt(jnp.ones(2), 0.1)
    made = {
        "replace": jaxdc.replace(a, w=jnp.zeros(2)),
        "replace static": jaxdc.replace(Opt(jnp.ones(2), 0.3), lr=0.1),
        "unflatten": jax.tree.map(lambda x: x, a),
        "jit output": jax.jit(lambda o: o)(a),
        "pickle": pickle.loads(pickle.dumps(a)),
    }
    with jaxdc.copy_and_mutate(Opt(jnp.ones(2), 0.3), validate=False) as edited:
        edited.lr = 0.1  # type: ignore[misc]
    made["copy_and_mutate"] = edited
    for how, obj in made.items():
        assert repr(jax.tree.structure(obj)) == f"PyTreeDef(CustomNode(Opt[{OLD}], [*]))", how


def test_equality_and_hash_are_the_plain_tuples() -> None:
    """So a treedef holding a plain tuple (made before this change, or by hand) equals one
    holding the named metadata: JAX compares node metadata with `==`."""
    meta = _statics(Opt(jnp.ones(2), 0.1))
    assert isinstance(meta, tuple) and meta == (0.1, "a") and (0.1, "a") == meta
    assert hash(meta) == hash((0.1, "a")) and meta != (0.2, "a")
    assert repr(meta) == OLD
    assert type(meta).__mro__[1:] == (jaxdc._metadata.StaticMetadata, tuple, object)


def test_the_same_static_values_share_one_metadata_object() -> None:
    """Construction reuses the last statics tuple when every value is the same object, so
    jit compares the treedefs by identity; a different value gets a new tuple."""
    a, b = Opt(jnp.ones(2), 0.1), Opt(jnp.zeros(2), 0.1)
    assert _statics(a) is _statics(b)
    c = Opt(jnp.ones(2), 0.7)
    assert _statics(c) == (0.7, "a") and _statics(c) is not _statics(a)


def test_equal_but_different_static_values_are_never_merged() -> None:
    """`1 == True` in Python: reusing by equality would turn a field's `1` into `True`."""

    @jaxdc.pytree_dataclass
    class Flag:
        on: jaxdc.Static[object]

    Flag(1)
    assert jax.tree.map(lambda x: x, Flag(True)).on is True
    assert repr(jax.tree.structure(Flag(True))) == "PyTreeDef(CustomNode(Flag[Flag(on=True)], []))"


def test_an_unhashable_static_is_still_refused_by_name() -> None:
    @jaxdc.pytree_dataclass
    class Holder:
        v: jaxdc.Static[Any]

    Holder(1)
    with pytest.raises(
        TypeError, match="static field 'v' of class 'Holder' got a value of type 'list'"
    ):
        Holder([1])


def test_a_treedef_pickles_with_its_names() -> None:
    treedef = jax.tree.structure(Opt(jnp.ones(2), 0.1))
    again = pickle.loads(pickle.dumps(treedef))
    assert again == treedef and repr(again) == repr(treedef)


def test_jax_export_serializes_the_treedef() -> None:
    if not hasattr(jax.export, "register_pytree_node_serialization"):
        pytest.skip("this jax cannot serialize custom pytree nodes")
    pytest.importorskip("flatbuffers")  # what jax.export's serialization needs
    jax.export.register_pytree_node_serialization(
        Opt,
        serialized_name="tests.test_named_metadata.Opt",
        serialize_auxdata=pickle.dumps,
        deserialize_auxdata=pickle.loads,
    )
    exported = jax.export.export(jax.jit(lambda o: o))(Opt(jnp.ones(2), 0.1))
    back = jax.export.deserialize(exported.serialize())
    assert back.in_tree == exported.in_tree
    assert back.call(Opt(jnp.ones(2), 0.1)).lr == 0.1


def _carry_mismatch(kind: str) -> str:
    return (
        f"{kind} is a <class '{__name__}.Opt'> with pytree metadata {OLD} but the "
        f"corresponding component of the carry output is a <class '{__name__}.Opt'> with "
        f"pytree metadata {NEW}, so the pytree node metadata does not match."
    )


def _branch_mismatch(first: str, second: str) -> str:
    return (
        f"{first} output is a <class '{__name__}.Opt'> with pytree metadata {OLD} but "
        f"{second} output is a <class '{__name__}.Opt'> with pytree metadata {NEW}, so the "
        "pytree node metadata does not match."
    )


A = Opt(jnp.ones(2), 0.1)


def _custom_vjp() -> Any:
    @jax.custom_vjp
    def f(o: Opt) -> Opt:
        return o

    f.defvjp(lambda o: (o, None), lambda _, g: (_changed(g),))
    return jax.grad(lambda o: f(o).w.sum())(A)


MISMATCHES: dict[str, tuple[Callable[[], Any], str]] = {
    "scan": (
        lambda: lax.scan(lambda c, x: (_changed(c), x), A, jnp.arange(2)),
        _carry_mismatch("The input carry c"),
    ),
    "while_loop": (
        lambda: lax.while_loop(lambda c: False, _changed, A),
        _carry_mismatch("The input carry o"),
    ),
    "fori_loop": (
        lambda: lax.fori_loop(0, 2, lambda i, c: _changed(c), A),
        _carry_mismatch("The input carry component loop_carry[1]"),
    ),
    "cond": (
        lambda: lax.cond(True, lambda: A, lambda: _changed(A)),
        _branch_mismatch("true_fun", "false_fun"),
    ),
    "switch": (
        lambda: lax.switch(0, [lambda: A, lambda: _changed(A)]),
        _branch_mismatch("branch 0", "branch1"),
    ),
    "tree_map": (
        lambda: jax.tree.map(lambda x, y: x, A, _changed(A)),
        f"with metadata\n    {OLD}\nbut at the same key path the full pytree has a subtree "
        f"of the same type but with metadata\n    {NEW}\n",
    ),
    "custom_vjp": (
        _custom_vjp,
        f"got bwd output structure PyTreeDef((CustomNode(Opt[{NEW}], [*]),)) for primal "
        f"input structure PyTreeDef((CustomNode(Opt[{OLD}], [*]),))",
    ),
}


_CARRY_TRANSFORMS = ("scan", "while_loop", "fori_loop")


@pytest.mark.parametrize("transform", list(MISMATCHES))
def test_structure_mismatch_errors_name_class_and_field(transform: str) -> None:
    run, expected = MISMATCHES[transform]
    with pytest.raises((TypeError, ValueError)) as caught:
        run()
    if _NEWEST_WORDING:
        # JAX's own sentence as the newest jax writes it
        assert expected in str(caught.value)
    elif transform in _CARRY_TRANSFORMS:
        # jax 0.4.36 passes a lone carry difference through str.capitalize, which
        # lowercases the rest of its sentence, our repr included ("opt(lr=0.1, ...)");
        # its text still names the class and the field
        assert expected.capitalize() in str(caught.value)
    else:
        # older jax words the sentence differently, but shows both metadata with repr
        assert OLD in str(caught.value) and NEW in str(caught.value)


def test_jax_cache_miss_explanation_names_class_and_field(
    caplog: pytest.LogCaptureFixture,
) -> None:
    if not _NEWEST_WORDING:
        pytest.skip("older JAX explains cache misses without the node metadata")
    f = jax.jit(lambda o: o.w * 2)
    f(Opt(jnp.ones(2), 0.1))
    jax.config.update("jax_explain_cache_misses", True)
    try:
        with caplog.at_level(logging.WARNING):
            f(Opt(jnp.ones(2), 0.2))
    finally:
        jax.config.update("jax_explain_cache_misses", False)
    assert (
        f"* at input path [0][0], now <class '{__name__}.Opt'> with pytree metadata {NEW} and "
        f"before <class '{__name__}.Opt'> with pytree metadata {OLD}, so the pytree node "
        "metadata does not match"
    ) in caplog.text


def test_statics_the_migration_path_accepts_unhashable_print_their_names_too() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", jaxdc.MigrationWarning)

        @flax_struct.dataclass
        class Grid:
            walls: jax.Array
            colors: dict[str, int] = flax_struct.field(pytree_node=False)

        grid = Grid(jnp.ones(2), {"red": 0})
    assert str(jax.tree.structure(grid)) == (
        "PyTreeDef(CustomNode(Grid[Grid(colors={'red': 0})], [*]))"
    )
