"""State dicts keyed by field names; flax.serialization without importing flax; orbax."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any, NamedTuple

import jax
import jax.numpy as jnp
import jaxdc as jdc
import numpy as np
import pytest


@jdc.pytree_dataclass
class Layer:
    w: jax.Array
    b: jax.Array
    act: jdc.Static[str] = "relu"


class Pair(NamedTuple):
    left: Any
    right: Any


@jdc.pytree_dataclass
class Model:
    layers: list
    named: dict
    pair: Pair
    step: jax.Array


def _model(value: float = 0.0) -> Model:
    return Model(
        [
            Layer(jnp.full((2, 3), value), jnp.full(3, value)),
            Layer(jnp.full((3, 1), value), jnp.full(1, value)),
        ],
        {"emb": jnp.full(4, value)},
        Pair(jnp.full(1, value), 3),
        jnp.asarray(7, jnp.int32),
    )


def test_state_dict_is_keyed_by_field_names_without_static_fields() -> None:
    state = jdc.to_state_dict(_model(1.0))
    assert list(state) == ["layers", "named", "pair", "step"]
    assert list(state["layers"]) == ["0", "1"] and list(state["layers"]["0"]) == ["w", "b"]
    assert list(state["pair"]) == ["left", "right"] and state["pair"]["right"] == 3
    assert "act" not in state["layers"]["0"]  # static: comes from the target on restore
    assert state["named"]["emb"].tolist() == [1.0] * 4


def test_round_trip_restores_leaves_and_keeps_target_statics() -> None:
    target = jdc.replace(
        _model(),
        layers=[
            Layer(jnp.zeros((2, 3)), jnp.zeros(3), act="gelu"),
            Layer(jnp.zeros((3, 1)), jnp.zeros(1)),
        ],
    )
    state = jdc.to_state_dict(_model(2.0))
    restored = jdc.from_state_dict(target, state)
    assert type(restored) is Model and type(restored.pair) is Pair
    assert restored.layers[0].w.tolist() == [[2.0] * 3] * 2 and restored.layers[0].act == "gelu"
    assert jax.tree.structure(restored) == jax.tree.structure(target)
    assert float(jax.jit(lambda m: m.named["emb"].sum())(restored)) == 8.0


def test_lists_in_the_state_are_accepted_for_list_fields() -> None:
    state = jdc.to_state_dict(_model(1.0))
    state["layers"] = [state["layers"]["0"], state["layers"]["1"]]
    assert jdc.from_state_dict(_model(), state).layers[1].b.tolist() == [1.0]


def test_restore_does_not_run_init_or_post_init() -> None:
    calls = []

    @jdc.pytree_dataclass
    class Checked:
        x: jax.Array

        def __post_init__(self) -> None:
            calls.append("post_init")

    target = Checked(jnp.zeros(2))
    restored = jdc.from_state_dict(target, {"x": np.ones(2, np.float32)})
    assert calls == ["post_init"] and restored.x.tolist() == [1.0, 1.0]


@pytest.mark.parametrize(
    ("edit", "needle"),
    [
        (
            lambda s: s.pop("step"),
            "target: missing key(s) ['step'] for 'Model'; expected keys: ['layers', 'named', 'pair', 'step']",
        ),
        (lambda s: s.update(extra=1), "target: unknown key(s) ['extra'] for 'Model'"),
        (
            lambda s: s["layers"]["0"].update(act="gelu"),
            "target.layers[0] (field 'layers' of 'Model'): unknown key(s) ['act'] for 'Layer'; "
            "expected keys: ['w', 'b'] (static fields",
        ),
        (
            lambda s: s["layers"]["1"].update(w=np.zeros((1, 3), np.float32)),
            "target.layers[1].w (field 'w' of 'Layer'): shape (1, 3) in the state, the target has (3, 1)",
        ),
        (
            lambda s: s.update(step=np.asarray(1.0, np.float32)),
            "target.step (field 'step' of 'Model'): dtype float32 in the state, the target has int32",
        ),
        (
            lambda s: s["named"].pop("emb"),
            "target.named (field 'named' of 'Model'): missing key(s) ['emb'] for 'dict'",
        ),
        (
            lambda s: s.update(layers=[s["layers"]["0"]]),
            "target.layers (field 'layers' of 'Model'): expected 2 items, the state has 1",
        ),
        (
            lambda s: s.update(pair=5),
            "target.pair (field 'pair' of 'Model'): expected a dict with keys ['left', 'right'] "
            "for 'Pair', got 'int'",
        ),
    ],
)
def test_errors_name_the_path_and_the_problem(edit: Any, needle: str) -> None:
    state = jdc.to_state_dict(_model())
    edit(state)
    with pytest.raises(ValueError) as info:
        jdc.from_state_dict(_model(), state)
    assert needle in str(info.value)


def test_non_jaxdc_arguments_are_rejected() -> None:
    with pytest.raises(TypeError, match="to_state_dict\\(\\) needs an instance of a jaxdc"):
        jdc.to_state_dict({"a": 1})
    with pytest.raises(TypeError, match="from_state_dict\\(\\) needs an instance"):
        jdc.from_state_dict([1], {})


def _run(code: str) -> str:
    result = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, result.stderr
    return result.stdout


def test_import_jaxdc_does_not_import_flax_and_flax_works_for_old_and_new_classes() -> None:
    out = _run(
        """
        import sys
        import jax, jax.numpy as jnp
        import jaxdc
        assert "flax" not in sys.modules, "import jaxdc imported flax"

        @jaxdc.pytree_dataclass
        class Before:
            w: jax.Array
            tag: jaxdc.Static[str] = "t"

        from flax import serialization  # registration happens now

        @jaxdc.pytree_dataclass
        class After:
            inner: Before
            xs: list

        obj = After(Before(jnp.arange(3.0)), [jnp.ones(2)])
        assert serialization.to_state_dict(obj) == {"inner": {"w": obj.inner.w}, "xs": {"0": obj.xs[0]}}
        data = serialization.to_bytes(obj)
        back = serialization.from_bytes(After(Before(jnp.zeros(3), "keep"), [jnp.zeros(2)]), data)
        print(back.inner.w.tolist(), back.inner.tag, back.xs[0].tolist())
        """
    )
    assert out.strip() == "[0.0, 1.0, 2.0] keep [1.0, 1.0]"


def test_flax_imported_before_jaxdc() -> None:
    out = _run(
        """
        import flax.serialization as fs
        import jax.numpy as jnp, jax
        import jaxdc

        @jaxdc.pytree_dataclass
        class A:
            w: jax.Array

        print(fs.from_state_dict(A(jnp.zeros(2)), {"w": jnp.ones(2)}).w.tolist())
        try:
            fs.from_state_dict(A(jnp.zeros(2)), {})
        except ValueError as e:
            print(e)
        """
    )
    assert out.splitlines() == [
        "[1.0, 1.0]",
        "A: missing key(s) ['w'] for 'A'; expected keys: ['w']",
    ]


def test_flax_serialization_in_process() -> None:
    serialization = pytest.importorskip("flax.serialization")
    model = _model(3.0)
    restored = serialization.from_bytes(_model(), serialization.to_bytes(model))
    assert jax.tree.all(jax.tree.map(lambda a, b: bool(np.array_equal(a, b)), restored, model))
    assert serialization.to_state_dict(model)["layers"]["1"]["w"].shape == (3, 1)


def test_orbax_checkpoint_is_keyed_by_field_names(tmp_path: Path) -> None:
    ocp = pytest.importorskip("orbax.checkpoint")
    model = _model(5.0)
    checkpointer = ocp.StandardCheckpointer()
    checkpointer.save(tmp_path / "ckpt", model)
    checkpointer.wait_until_finished()
    tree = checkpointer.metadata(tmp_path / "ckpt").item_metadata.tree
    assert set(tree) == {"layers", "named", "pair", "step"}
    assert set(tree["layers"][0]) == {"w", "b"} and "emb" in tree["named"]
    restored = checkpointer.restore(tmp_path / "ckpt", _model())
    assert type(restored) is Model and restored.layers[1].w.tolist() == [[5.0]] * 3
    assert restored.pair.right == 3


def test_prng_key_leaves_round_trip_and_dtype_mismatch_is_named() -> None:
    @jdc.pytree_dataclass
    class Rng:
        key: jax.Array

    target = Rng(jax.random.key(0))
    restored = jdc.from_state_dict(target, {"key": jax.random.key(1)})
    assert restored == Rng(jax.random.key(1))
    with pytest.raises(ValueError, match=r"target.key \(field 'key' of 'Rng'\): dtype uint32"):
        jdc.from_state_dict(target, {"key": np.zeros((), np.uint32)})


@pytest.mark.parametrize(
    ("leaf", "needle"),
    [
        ("seven", "a value of type 'str' in the state, the target has an array of shape ()"),
        (
            None,
            "None in the state, the target has an array of shape () (restoring it would "
            "change the tree structure)",
        ),
        (
            {"a": np.zeros(())},
            "a dict in the state, the target has an array of shape () (restoring it would "
            "change the tree structure)",
        ),
        (
            [np.zeros(())],
            "a value of type 'list' in the state, the target has an array of shape () "
            "(restoring it would "
            "change the tree structure)",
        ),
    ],
)
def test_a_leaf_of_another_kind_is_rejected_with_its_path(leaf: Any, needle: str) -> None:
    state = jdc.to_state_dict(_model())
    state["step"] = leaf
    with pytest.raises(ValueError) as info:
        jdc.from_state_dict(_model(), state)
    assert str(info.value) == f"target.step (field 'step' of 'Model'): {needle}"


def test_an_array_where_the_target_has_none_is_rejected() -> None:
    @jdc.pytree_dataclass
    class Maybe:
        w: jax.Array
        bias: jax.Array | None = None

    state = {"w": np.zeros(2, np.float32), "bias": np.zeros(2, np.float32)}
    with pytest.raises(ValueError) as info:
        jdc.from_state_dict(Maybe(jnp.zeros(2)), state)
    assert str(info.value) == (
        "target.bias (field 'bias' of 'Maybe'): an array of shape (2,) in the state, the "
        "target has None (restoring it would change the tree structure)"
    )
    restored = jdc.from_state_dict(Maybe(jnp.zeros(2)), {**state, "bias": None})
    assert jax.tree.structure(restored) == jax.tree.structure(Maybe(jnp.zeros(2)))


def test_numbers_and_scalar_arrays_restore_number_leaves() -> None:
    state = jdc.to_state_dict(_model())
    state["pair"]["right"] = np.asarray(4)  # what a checkpoint may hold for a Python int
    assert int(jdc.from_state_dict(_model(), state).pair.right) == 4
    state["pair"]["right"] = "four"
    with pytest.raises(
        ValueError,
        match=r"target\.pair\.right \(field 'pair' of 'Model'\): a value of type 'str' in the state",
    ):
        jdc.from_state_dict(_model(), state)


@jdc.pytree_dataclass
class TrainState:
    params: dict
    opt_state: Any
    step: jax.Array


def _train_state(value: float) -> TrainState:
    optax = pytest.importorskip("optax")
    params = {"w": jnp.full((2, 3), value), "b": jnp.full(3, value)}
    opt_state = optax.adam(1e-3).init(params)
    opt_state = jax.tree.map(lambda x: x + value, opt_state)
    return TrainState(params, opt_state, jnp.asarray(int(value), jnp.int32))


def test_namedtuples_are_keyed_by_field_name_like_flax() -> None:
    serialization = pytest.importorskip("flax.serialization")
    state = _train_state(1.0)
    ours = jdc.to_state_dict(state)
    theirs = serialization.to_state_dict(state.opt_state)
    adam = ours["opt_state"]["0"]  # optax.chain's tuple, then ScaleByAdamState
    assert list(adam) == ["count", "mu", "nu"] == list(theirs["0"])
    assert jax.tree.all(
        jax.tree.map(lambda a, b: bool(np.array_equal(a, b)), ours["opt_state"], theirs)
    )


def test_checkpoints_written_by_flax_restore_here_and_the_other_way_round() -> None:
    serialization = pytest.importorskip("flax.serialization")
    written = _train_state(2.0)
    target = _train_state(0.0)

    def same(a: Any, b: Any) -> bool:
        return jax.tree.all(jax.tree.map(lambda x, y: bool(np.array_equal(x, y)), a, b))

    # flax's own state dict for the optimizer state, restored by jaxdc ...
    state = jdc.to_state_dict(written)
    state["opt_state"] = serialization.to_state_dict(written.opt_state)
    assert same(jdc.from_state_dict(target, state), written)
    # ... and jaxdc's state dict restored by flax (msgpack bytes included).
    restored = serialization.from_state_dict(target, jdc.to_state_dict(written))
    assert same(restored, written)
    assert same(serialization.from_bytes(target, serialization.to_bytes(written)), written)
    assert type(restored.opt_state[0]).__name__ == "ScaleByAdamState"
