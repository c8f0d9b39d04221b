"""jaxdc.compat.chex_dataclass: chex's decorator, `.replace` and the Mapping interface."""

from __future__ import annotations

import dataclasses
import subprocess
import sys
from collections.abc import Mapping
from typing import Any

import jax
import jax.numpy as jnp
import jaxdc
import pytest
from jaxdc.compat import chex_dataclass as chex_compat


@chex_compat.dataclass(frozen=True)
class Buffer:
    data: jax.Array
    index: jax.Array


@chex_compat.dataclass(frozen=True)
class PrioritisedBuffer(Buffer):  # flashbax builds this from a Buffer with **state
    priorities: jax.Array


@chex_compat.dataclass(kw_only=True)
class Plain:
    x: jax.Array


@chex_compat.dataclass(mappable_dataclass=False)
class NotAMapping:
    x: jax.Array


def _buffer() -> Buffer:
    return Buffer(data=jnp.zeros((4, 2)), index=jnp.int32(0))


def test_instances_are_mappings_over_fields_in_declaration_order() -> None:
    state = PrioritisedBuffer(**_buffer(), priorities=jnp.ones(4))
    assert isinstance(state, Mapping) and not isinstance(NotAMapping(jnp.ones(1)), Mapping)
    assert list(state) == list(state.keys()) == ["data", "index", "priorities"]
    assert len(state) == 3 and "index" in state and "nope" not in state
    assert state["priorities"] is state.priorities and state.get("nope", 7) == 7
    assert dict(state.items())["data"].shape == (4, 2)
    with pytest.raises(KeyError):
        state["nope"]


def test_replace_and_mapping_work_under_jit_vmap_and_scan() -> None:
    @jax.jit
    def add(state: PrioritisedBuffer, item: jax.Array) -> PrioritisedBuffer:
        data = state.data.at[state.index].set(item)
        return state.replace(data=data, index=state.index + 1)

    state = PrioritisedBuffer(**_buffer(), priorities=jnp.ones(4))
    state, _ = jax.lax.scan(lambda s, x: (add(s, x), None), state, jnp.ones((3, 2)))
    assert int(state.index) == 3 and float(state.data.sum()) == 6.0
    batched = jax.vmap(lambda s: PrioritisedBuffer(**s, priorities=s["index"] * 2.0))(
        Buffer(data=jnp.zeros((5, 4, 2)), index=jnp.arange(5))
    )
    assert batched.priorities.tolist() == [0.0, 2.0, 4.0, 6.0, 8.0]


def test_chex_defaults_give_a_mutable_class_as_in_chex() -> None:
    """chex classes are mutable unless frozen=True (rlax assigns fields): the assignment
    works and JAX sees it; it warns once per field, naming the fix."""
    plain = Plain(x=jnp.ones(1))
    with pytest.raises(TypeError):
        Plain(jnp.ones(1))  # type: ignore[misc]  # kw_only passed through
    with pytest.warns(jaxdc.MigrationWarning, match=r"cannot assign to field 'x' of 'Plain'"):
        plain.x = jnp.zeros(2)
    assert jax.tree.leaves(plain)[0].shape == (2,)
    assert jaxdc.replace(plain, x=jnp.zeros(1)).x.shape == (1,)
    with pytest.raises(dataclasses.FrozenInstanceError, match=r"replace"):
        _buffer().index = jnp.int32(1)  # type: ignore[misc]
    with pytest.warns(jaxdc.MigrationWarning, match=r"chex_dataclass\.dataclass\(frozen=False\)"):
        chex_compat.dataclass(frozen=False)(type("M", (), {"__annotations__": {"x": Any}}))


def test_importing_the_compat_module_never_imports_chex_or_flax() -> None:
    code = "import jaxdc.compat.chex_dataclass, sys; print('chex' in sys.modules, 'flax' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False False"
