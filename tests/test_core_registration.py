"""Registration: key paths carry field names; unflatten never runs __init__/__post_init__."""

from __future__ import annotations

import jax
import jax.numpy as jnp
import jaxdc as jdc
import pytest
from jax.tree_util import GetAttrKey


def test_leaves_treedef_and_key_paths_use_field_names() -> None:
    @jdc.pytree_dataclass
    class State:
        params: jax.Array
        step: jax.Array
        name: jdc.Static[str]

    s = State(jnp.ones(3), jnp.array(0), "adam")
    leaves, treedef = jax.tree.flatten(s)
    assert [leaf.shape for leaf in leaves] == [(3,), ()]
    assert "adam" in str(treedef)
    paths = [path for path, _ in jax.tree_util.tree_flatten_with_path(s)[0]]
    assert paths == [(GetAttrKey("params"),), (GetAttrKey("step"),)]
    assert jax.tree_util.keystr(paths[0]) == ".params"
    rebuilt = jax.tree.unflatten(treedef, leaves)
    assert type(rebuilt) is State and rebuilt.name == "adam" and rebuilt.params is leaves[0]


def test_nested_key_paths() -> None:
    @jdc.pytree_dataclass
    class Inner:
        w: jax.Array

    @jdc.pytree_dataclass
    class Outer:
        inner: Inner
        layers: tuple[Inner, ...]

    o = Outer(Inner(jnp.ones(1)), (Inner(jnp.ones(2)),))
    keys = [jax.tree_util.keystr(p) for p, _ in jax.tree_util.tree_flatten_with_path(o)[0]]
    assert keys == [".inner.w", ".layers[0].w"]


def _counting_hash(hashes: list[int]) -> type:
    """A hashable static type that records every `hash()` of its instances."""

    class Counted:
        def __hash__(self) -> int:
            hashes.append(1)
            return 7

        def __eq__(self, other: object) -> bool:
            return isinstance(other, Counted)

    return Counted


@pytest.mark.parametrize("hook", ["__post_init__", "__init__"])
def test_user_code_runs_exactly_once_through_tree_map_jit_vmap_grad(hook: str) -> None:
    calls: list[str] = []

    if hook == "__post_init__":

        @jdc.pytree_dataclass
        class Model:
            w: jax.Array
            b: jax.Array
            scale: jdc.Static[float] = 1.0

            def __post_init__(self) -> None:
                calls.append("post_init")
    else:

        @jdc.pytree_dataclass
        class Model:  # type: ignore[no-redef]
            w: jax.Array
            b: jax.Array
            scale: jdc.Static[float] = 1.0

            def __init__(self, w: jax.Array) -> None:
                calls.append("init")
                self.w = w
                self.b = jnp.zeros_like(w)
                self.scale = 1.0

    m = (
        Model(jnp.ones((4, 3)))
        if hook == "__init__"
        else Model(jnp.ones((4, 3)), jnp.zeros((4, 3)))
    )
    jax.tree.map(lambda x: x * 2, m)
    jax.jit(lambda m: jax.tree.map(lambda x: x + 1, m))(m)
    jax.vmap(lambda m: m)(m)
    jax.grad(lambda m: (m.w * m.b).sum())(m)
    jax.jit(jax.vmap(lambda m: jax.tree.map(jnp.sin, m)))(m)
    assert len(calls) == 1


def test_unflatten_does_not_revalidate_statics() -> None:
    hashes: list[int] = []
    Counted = _counting_hash(hashes)

    @jdc.pytree_dataclass
    class A:
        x: jax.Array
        c: jdc.Static[Counted]

    a = A(jnp.ones(2), Counted())
    assert len(hashes) == 1  # validated once at construction
    leaves, treedef = jax.tree.flatten(a)
    for _ in range(3):
        jax.tree.unflatten(treedef, leaves)
    assert len(hashes) == 1


def test_flatten_reads_fields_not_stale_state_after_replace() -> None:
    @jdc.pytree_dataclass
    class A:
        x: jax.Array
        tag: jdc.Static[str] = "a"

    a = A(jnp.zeros(2))
    b = jdc.replace(a, x=jnp.ones(2), tag="b")
    leaves, treedef = jax.tree.flatten(b)
    assert float(leaves[0].sum()) == 2.0 and "'b'" in str(treedef)
    assert float(jax.tree.leaves(a)[0].sum()) == 0.0


def test_class_without_fields_and_class_with_only_statics() -> None:
    @jdc.pytree_dataclass
    class Empty:
        pass

    @jdc.pytree_dataclass
    class Config:
        lr: jdc.Static[float]
        name: jdc.Static[str] = "sgd"

    assert jax.tree.leaves(Empty()) == []
    c = Config(0.1)
    assert jax.tree.leaves(c) == []
    assert jax.tree.unflatten(jax.tree.structure(c), []).lr == 0.1
    out = jax.jit(lambda c, x: x * c.lr)(c, jnp.ones(2))
    assert out.tolist() == pytest.approx([0.1, 0.1])


def test_field_named_like_generated_code_locals() -> None:
    @jdc.pytree_dataclass
    class Odd:
        obj: jax.Array
        children: jax.Array
        hash: jdc.Static[int] = 3

    o = Odd(jnp.ones(1), jnp.zeros(1))
    r = jax.tree.map(lambda x: x + 1, o)
    assert float(r.obj[0]) == 2.0 and float(r.children[0]) == 1.0 and r.hash == 3
    assert jdc.replace(o, hash=4).hash == 4


def test_replace_revalidates_statics_only_when_one_changes() -> None:
    hashes: list[int] = []
    Counted = _counting_hash(hashes)

    @jdc.pytree_dataclass
    class A:
        x: jax.Array
        c: jdc.Static[Counted]
        n: jdc.Static[int] = 0

    a = A(jnp.ones(2), Counted())
    assert len(hashes) == 1
    b = jdc.replace(a, x=jnp.zeros(2))  # statics unchanged: the validated tuple is reused
    assert len(hashes) == 1 and jax.tree.structure(b) == jax.tree.structure(a)
    jdc.replace(a, n=1)
    assert len(hashes) == 2
