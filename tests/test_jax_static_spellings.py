"""JAX's own spellings of a static field, inside jaxdc classes, on every runtime path.

`jax.tree.static()` (jax >= 0.9.1) and `dataclasses.field(metadata={"static": True})` (read
by `jax.tree_util.register_dataclass` since jax 0.4.36; its docs write `dict(static=True)`)
make the same static field as `jaxdc.field(static=True)`: part of the treedef, hashed into
jit cache keys, never a leaf. Each test runs every spelling the installed jax has, through
construction and the keywords of `dataclasses.field`, `replace`, `copy_and_mutate`,
pickling, serialization and real `jit`/`vmap`/`tree_map`.
"""

from __future__ import annotations

import dataclasses
import pickle
from collections.abc import Callable
from typing import Any

import jax
import jax.numpy as jnp
import jaxdc as jdc
import pytest
from jaxdc._spec import spec_of

Spec = Callable[..., Any]  # a field specifier: keywords in, a dataclasses.Field out


def _metadata_literal(**kwargs: Any) -> Any:
    return dataclasses.field(metadata={"static": True, **kwargs.pop("metadata", {})}, **kwargs)


def _metadata_dict(**kwargs: Any) -> Any:
    return dataclasses.field(metadata=dict(static=True, **kwargs.pop("metadata", {})), **kwargs)


SPELLINGS: dict[str, Spec] = {
    'dataclasses.field(metadata={"static": True})': _metadata_literal,
    "dataclasses.field(metadata=dict(static=True))": _metadata_dict,
}
if hasattr(jax.tree, "static"):
    SPELLINGS["jax.tree.static()"] = jax.tree.static

spellings = pytest.mark.parametrize("static", list(SPELLINGS.values()), ids=list(SPELLINGS))


def _classes(static: Spec) -> tuple[type, type]:
    """A model with one static field of each keyword, and a PyTreeNode subclass."""

    @jdc.pytree_dataclass
    class Model:
        w: jax.Array
        op: str = static()
        mode: str = static(default="add")
        sizes: tuple[int, ...] = static(default_factory=tuple)
        steps: int = static(init=False, default=0)
        scale: float = static(kw_only=True, default=1.0)
        label: str = static(default="", repr=False, metadata={"doc": "shown in logs"})

        def __post_init__(self) -> None:
            self.steps = len(self.sizes)

    class Node(jdc.PyTreeNode):
        w: jax.Array
        op: str = static()

    return Model, Node


@spellings
def test_fields_are_static_with_every_keyword(static: Spec) -> None:
    Model, Node = _classes(static)
    model = Model(jnp.ones(2), "mul", sizes=(1, 2, 3), scale=2.0)
    assert {f.name: f.kind for f in spec_of(Model).fields} == {
        "w": "data",
        "op": "static",
        "mode": "static",
        "sizes": "static",
        "steps": "static",
        "scale": "static",
        "label": "static",
    }
    assert jax.tree.leaves(model) == [model.w]
    assert (model.op, model.mode, model.sizes, model.steps, model.scale) == (
        "mul",
        "add",
        (1, 2, 3),
        3,
        2.0,
    )
    assert "label" not in repr(model) and "mode='add'" in repr(model)
    assert dataclasses.fields(Model)[6].metadata["doc"] == "shown in logs"
    assert spec_of(Node).static == ("op",)
    assert jax.tree.leaves(Node(jnp.ones(1), "sub")) == [jnp.ones(1)]


@spellings
def test_the_keywords_are_enforced_as_for_jaxdc_field(static: Spec) -> None:
    Model, Node = _classes(static)
    with pytest.raises(TypeError, match="missing 1 required positional argument: 'op'"):
        Model(jnp.ones(2))
    with pytest.raises(TypeError, match="takes from 3 to 6 positional arguments but 7 were given"):
        Model(jnp.ones(2), "mul", "add", (), "", 2.0)  # scale is keyword-only
    with pytest.raises(TypeError, match="unexpected keyword argument 'steps'"):
        Model(jnp.ones(2), "mul", steps=1)  # init=False
    with pytest.raises(TypeError, match="missing 1 required positional argument: 'op'"):
        Node(jnp.ones(2))


@spellings
def test_unhashable_values_and_types_are_rejected_naming_class_field_and_fix(
    static: Spec,
) -> None:
    @jdc.pytree_dataclass
    class Loose:
        w: jax.Array
        cfg: object = static()

    with pytest.raises(TypeError) as info:
        Loose(jnp.ones(1), [1, 2])
    assert "static field 'cfg' of class 'Loose'" in str(info.value)
    assert "tuple instead of a list" in str(info.value)

    with pytest.raises(TypeError) as info:

        @jdc.pytree_dataclass
        class Model:
            w: jax.Array
            sizes: list[int] = static(default_factory=list)

    message = str(info.value)
    assert "static field 'sizes' of class 'Model' has unhashable type 'list[int]'" in message
    assert "Fix: use an immutable type such as tuple[...]" in message


@spellings
def test_replace_and_copy_and_mutate_keep_and_check_the_static_field(static: Spec) -> None:
    Model, _ = _classes(static)
    model = Model(jnp.ones(2), "mul", sizes=(1,))
    replaced = jdc.replace(model, op="sub", w=jnp.zeros(2))
    assert (replaced.op, replaced.mode, replaced.steps) == ("sub", "add", 1)
    assert jax.tree.structure(replaced) != jax.tree.structure(model)
    with pytest.raises(TypeError, match="static field 'op' of class 'Model'"):
        jdc.replace(model, op=["not", "hashable"])

    with jdc.copy_and_mutate(model, validate=False) as edited:
        edited.op = "div"
        edited.sizes = (4, 5)
    assert (edited.op, edited.sizes, model.op) == ("div", (4, 5), "mul")
    assert jax.tree.leaves(edited) == [model.w]
    changed = "static field 'op' of class 'Model' changed from 'mul' to 'div', which changes"
    with pytest.raises(ValueError, match=changed), jdc.copy_and_mutate(model) as checked:
        checked.op = "div"
    with (
        pytest.raises(TypeError, match="static field 'sizes' of class 'Model'"),
        jdc.copy_and_mutate(model, validate=False) as broken,
    ):
        broken.sizes = [4, 5]


@spellings
def test_jit_retraces_on_the_static_field_and_transforms_keep_it(static: Spec) -> None:
    Model, _ = _classes(static)
    traces: list[str] = []

    @jax.jit
    def apply(m: Any) -> jax.Array:
        traces.append(m.op)  # runs once per trace: the static value is a Python str
        return m.w * 2 if m.op == "mul" else m.w - 1

    model = Model(jnp.ones(2), "mul")
    assert apply(model).tolist() == [2.0, 2.0]
    assert apply(jdc.replace(model, w=jnp.zeros(2))).tolist() == [0.0, 0.0]
    assert apply(jdc.replace(model, op="sub")).tolist() == [0.0, 0.0]
    assert traces == ["mul", "sub"]

    batched = jax.vmap(lambda m: m)(Model(jnp.ones((3, 2)), "div", sizes=(7,)))
    assert (batched.op, batched.sizes, batched.steps, batched.w.shape) == ("div", (7,), 1, (3, 2))
    mapped = jax.tree.map(lambda x: x + 1, model)
    assert (mapped.op, mapped.sizes, mapped.steps, mapped.w.tolist()) == ("mul", (), 0, [2, 2])


if hasattr(jax.tree, "static"):

    @jdc.pytree_dataclass
    class Pickled:  # module level, so pickle finds the class
        w: jax.Array
        op: str = jax.tree.static(default="mul")
        sizes: tuple[int, ...] = dataclasses.field(default=(), metadata=dict(static=True))


@pytest.mark.skipif(not hasattr(jax.tree, "static"), reason="jax.tree.static: jax >= 0.9.1")
def test_pickling_and_state_dicts_keep_the_static_fields() -> None:
    assert spec_of(Pickled).static == ("op", "sizes")
    model = Pickled(jnp.arange(2.0), "sub", (3,))
    restored = pickle.loads(pickle.dumps(model))
    assert (restored.op, restored.sizes, restored.w.tolist()) == ("sub", (3,), [0.0, 1.0])
    assert jax.tree.structure(restored) == jax.tree.structure(model)

    state = jdc.to_state_dict(model)
    assert list(state) == ["w"]  # static fields belong to the code, not the checkpoint
    loaded = jdc.from_state_dict(model, {"w": jnp.ones(2)})
    assert (loaded.op, loaded.sizes, loaded.w.tolist()) == ("sub", (3,), [1.0, 1.0])
