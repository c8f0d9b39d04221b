"""jaxdc.compat.flax_struct: flax.struct's API (dataclass, field, PyTreeNode, .replace)."""

from __future__ import annotations

import dataclasses
import inspect
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import checkers
import jax
import jax.numpy as jnp
import jaxdc as jdc
import pytest
from jaxdc.compat import flax_struct as struct


@struct.dataclass
class Env:
    pos: jax.Array
    step_fn: Callable[[jax.Array], jax.Array] = struct.field(pytree_node=False)
    size: int = struct.field(False, default=3)  # flax allows pytree_node positionally


@struct.dataclass(kw_only=True)
class Params:
    gain: jax.Array
    name: str = struct.field(pytree_node=False, default="p")


class Agent(struct.PyTreeNode):
    w: jax.Array
    env: Env
    lr: float = struct.field(pytree_node=False, default=0.1)


def _env() -> Env:
    return Env(jnp.arange(3.0), jnp.tanh)


def test_pytree_node_false_is_static_and_data_fields_are_leaves() -> None:
    leaves, treedef = jax.tree_util.tree_flatten(_env())
    assert len(leaves) == 1 and leaves[0].shape == (3,)
    assert jax.tree_util.tree_unflatten(treedef, [jnp.zeros(3)]).step_fn is jnp.tanh
    meta = {f.name: f.metadata for f in dataclasses.fields(Env)}
    assert meta["step_fn"]["pytree_node"] is False and "pytree_node" not in meta["pos"]


def test_replace_method_on_decorated_and_subclassed_classes_under_jit_and_vmap() -> None:
    agent = Agent(jnp.ones(3), _env())

    @jax.jit
    def update(a: Agent) -> Agent:
        moved = a.env.replace(pos=a.env.step_fn(a.env.pos + a.w))
        return a.replace(w=a.w * (1 - a.lr), env=moved)

    out = update(agent)
    assert isinstance(out, Agent) and out.lr == 0.1 and out.env.size == 3
    assert jnp.allclose(out.env.pos, jnp.tanh(jnp.arange(3.0) + 1))
    batched = jax.vmap(lambda p: p.replace(gain=p.gain * 2))(Params(gain=jnp.ones((4, 2))))
    assert batched.gain.shape == (4, 2) and float(batched.gain.sum()) == 16.0
    grads = jax.grad(lambda a: jnp.sum(update(a).w))(agent)
    assert isinstance(grads, Agent) and jnp.allclose(grads.w, 0.9)


def test_signatures_match_flax() -> None:
    assert list(inspect.signature(struct.field).parameters) == ["pytree_node", "metadata", "kwargs"]
    assert list(inspect.signature(struct.dataclass).parameters) == ["clz", "kwargs"]
    assert Env.__init__ is not None and list(inspect.signature(Env).parameters) == [
        "pos",
        "step_fn",
        "size",
    ]
    with pytest.raises(TypeError):
        Params(jnp.ones(2))  # kw_only passed through


def test_decorating_twice_returns_the_class_and_a_user_replace_wins() -> None:
    assert struct.dataclass(Env) is Env

    @struct.dataclass
    class Custom:
        x: jax.Array

        def replace(self, **kw: object) -> str:
            return "mine"

    assert Custom(jnp.ones(1)).replace(x=1) == "mine"


def test_it_is_a_jaxdc_class_on_the_migration_path() -> None:
    """What jaxdc's own decorator rejects, flax accepts: here it warns (tests/
    test_migration_path.py has the details) and the class works as in flax."""
    env = _env()
    assert jdc.replace(env, size=4).size == 4
    assert isinstance(Agent(jnp.ones(1), env), jdc.PyTreeNode)
    with pytest.warns(jdc.MigrationWarning, match=r"static field 'cfg' of class 'Bad'.*unhashable"):

        @struct.dataclass
        class Bad:
            cfg: dict[str, int] = struct.field(pytree_node=False)

    assert Bad({"a": 1}).cfg == {"a": 1}
    with pytest.warns(jdc.MigrationWarning, match=r"flax_struct\.dataclass\(frozen=False\)"):
        mutable = struct.dataclass(frozen=False)(type("M", (), {"__annotations__": {"x": int}}))
    assert "_flax_dataclass" in vars(mutable) and "_flax_dataclass" in vars(Env)  # flax's test
    with pytest.raises(dataclasses.FrozenInstanceError):
        env.pos = jnp.zeros(3)  # type: ignore[misc]


def test_importing_the_compat_module_never_imports_flax() -> None:
    code = "import jaxdc.compat.flax_struct, sys; print('flax' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


# --- what type checkers see (pyright; mypy + the jaxdc plugin) -------------------------

_CHECKED = """\
from typing import Callable

import jax
import jax.numpy as jnp
import jaxdc
from jaxdc.compat import flax_struct as struct


@struct.dataclass
class Env:
    pos: jax.Array
    step_fn: Callable[[jax.Array], jax.Array] = struct.field(pytree_node=False)
    size: int = struct.field(False, default=3)
    vel: jax.Array = struct.field(default_factory=lambda: jnp.zeros(2))


@struct.dataclass(kw_only=True)
class Params:
    gain: jax.Array


class Agent(struct.PyTreeNode):
    w: jax.Array
    env: Env
    lr: float = struct.field(pytree_node=False)
    steps: int = 0


env = Env(jnp.ones(2), jnp.tanh)
agent = Agent(jnp.ones(3), env, 0.1)
moved: Agent = agent.replace(w=jnp.zeros(3))
env2: Env = jaxdc.replace(env, size=4)
params = Params(gain=jnp.ones(1))
env.pos = jnp.zeros(2)
Agent(jnp.ones(3), env)
"""
_FROZEN_LINE = _CHECKED.splitlines().index("env.pos = jnp.zeros(2)") + 1
_MISSING_ARG_LINE = _FROZEN_LINE + 1


def _checker(name: str, tmp_path: Path, warm_cache: Path) -> set[tuple[int, str]]:
    """(line, code) of each error pyright or mypy + the plugin reports on _CHECKED."""
    if name == "pyright":
        (tmp_path / "case.py").write_text(_CHECKED)
        found = checkers.run_pyright(tmp_path, ["case.py"])
    else:
        project = checkers.Project.create(tmp_path, warm_cache)
        project.write({"case.py": _CHECKED})
        found = project.mypy("case.py").check().errors
    return {(d.line, d.code) for d in found}


def test_pyright_reads_compat_fields_defaults_and_frozenness(
    tmp_path: Path, warm_cache: Path
) -> None:
    assert _checker("pyright", tmp_path, warm_cache) == {
        (_FROZEN_LINE, "reportAttributeAccessIssue"),
        (_MISSING_ARG_LINE, "reportCallIssue"),
    }


def test_mypy_with_the_plugin_reads_compat_fields_defaults_and_frozenness(
    tmp_path: Path, warm_cache: Path
) -> None:
    assert _checker("mypy", tmp_path, warm_cache) == {
        (_FROZEN_LINE, "misc"),
        (_MISSING_ARG_LINE, "call-arg"),
    }


def test_mypy_with_the_plugin_sees_replace_on_decorated_classes(
    tmp_path: Path, warm_cache: Path
) -> None:
    project = checkers.Project.create(tmp_path, warm_cache)
    project.write(
        {
            "case.py": "import jax\nfrom jaxdc.compat import flax_struct as struct\n\n\n"
            "@struct.dataclass\nclass S:\n    x: jax.Array\n    n: int = struct.field(False)\n\n\n"
            "def f(s: S) -> S:\n    return s.replace(x=s.x + 1)\n\n\n"
            "def g(s: S) -> S:\n    return s.replace(n='three')\n"
        }
    )
    found = {(d.line, d.code) for d in project.mypy("case.py").check().errors}
    assert found == {(16, "arg-type")}  # typed like PyTreeNode.replace: only the wrong value


def test_mypy_with_the_plugin_accepts_a_flax_module_as_a_static_field(
    tmp_path: Path, warm_cache: Path
) -> None:
    # navix's `network: ActorCritic = struct.field(pytree_node=False)`: flax makes every
    # linen Module a dataclass with unsafe_hash=True, so it is a hashable static value.
    import flax.linen as nn

    class Encoder(nn.Module):
        width: int = 4

    @struct.dataclass
    class Agent:
        network: Encoder = struct.field(pytree_node=False)

    assert hash(Agent(Encoder()).network) == hash(Encoder())  # the runtime accepts it
    project = checkers.Project.create(tmp_path, warm_cache)
    project.write(
        {
            "case.py": """
            import flax.linen as nn
            from jaxdc.compat import flax_struct as struct


            class Encoder(nn.Module):
                width: int = 4


            class Hashless(nn.Module):
                width: int = 4

                def __eq__(self, other: object) -> bool:
                    return True

                __hash__ = None  # type: ignore[assignment]


            @struct.dataclass
            class Agent:
                network: Encoder = struct.field(pytree_node=False)
                critic: Hashless = struct.field(pytree_node=False)
            """
        }
    )
    errors = project.mypy("case.py").check().errors
    critic = (
        (project.root / "case.py")
        .read_text()
        .splitlines()
        .index("    critic: Hashless = struct.field(pytree_node=False)")
    )
    assert {(d.line, d.code) for d in errors} == {(critic + 1, "jaxdc-static")}
