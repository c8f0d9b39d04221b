"""A retrace of a `jaxdc.jit` function explained in one line, a retrace storm warned about,
and `jaxdc.tree_diff` (issue 17, parts 2 and 3). Every test runs real `jax.jit` traces and
reads the exact text."""

from __future__ import annotations

import dataclasses
import logging
import os
import subprocess
import sys
import warnings
from collections.abc import Iterator
from typing import Any

import jax
import jax.numpy as jnp
import jaxdc
import pytest
from jax import lax


@jaxdc.pytree_dataclass
class Opt:
    lr: jaxdc.Static[float]
    name: jaxdc.Static[str] = "sgd"


@jaxdc.pytree_dataclass
class State:
    w: jax.Array
    opt: Opt
    extra: jax.Array | None = None


STATE = State(jnp.ones(3), Opt(0.1))


def _with(**changes: Any) -> State:
    return jaxdc.replace(STATE, **changes)


@pytest.fixture
def explained(caplog: pytest.LogCaptureFixture) -> Iterator[pytest.LogCaptureFixture]:
    """jaxdc's explanations on, the storm warning off; caplog holds jaxdc's lines."""
    before = dataclasses.replace(jaxdc.config)
    jaxdc.config.explain_retraces, jaxdc.config.retrace_warning_after = True, None
    with caplog.at_level(logging.WARNING, logger="jaxdc"):
        yield caplog
    jaxdc.config.explain_retraces = before.explain_retraces
    jaxdc.config.retrace_warning_after = before.retrace_warning_after


def _lines(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.name == "jaxdc"]


def _train_step() -> Any:
    @jaxdc.jit
    def train_step(state: State, n: jaxdc.Static[int] = 1) -> jax.Array:
        return state.w * state.opt.lr * n

    return train_step


def test_a_changed_static_field_is_named_with_both_values(
    explained: pytest.LogCaptureFixture,
) -> None:
    step = _train_step()
    step(STATE)
    assert _lines(explained) == []  # the first trace is not a retrace
    step(_with(opt=Opt(0.2)))
    assert _lines(explained) == [
        "train_step: state.opt.lr changed 0.1 -> 0.2 (static field 'lr' of 'Opt')"
    ]


def test_a_static_parameter_a_shape_a_dtype_and_a_structure(
    explained: pytest.LogCaptureFixture,
) -> None:
    step = _train_step()
    step(STATE, 1)
    step(STATE, n=2)
    step(_with(w=jnp.ones(4)), n=2)
    step(_with(w=jnp.ones(4, jnp.int32)), n=2)
    step(_with(w=jnp.ones(4, jnp.int32), extra=jnp.ones(2)), n=2)
    assert _lines(explained) == [
        "train_step: n changed 1 -> 2 (static parameter 'n')",
        "train_step: state.w changed shape f32[3] -> f32[4]",
        "train_step: state.w changed dtype f32[4] -> i32[4]",
        "train_step: state.extra changed structure None -> f32[2]",
    ]


def test_several_differences_share_the_line_and_a_list_that_grew_is_a_structure_change(
    explained: pytest.LogCaptureFixture,
) -> None:
    @jaxdc.jit
    def total(xs: list[jax.Array], state: State) -> jax.Array:
        return sum(xs, state.w)

    total([jnp.ones(3)] * 2, STATE)
    total([jnp.ones(3)] * 3, _with(opt=Opt(0.1, "adam")))
    assert _lines(explained) == [
        "total: xs changed structure list of 2 -> list of 3; state.opt.name changed 'sgd' -> "
        "'adam' (static field 'name' of 'Opt')"
    ]


@pytest.mark.parametrize("loop", ["scan", "while_loop", "cond"])
def test_statics_read_inside_scan_while_loop_and_cond(
    explained: pytest.LogCaptureFixture, loop: str
) -> None:
    @jaxdc.jit
    def run(state: State) -> jax.Array:
        lr = state.opt.lr
        if loop == "scan":
            return lax.scan(lambda w, _: (w - lr * w, None), state.w, None, length=3)[0]
        if loop == "while_loop":
            return lax.while_loop(lambda w: w.sum() > 1, lambda w: w - lr * w, state.w)
        return lax.cond(lr > 0.15, lambda w: w * lr, lambda w: w, state.w)

    run(STATE)
    run(_with(opt=Opt(0.2)))
    assert _lines(explained) == [
        "run: state.opt.lr changed 0.1 -> 0.2 (static field 'lr' of 'Opt')"
    ]


def test_jax_own_switch_turns_the_explanation_on(caplog: pytest.LogCaptureFixture) -> None:
    step = _train_step()
    step(STATE, 1)
    jax.config.update("jax_explain_cache_misses", True)
    try:
        with caplog.at_level(logging.WARNING):
            step(STATE, 3)
    finally:
        jax.config.update("jax_explain_cache_misses", False)
    assert _lines(caplog) == ["train_step: n changed 1 -> 3 (static parameter 'n')"]


def test_jax_explanation_names_static_parameters_while_jaxdc_explains(
    explained: pytest.LogCaptureFixture,
) -> None:
    if tuple(int(p) for p in jax.__version__.split(".")[:2]) < (0, 10):
        pytest.skip("older JAX explains cache misses without the node metadata")
    step = _train_step()
    step(STATE, 1)
    jax.config.update("jax_explain_cache_misses", True)
    try:
        step(STATE, 3)
    finally:
        jax.config.update("jax_explain_cache_misses", False)
    assert "n changed 1 -> 3 (static parameter 'n')" in explained.text  # jaxdc's own line
    if "cache miss explanation unavailable" in explained.text:
        # jax 0.12 explains no changed static argument, even under plain jax.jit (checked
        # with jax.jit(f, static_argnums=1) there): nothing of jaxdc's to name in its text.
        pytest.skip(f"JAX {jax.__version__} prints no explanation for a static argument")
    assert "Static(val=n=3)" in explained.text and "Static(val=n=1)" in explained.text


def test_nothing_is_logged_when_explanations_are_off(caplog: pytest.LogCaptureFixture) -> None:
    step = _train_step()
    with caplog.at_level(logging.DEBUG):
        step(STATE)
        step(_with(opt=Opt(0.2)))
    assert _lines(caplog) == []


def test_equal_static_arguments_of_other_types_are_other_traces() -> None:
    """jaxdc.jit keeps jax.jit's rule: 1, 1.0 and True are three cache keys."""
    seen: list[Any] = []

    @jaxdc.jit
    def f(x: jax.Array, k: jaxdc.Static[Any]) -> jax.Array:
        seen.append(k)
        return x

    for k in (1, 1.0, True, 1):
        f(jnp.ones(1), k)
    assert seen == [1, 1.0, True] and [type(k) for k in seen] == [int, float, bool]


# -- the storm warning ------------------------------------------------------------------


@pytest.fixture
def warn_after() -> Iterator[None]:
    before = jaxdc.config.retrace_warning_after
    yield
    jaxdc.config.retrace_warning_after = before


def _storm(step: Any, times: int) -> list[warnings.WarningMessage]:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for i in range(times):
            step(_with(opt=Opt(0.01 * (i + 1))))  # the line warned about
    return [w for w in caught if issubclass(w.category, jaxdc.RetraceWarning)]


def test_the_eighth_retrace_by_one_static_field_warns_once_with_the_fix(warn_after: None) -> None:
    step = _train_step()
    assert _storm(step, 8) == []  # the first call traces, then 7 retraces
    (warned,) = _storm(step, 10)
    assert str(warned.message) == (
        "train_step has been traced again 8 times because static field 'lr' of class 'Opt' "
        "(state.opt.lr) changed (9 distinct values so far): each new value traces and compiles "
        "it again. Fix: make 'lr' a data field: jax.Array."
    )
    assert warned.filename == __file__  # the user's line, not jaxdc's or JAX's


def test_a_static_parameter_storm_names_the_parameter(warn_after: None) -> None:
    jaxdc.config.retrace_warning_after = 3

    @jaxdc.jit
    def scale(x: jax.Array, factor: jaxdc.Static[float]) -> jax.Array:
        return x * factor

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for i in range(5):
            scale(jnp.ones(2), float(i))
    (warned,) = [w for w in caught if issubclass(w.category, jaxdc.RetraceWarning)]
    assert str(warned.message) == (
        "scale has been traced again 3 times because static parameter 'factor' changed "
        "(4 distinct values so far): each new value traces and compiles it again. Fix: make "
        "'factor' a data parameter (drop Static[...]) and pass a jax.Array."
    )


@pytest.mark.parametrize("off", [None, 0])
def test_the_warning_can_be_switched_off(warn_after: None, off: int | None) -> None:
    jaxdc.config.retrace_warning_after = off
    assert _storm(_train_step(), 20) == []


def test_the_environment_sets_the_switches() -> None:
    code = "import jaxdc; print(jaxdc.config)"
    env = {**os.environ, "JAXDC_EXPLAIN_RETRACES": "1", "JAXDC_RETRACE_WARNING_AFTER": "0"}
    out = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    )
    assert out.stdout.strip() == "Config(explain_retraces=True, retrace_warning_after=0)"
    env["JAXDC_RETRACE_WARNING_AFTER"] = "many"
    out = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    )
    assert out.stdout.strip() == "Config(explain_retraces=True, retrace_warning_after=8)"
    assert (
        "environment variable JAXDC_RETRACE_WARNING_AFTER='many' is not understood, so the "
        "default is used. Fix: set it to a whole number (0: off)."
    ) in out.stderr


# -- tree_diff ---------------------------------------------------------------------------


def test_tree_diff_names_jaxdc_static_fields() -> None:
    new = _with(opt=Opt(0.3, "adam"))
    assert jaxdc.tree_diff(STATE, new) == [
        jaxdc.TreeDifference(".opt.lr", "static", 0.1, 0.3, "lr", "Opt"),
        jaxdc.TreeDifference(".opt.name", "static", "sgd", "adam", "name", "Opt"),
    ]
    assert jaxdc.tree_diff(STATE, _with(w=jnp.zeros(3))) == []  # values never count
    assert str(jaxdc.tree_diff(STATE, new)[0]) == (
        ".opt.lr changed 0.1 -> 0.3 (static field 'lr' of 'Opt')"
    )


def test_tree_diff_on_plain_pytrees() -> None:
    old = {"a": jnp.ones(2), "b": [1.0, None], "c": jnp.ones(2)}
    new = {"a": jnp.ones(3), "b": [1.0, jnp.ones(1)], "c": jnp.ones(2, jnp.int32)}
    assert [str(d) for d in jaxdc.tree_diff(old, new)] == [
        "['a'] changed shape f32[2] -> f32[3]",
        "['b'][1] changed structure None -> f32[1]",
        "['c'] changed dtype f32[2] -> i32[2]",
    ]
    assert [str(d) for d in jaxdc.tree_diff({"a": 1}, {"b": 1})] == [
        "the tree changed structure dict with keys ['a'] -> dict with keys ['b']"
    ]
    assert [str(d) for d in jaxdc.tree_diff(1.0, jnp.float32(1))] == [
        "the tree changed dtype f32[] (weakly typed) -> f32[]"
    ]


def test_tree_diff_names_other_libraries_metadata_by_class() -> None:
    @dataclasses.dataclass
    class Plain:
        x: jax.Array
        k: int

    # (field lists spelled out: jax 0.4.36 cannot infer them)
    jax.tree_util.register_dataclass(Plain, data_fields=["x"], meta_fields=["k"])

    (d,) = jaxdc.tree_diff(Plain(jnp.ones(1), 1), Plain(jnp.ones(1), 2))
    assert (d.path, d.kind, d.owner) == ("", "static", "Plain")
    assert "(pytree metadata of 'Plain')" in str(d)


def test_a_switch_given_a_wrong_value_says_what_it_takes() -> None:
    settings = jaxdc.Config()
    with pytest.raises(TypeError) as caught:
        settings.retrace_warning_after = "8"  # type: ignore[assignment]
    assert str(caught.value) == (
        "jaxdc.config.retrace_warning_after got '8'. Fix: set it to a whole number of retraces, "
        "or None (never warn)."
    )
    with pytest.raises(TypeError, match=r"explain_retraces got 'yes'\. Fix: set it to True"):
        jaxdc.Config(explain_retraces="yes")  # type: ignore[arg-type]


def test_tree_diff_reads_by_flattening_only_and_returns_the_subtrees() -> None:
    """Never unflattened: a class whose unflatten runs `__post_init__` (JAX's
    register_dataclass) is not re-run, and `old`/`new` are the caller's own objects."""
    calls: list[int] = []

    @dataclasses.dataclass
    class Counted:
        x: jax.Array

        def __post_init__(self) -> None:
            calls.append(1)

    jax.tree_util.register_dataclass(Counted, data_fields=["x"], meta_fields=[])

    a, b = Counted(jnp.ones(1)), Counted(jnp.ones(2))
    calls.clear()
    (d,) = jaxdc.tree_diff(a, b)
    assert (d.path, d.kind, d.old, d.new) == (".x", "shape", a.x, b.x) and calls == []
    (d,) = jaxdc.tree_diff({"a": None}, {"a": b})
    assert d.kind == "structure" and d.old is None and d.new is b
    assert str(d) == "['a'] changed structure None -> Counted"
