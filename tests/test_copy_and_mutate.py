"""copy_and_mutate: nested edits on a copy, O(edited paths), validated, inside and outside jit."""

from __future__ import annotations

import dataclasses
from typing import Any

import equinox as eqx
import jax
import jax.numpy as jnp
import jaxdc as jdc
import pytest


@jdc.pytree_dataclass(slots=True)
class Leaf:
    w: jax.Array
    tag: jdc.Static[str] = "leaf"

    def doubled(self) -> jax.Array:
        return self.w * 2


@jdc.pytree_dataclass
class Branch:
    x: jax.Array
    a: Any
    b: Any
    name: jdc.Static[str] = "branch"


class Node(jdc.PyTreeNode):
    w: jax.Array
    children: list


@jdc.pytree_dataclass
class Model:
    layers: list
    by_name: dict
    pair: tuple
    head: Leaf


def _tree() -> Branch:
    return Branch(
        jnp.zeros(2),
        Branch(jnp.zeros(2), Leaf(jnp.zeros(3)), Leaf(jnp.ones(3))),
        Leaf(jnp.full(3, 2.0)),
    )


def _model() -> Model:
    return Model(
        [Leaf(jnp.zeros(2)), Leaf(jnp.ones(2))],
        {"k": Leaf(jnp.zeros(3))},
        (Leaf(jnp.zeros(1)), 3),
        Leaf(jnp.zeros(4)),
    )


def test_deep_edit_leaves_input_untouched_and_shares_the_rest() -> None:
    o = _tree()
    before = jax.tree.leaves(o)
    with jdc.copy_and_mutate(o) as new:
        new.a.b.w = jnp.full(3, 9.0)
    assert [x for x in jax.tree.leaves(o)] == before  # same leaf objects: o untouched
    assert float(new.a.b.w[0]) == 9.0 and float(o.a.b.w[0]) == 1.0
    assert new.b is o.b and new.a.a is o.a.a  # untouched subtrees are shared, not copied
    assert new is not o and new.a is not o.a
    assert type(new) is Branch and type(new.a) is Branch and type(new.a.b) is Leaf
    assert jax.tree.structure(new) == jax.tree.structure(o)


def test_results_are_frozen_plain_instances_with_fresh_flatten_cache() -> None:
    o = _tree()
    with jdc.copy_and_mutate(o) as new:
        new.a.x = jnp.ones(2)
    with pytest.raises(
        dataclasses.FrozenInstanceError,
        match=r"cannot assign to field 'x' of 'Branch': jaxdc instances are frozen",
    ):
        new.a.x = jnp.zeros(2)  # type: ignore[misc]
    leaves = jax.tree.leaves(new)
    assert float(leaves[1][0]) == 1.0  # the flatten cache holds the edited value
    assert jax.jit(lambda t: t.a.x * 2)(new).tolist() == [2.0, 2.0]


def test_inside_the_block_views_are_real_instances() -> None:
    o = _model()
    with jdc.copy_and_mutate(o) as new:
        head = new.head
        assert isinstance(head, Leaf) and type(head).__name__ == "Leaf"
        assert head.doubled().tolist() == [0.0] * 4  # methods work
        assert [f.name for f in dataclasses.fields(head)] == ["w", "tag"]
        new.head = jax.tree.map(lambda x: x + 1, head)  # JAX sees views as pytrees
        assert type(new.head) is Leaf


def test_lists_dicts_tuples_of_nodes_and_slots_classes() -> None:
    o = _model()
    with jdc.copy_and_mutate(o) as new:
        new.layers[1].w = jnp.full(2, 5.0)
        new.by_name["k"].w = jnp.full(3, 7.0)
        new.pair[0].w = jnp.full(1, 9.0)
    assert new.layers[1].w.tolist() == [5.0, 5.0] and o.layers[1].w.tolist() == [1.0, 1.0]
    assert new.by_name["k"].w.tolist() == [7.0] * 3 and o.by_name["k"].w.tolist() == [0.0] * 3
    assert new.pair[0].w.tolist() == [9.0] and o.pair[0].w.tolist() == [0.0]
    assert new.layers[0] is o.layers[0] and new.pair[1] == 3
    assert new.layers is not o.layers and new.head is o.head


def test_list_mutation_does_not_touch_the_input_list() -> None:
    o = _model()
    with jdc.copy_and_mutate(o, validate=False) as new:
        new.layers.append(Leaf(jnp.zeros(2)))
    assert len(new.layers) == 3 and len(o.layers) == 2


def test_pytreenode_and_container_root() -> None:
    o = Node(jnp.zeros(1), [Node(jnp.zeros(1), [])])
    with jdc.copy_and_mutate(o) as new:
        new.children[0].w = jnp.ones(1)
    assert new.children[0].w.tolist() == [1.0] and o.children[0].w.tolist() == [0.0]
    items = [Leaf(jnp.zeros(2)), Leaf(jnp.zeros(2))]
    with jdc.copy_and_mutate(items) as new_items:
        new_items[1].w = jnp.ones(2)
    assert new_items[1].w.tolist() == [1.0, 1.0] and items[1].w.tolist() == [0.0, 0.0]


@pytest.mark.parametrize(
    ("edit", "path", "what"),
    [
        (
            lambda n: setattr(n.a.b, "w", jnp.zeros(4)),
            "new.a.b.w",
            "field 'w' of class 'Leaf': shape changed from f32[3] to f32[4]",
        ),
        (
            lambda n: setattr(n.a.b, "w", jnp.zeros(3, jnp.int32)),
            "new.a.b.w",
            "field 'w' of class 'Leaf': dtype changed from f32[3] to i32[3]",
        ),
        (
            lambda n: setattr(n.a, "b", 3.0),
            "new.a.b",
            "field 'b' of class 'Branch': tree structure changed",
        ),
        (
            lambda n: setattr(n.a.b, "tag", "other"),
            "new.a.b.tag",
            "static field 'tag' of class 'Leaf' changed from 'leaf' to 'other'",
        ),
        (
            lambda n: setattr(n, "x", jnp.zeros(5)),
            "new.x",
            "field 'x' of class 'Branch': shape changed",
        ),
    ],
)
def test_validate_names_the_path_and_the_mismatch(edit: Any, path: str, what: str) -> None:
    o = _tree()
    with pytest.raises(ValueError, match="copy_and_mutate") as info:
        with jdc.copy_and_mutate(o) as new:
            edit(new)
    assert f"{path}:" in str(info.value) and what in str(info.value)
    with jdc.copy_and_mutate(o, validate=False) as new:  # allowed when asked for
        edit(new)


def test_validate_in_containers() -> None:
    o = _model()
    with pytest.raises(ValueError, match=r"new\.layers: list length changed from 2 to 3"):
        with jdc.copy_and_mutate(o) as new:
            new.layers.append(Leaf(jnp.zeros(2)))
    with pytest.raises(
        ValueError, match=r"new\.pair\[0\]\.w: field 'w' of class 'Leaf': shape changed"
    ):
        with jdc.copy_and_mutate(o) as new:
            new.pair[0].w = jnp.zeros(2)
    with pytest.raises(
        ValueError, match=r"new\.by_name\['k'\]\.w: field 'w' of class 'Leaf': dtype changed"
    ):
        with jdc.copy_and_mutate(o) as new:
            new.by_name["k"].w = jnp.zeros(3, jnp.int32)


def test_validate_ignores_edits_that_did_not_end_up_in_the_result() -> None:
    o = _tree()
    with jdc.copy_and_mutate(o) as new:
        detached = new.a
        detached.x = jnp.zeros(7)  # wrong shape, but `new.a` is replaced below
        new.a = o.a
    assert new.a is o.a


def test_same_value_edits_pass_validation() -> None:
    o = _tree()
    with jdc.copy_and_mutate(o) as new:
        new.a.b.w = new.a.b.w + 1
        new.a = new.a  # a view assigned back to its own place
    assert new.a.b.w.tolist() == [2.0] * 3


def test_unknown_field_and_late_assignment_errors_name_class_and_field() -> None:
    o = _tree()
    with pytest.raises(AttributeError, match="class 'Leaf' has no pytree field 'wrong'"):
        with jdc.copy_and_mutate(o) as new:
            new.a.b.wrong = 1
    with jdc.copy_and_mutate(o) as new:
        kept = new.a.b
        kept.w = jnp.ones(3) * 4
    assert kept.w.tolist() == [4.0] * 3  # reads the result after the block
    with pytest.raises(
        dataclasses.FrozenInstanceError, match=r"field 'w' of 'Leaf'.*block that has ended"
    ):
        kept.w = jnp.zeros(3)
    with pytest.raises(
        dataclasses.FrozenInstanceError,
        match=r"cannot assign to field 'x' of 'Branch': jaxdc instances are frozen",
    ):
        new.x = jnp.zeros(2)  # type: ignore[misc]  # the root is frozen again too


def test_unhashable_static_is_reported_at_exit() -> None:
    with pytest.raises(TypeError, match="static field 'tag' of class 'Leaf'"):
        with jdc.copy_and_mutate(_tree(), validate=False) as new:
            new.a.b.tag = ["not", "hashable"]


def test_non_jaxdc_input_is_rejected_with_the_fix() -> None:
    with pytest.raises(TypeError, match="copy_and_mutate\\(\\) needs an instance of a jaxdc"):
        jdc.copy_and_mutate({"a": 1}.items())
    with pytest.raises(TypeError, match="pass a list"):
        jdc.copy_and_mutate((Leaf(jnp.zeros(1)),))


def test_an_error_in_the_block_propagates_and_leaves_input_alone() -> None:
    o = _tree()
    with pytest.raises(KeyError, match=r"'boom'"):
        with jdc.copy_and_mutate(o) as new:
            new.a.a.w = jnp.ones(3)
            raise KeyError("boom")
    assert o.a.a.w.tolist() == [0.0] * 3


def test_works_under_jit_vmap_and_grad() -> None:
    o = _tree()

    def bump(t: Branch, s: jax.Array) -> Branch:
        with jdc.copy_and_mutate(t) as new:
            new.a.a.w = new.a.a.w + s
        return new

    assert jax.jit(bump)(o, 1.0).a.a.w.tolist() == [1.0] * 3
    batched = jax.vmap(bump, in_axes=(None, 0))(o, jnp.arange(2.0))
    assert batched.a.a.w.shape == (2, 3)
    g = jax.grad(lambda s: jnp.sum(bump(o, s).a.a.w))(0.0)
    assert float(g) == 3.0


def test_custom_init_class_is_copied_without_calling_init() -> None:
    calls = []

    @jdc.pytree_dataclass
    class Scaled:
        v: jax.Array

        def __init__(self, raw: float) -> None:
            calls.append(raw)
            self.v = jnp.asarray(raw) * 10

    o = Scaled(1.0)
    with jdc.copy_and_mutate(o) as new:
        new.v = jnp.asarray(3.0)
    assert calls == [1.0] and float(new.v) == 3.0 and isinstance(new, Scaled)


def test_attr_setter_works_inside_the_block() -> None:
    o = _tree()
    with jdc.copy_and_mutate(o) as new:
        jdc.attr(new, lambda t: t.a.a.w).set(jnp.ones(3))
    assert new.a.a.w.tolist() == [1.0] * 3 and o.a.a.w.tolist() == [0.0] * 3


def test_root_rejects_unknown_names_too() -> None:
    with pytest.raises(AttributeError, match="class 'Branch' has no pytree field 'nmae'"):
        with jdc.copy_and_mutate(_tree()) as new:
            new.nmae = "x"


def test_replace_of_a_view_inside_the_block_gives_plain_results() -> None:
    o = _tree()
    with jdc.copy_and_mutate(o) as new:
        new.a.b.w = jnp.full(3, 3.0)
        new.b = jdc.replace(new.a.a, tag="leaf")  # a plain instance built from a view
        new.a = jdc.replace(new.a, x=jnp.ones(2))  # holds views of this block
    assert type(new.a) is Branch and type(new.a.b) is Leaf and type(new.b) is Leaf
    assert new.a.b.w.tolist() == [3.0] * 3 and new.a.x.tolist() == [1.0, 1.0]
    assert jax.tree.structure(new) == jax.tree.structure(o)


def test_nested_block_on_an_open_blocks_copy_is_an_error_but_ended_views_are_results() -> None:
    o = _tree()
    with pytest.raises(TypeError, match="'Branch' taken from another copy_and_mutate block"):
        with jdc.copy_and_mutate(o) as outer:
            with jdc.copy_and_mutate(outer.a):
                pass
    with jdc.copy_and_mutate(o) as first:
        kept = first.a
        kept.x = jnp.ones(2)
    with jdc.copy_and_mutate(kept) as second:  # a view kept after its block: its result
        second.b.w = jnp.zeros(3)
    assert type(second) is Branch and second.x.tolist() == [1.0, 1.0]
    assert second.b.w.tolist() == [0.0] * 3 and first.a.b.w.tolist() == [1.0] * 3


def test_jax_and_replace_on_the_root_inside_the_block() -> None:
    o = Node(jnp.zeros(2), [Node(jnp.ones(2), [])])
    with jdc.copy_and_mutate(o) as new:
        new.w = jnp.full(2, 2.0)
        assert [x.tolist() for x in jax.tree.leaves(new)] == [[2.0, 2.0], [1.0, 1.0]]
        doubled = jax.jit(lambda t: jax.tree.map(lambda x: x * 2, t))(new)
        new.children[0].w = doubled.children[0].w
        snapshot = new.replace(w=jnp.zeros(2))  # PyTreeNode.replace on the editable root
    assert new.w.tolist() == [2.0, 2.0] and new.children[0].w.tolist() == [2.0, 2.0]
    assert type(snapshot.children[0]) is Node and snapshot.w.tolist() == [0.0, 0.0]
    assert o.w.tolist() == [0.0, 0.0] and o.children[0].w.tolist() == [1.0, 1.0]


def test_views_work_with_dataclasses_replace_copy_and_equality() -> None:
    import copy

    o = _tree()
    with jdc.copy_and_mutate(o) as new:
        view = new.a
        assert view == o.a  # a view equals its original (same class as far as == is concerned)
        assert type(dataclasses.replace(view, x=jnp.ones(2))) is Branch
        assert type(copy.copy(view)) is Branch and type(copy.deepcopy(view.b)) is Leaf
        view.x = jnp.ones(2)
        assert view != o.a


def test_an_assignment_wins_over_edits_below_the_field_it_replaces() -> None:
    o = _tree()
    with jdc.copy_and_mutate(o) as new:
        new.a.b.w = jnp.full(3, 5.0)  # a new result for `new.a.b`...
        new.a.b = o.a.b  # ...that this assignment puts back to the original
    assert new.a is o.a and new.b is o.b  # nothing changed below the root: all shared
    with jdc.copy_and_mutate(o) as new:
        edited = new.a.b
        edited.w = jnp.full(3, 5.0)
        new.a.b = jdc.replace(o.a.b, w=jnp.full(3, 6.0))
    assert new.a.b.w.tolist() == [6.0] * 3 and edited.w.tolist() == [5.0] * 3


def test_root_children_kept_after_the_block_read_their_results_and_are_frozen() -> None:
    o = _tree()
    with jdc.copy_and_mutate(o) as new:
        untouched = new.b  # never used inside the block
        edited = new.a
        edited.x = jnp.ones(2)
    assert untouched.w.tolist() == [2.0] * 3 and new.b is o.b and type(new.b) is Leaf
    assert edited.x.tolist() == [1.0, 1.0] and new.a.x.tolist() == [1.0, 1.0]
    for kept in (untouched, edited):
        with pytest.raises(dataclasses.FrozenInstanceError, match="block that has ended"):
            kept.tag = "x"  # type: ignore[misc]


def test_root_field_assigned_another_view_and_root_statics() -> None:
    o = _tree()
    with jdc.copy_and_mutate(o) as new:
        new.b = new.a.b  # a view moved to another place: its result goes there
        new.name = "branch"  # an equal static value: not a structure change
    assert new.b is o.a.b and new.a is o.a and new.name == "branch"
    with pytest.raises(ValueError, match=r"new\.name: static field 'name' of class 'Branch'"):
        with jdc.copy_and_mutate(o) as new:
            new.name = "other"


def test_static_edits_below_the_root_rebuild_the_treedef_when_allowed() -> None:
    o = _tree()
    with jdc.copy_and_mutate(o, validate=False) as new:
        new.a.b.tag = "other"
    assert new.a.b.tag == "other" and o.a.b.tag == "leaf"
    assert jax.tree.structure(new) != jax.tree.structure(o)
    assert new.a.b.w is o.a.b.w and new.a.a is o.a.a  # data shared, statics rebuilt


@jdc.pytree_dataclass(slots=True)
class SlotBranch:
    x: jax.Array
    child: Any
    tag: jdc.Static[str] = "slot"


def test_slots_root_with_node_children() -> None:
    o = SlotBranch(jnp.zeros(2), Leaf(jnp.zeros(3)))
    with jdc.copy_and_mutate(o) as new:
        new.child.w = jnp.ones(3)
    assert type(new) is SlotBranch and type(new.child) is Leaf
    assert new.child.w.tolist() == [1.0] * 3 and o.child.w.tolist() == [0.0] * 3
    assert jax.tree.structure(new) == jax.tree.structure(o)
    with pytest.raises(ValueError, match=r"new\.child\.w: field 'w' of class 'Leaf': shape"):
        with jdc.copy_and_mutate(o) as new:
            new.child.w = jnp.ones(4)


# -- validate=True on subtrees with non-array leaves (issue 8 §5) ---------------------------


@jax.custom_jvp
def _soft_sign(x: jax.Array) -> jax.Array:
    return x / (1 + jnp.abs(x))


@_soft_sign.defjvp
def _soft_sign_jvp(primals: Any, tangents: Any) -> Any:
    (x,), (dx,) = primals, tangents
    return _soft_sign(x), dx / (1 + jnp.abs(x)) ** 2


@jdc.pytree_dataclass
class Agent:
    policy: eqx.nn.MLP  # leaves: weights, biases, and its activation functions
    step: jax.Array


def _agent(activation: Any = jax.nn.relu) -> Agent:
    mlp = eqx.nn.MLP(2, 2, 4, 2, activation=activation, key=jax.random.PRNGKey(0))
    return Agent(mlp, jnp.zeros((), jnp.int32))


@pytest.mark.parametrize("activation", [jax.nn.relu, _soft_sign], ids=["relu", "custom_jvp"])
def test_validate_compares_only_array_leaves_of_an_equinox_mlp(activation: Any) -> None:
    o = _agent(activation)
    w = o.policy.layers[0].weight
    with jdc.copy_and_mutate(o) as new:  # validate=True
        new.policy = eqx.tree_at(lambda m: m.layers[0].weight, new.policy, w * 2)
        new.step = new.step + 1
    assert (new.policy.layers[0].weight == w * 2).all() and int(new.step) == 1
    assert new.policy.activation is activation and o.policy.layers[0].weight is w
    out = eqx.filter_jit(lambda a, x: a.policy(x) * a.step)(new, jnp.ones(2))
    assert out.shape == (2,)
    with jdc.copy_and_mutate(o) as new:  # another non-array leaf in its place is fine
        new.policy = eqx.tree_at(lambda m: m.activation, new.policy, jax.nn.gelu)
    assert new.policy.activation is jax.nn.gelu


def test_validate_still_rejects_array_changes_next_to_non_array_leaves() -> None:
    o = _agent(_soft_sign)
    with pytest.raises(
        ValueError, match=r"new\.policy\.layers\[0\]\.weight: field 'policy' of class 'Agent': "
    ) as info:
        with jdc.copy_and_mutate(o) as new:
            new.policy = eqx.tree_at(lambda m: m.layers[0].weight, new.policy, jnp.zeros((4, 3)))
    assert "shape changed from f32[4,2] to f32[4,3]" in str(info.value)
    with pytest.raises(ValueError, match=r"new\.policy\.activation: .*changed from custom_jvp"):
        with jdc.copy_and_mutate(o) as new:
            new.policy = eqx.tree_at(lambda m: m.activation, new.policy, jnp.zeros(3))
    with pytest.raises(ValueError, match=r"new\.policy: .*tree structure changed"):
        with jdc.copy_and_mutate(o) as new:
            new.policy = eqx.nn.MLP(2, 2, 4, 3, key=jax.random.PRNGKey(0))
    assert o.policy.layers[0].weight.shape == (4, 2)  # `o` untouched throughout


# -- a failed exit leaves nothing rejected reachable (issue 11) -----------------------------


def test_an_unhashable_static_is_not_left_in_the_object_the_block_yielded() -> None:
    o = _tree()
    with pytest.raises(TypeError, match="static field 'name' of class 'Branch'"):
        with jdc.copy_and_mutate(o, validate=False) as new:
            kept = new.a
            kept.x = jnp.ones(2)
            new.name = ["not", "hashable"]
    assert new.name == "branch" and new.a is o.a and new.x is o.x  # every edit discarded
    assert kept.x is o.a.x  # a view kept from the failed block reads the original
    assert jax.tree.structure(new) == jax.tree.structure(o)
    hash(jax.tree.structure(new))  # no unhashable static left in the treedef either
    assert jax.jit(lambda t: t.a.x + 1)(new).tolist() == [1.0, 1.0]
    with pytest.raises(
        dataclasses.FrozenInstanceError,
        match=r"cannot assign to field 'name' of 'Branch': jaxdc instances are frozen",
    ):
        new.name = "again"  # type: ignore[misc]


def test_an_unhashable_static_below_the_root_is_not_left_reachable() -> None:
    o = _tree()
    with pytest.raises(TypeError, match="static field 'tag' of class 'Leaf'"):
        with jdc.copy_and_mutate(o, validate=False) as new:
            kept = new.a.b
            kept.tag = {"not": "hashable"}
    assert kept.tag == "leaf" and new.a.b.tag == "leaf" and new.a is o.a
    assert jax.tree.structure(new) == jax.tree.structure(o)


def test_a_validation_error_discards_every_edit() -> None:
    o = _model()
    with pytest.raises(ValueError, match=r"new\.layers\[1\]\.w: field 'w' of class 'Leaf'"):
        with jdc.copy_and_mutate(o) as new:
            layers = new.layers
            layers[1].w = jnp.zeros(7)  # rejected
            new.head.w = jnp.ones(4)  # fine on its own, discarded with the rest
    assert new.layers is o.layers and new.head is o.head
    assert layers == o.layers and layers is not o.layers  # the copy holds the originals again
    assert all(a is b for a, b in zip(layers, o.layers, strict=True))
    assert jax.tree.map(jnp.shape, new) == jax.tree.map(jnp.shape, o)


# -- plain assignment in a block: the idioms of issue 9, under jit and vmap ----------------


@jdc.pytree_dataclass
class Encoder:
    w: jax.Array
    b: jax.Array


@jdc.pytree_dataclass
class Params:
    encoder: Encoder


@jdc.pytree_dataclass
class TrainState:
    params: Params
    layers: list
    step: jax.Array


def _state() -> TrainState:
    enc = Encoder(jnp.ones((2, 2)), jnp.zeros(2))
    return TrainState(
        Params(enc), [Encoder(jnp.ones((2, 2)), jnp.zeros(2))], jnp.zeros((), jnp.int32)
    )


def _update(s: TrainState, w2: jax.Array) -> TrainState:
    with jdc.copy_and_mutate(s) as new:
        new.params.encoder.w = w2
        new.layers[0].b = new.layers[0].b + 1
        new.step = new.step + 1
    return new


def test_plain_assignment_idioms_work_eagerly_under_jit_and_under_vmap() -> None:
    s = _state()
    w2 = jnp.full((2, 2), 3.0)
    for new in (_update(s, w2), jax.jit(_update)(s, w2)):
        assert type(new) is TrainState and type(new.params.encoder) is Encoder
        assert new.params.encoder.w.tolist() == [[3.0, 3.0]] * 2
        assert new.layers[0].b.tolist() == [1.0, 1.0] and int(new.step) == 1
        assert s.params.encoder.w.tolist() == [[1.0, 1.0]] * 2 and int(s.step) == 0
        assert jax.tree.structure(new) == jax.tree.structure(s)
    batched = jax.vmap(_update, in_axes=(None, 0))(s, jnp.stack([w2, w2 * 2]))
    assert batched.params.encoder.w.shape == (2, 2, 2) and batched.step.tolist() == [1, 1]
    again = jax.jit(_update)(jax.jit(_update)(s, w2), w2)  # results feed jit again
    assert int(again.step) == 2 and again.layers[0].b.tolist() == [2.0, 2.0]
    loss = jax.grad(lambda w: jnp.sum(_update(s, w).params.encoder.w ** 2))(w2)
    assert loss.tolist() == [[6.0, 6.0]] * 2
