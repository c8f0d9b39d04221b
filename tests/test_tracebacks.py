"""What tracebacks show: generated code has its source (linecache, `inspect.getsource`,
`__source__`), and jaxdc's frames are left out where JAX filters its own."""

from __future__ import annotations

import inspect
import textwrap
import traceback
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import jax
import jax.numpy as jnp
import jaxdc as jdc
import pytest
from jaxdc import _codegen
from jaxdc._spec import ClassSpec, spec_of
from jaxdc._tracebacks import GENERATED_DIR

JAXDC_DIR = str(Path(jdc.__file__).parent)
THIS_FILE = __file__


@jdc.pytree_dataclass
class Cached:
    w: jax.Array
    b: jax.Array
    name: jdc.Static[str] = "cached"


@jdc.pytree_dataclass(slots=True)
class Slotted:
    w: jax.Array
    tag: jdc.Static[int] = 0


@jdc.pytree_dataclass
class Derived:
    xs: jax.Array
    scale: float = jdc.field(pytree=False, default=2.0)
    mean: jax.Array = jdc.field(init=False, pytree=True)

    def __post_init__(self) -> None:
        self.mean = self.xs.mean()


def _spec(cls: type) -> ClassSpec:
    spec = spec_of(cls)
    assert spec is not None
    return spec


def _generated(cls: type) -> Iterator[tuple[str, Callable[..., Any]]]:
    """Every generated function of `cls`: its own methods and each `make_*` step."""
    spec = _spec(cls)
    yield "__init__", cls.__init__
    yield "replace", cls.__jaxdc_replace__  # type: ignore[attr-defined]
    for make in (
        _codegen.make_unflatten,
        _codegen.make_flatten_with_keys,
        _codegen.make_apply,
        _codegen.make_copy_mapped,
        _codegen.make_reseal,
    ):
        fn = make(spec)
        yield fn.__name__, fn
    yield (
        "flatten" if not spec.cached else "reseat",
        (_codegen.make_flatten(spec) if not spec.cached else _codegen.make_reseat(spec)),
    )


@pytest.mark.parametrize("cls", [Cached, Slotted, Derived])
def test_every_generated_function_has_its_source(cls: type) -> None:
    for name, fn in _generated(cls):
        filename = fn.__code__.co_filename
        assert filename == f"{GENERATED_DIR}/{name} of {__name__}.{cls.__qualname__}", name
        # (`__init__` is defined inside a factory that supplies its names: dedent it)
        source = textwrap.dedent(inspect.getsource(fn))
        assert source == fn.__source__ and source.startswith(f"def {name}("), name  # type: ignore[attr-defined]
        assert fn.__qualname__ == f"{cls.__qualname__}.{name}" and fn.__module__ == __name__


def test_a_traceback_shows_the_generated_line() -> None:
    with pytest.raises(TypeError) as info:
        Cached(jnp.zeros(2), jnp.zeros(2), name=["not", "hashable"])  # type: ignore[arg-type]
    frames = traceback.extract_tb(info.value.__traceback__)
    (init,) = [f for f in frames if f.filename.startswith(GENERATED_DIR)]
    assert (
        init.filename == f"{GENERATED_DIR}/__init__ of {__name__}.Cached"
        and init.name == "__init__"
    )
    assert init.line == "_jx_aux = _jx_bad_static(self, _jx_aux)"
    shown = "".join(traceback.format_exception(info.value))
    assert f'File "{init.filename}", line {init.lineno}, in __init__\n' in shown
    assert "    _jx_aux = _jx_bad_static(self, _jx_aux)\n" in shown


def test_same_named_classes_get_their_own_source_and_identical_ones_share_it() -> None:
    def make(extra: bool) -> type:
        if extra:

            @jdc.pytree_dataclass
            class Local:
                a: jax.Array
                b: jax.Array

        else:

            @jdc.pytree_dataclass  # type: ignore[no-redef]
            class Local:
                a: jax.Array

        return Local

    one, same, other = make(False), make(False), make(True)
    files = [c.__init__.__code__.co_filename for c in (one, same, other)]
    assert files[0] == files[1] != files[2]
    assert inspect.getsource(other.__init__) != inspect.getsource(one.__init__)
    assert "a, b" in inspect.getsource(other.__init__)


def test_golden_generated_steps_of_a_cached_class() -> None:
    spec = _spec(Cached)
    assert _codegen.make_unflatten(spec).__source__ == (  # type: ignore[attr-defined]
        "def unflatten(_jx_aux, _jx_children):\n"
        "    _jx_obj = _jx_new(_jx_cls)\n"
        "    _jx_set = _jx_bind(_jx_obj)\n"
        "    if _jx_children.__class__ is not _jx_tuple: _jx_children = _jx_tuple(_jx_children)\n"
        "    w, b, = _jx_children\n"
        "    name, = _jx_aux\n"
        "    _jx_set('w', w)\n"
        "    _jx_set('b', b)\n"
        "    _jx_set('name', name)\n"
        "    _jx_set('_jaxdc_flat_', (_jx_children, _jx_aux))\n"
        "    return _jx_obj\n"
    )
    assert _codegen.make_reseat(spec).__source__ == (  # type: ignore[attr-defined]
        "def reseat(_jx_obj, _jx_children):\n"
        "    _jx_set = _jx_bind(_jx_obj)\n"
        "    (w, b, ) = _jx_children\n"
        "    _jx_set('w', w)\n"
        "    _jx_set('b', b)\n"
        "    _jx_set('_jaxdc_flat_', (_jx_children, _jx_obj._jaxdc_flat_[1]))\n"
    )


def test_golden_generated_copy_of_a_slotted_class() -> None:
    assert _codegen.make_copy_mapped(_spec(Slotted)).__source__ == (  # type: ignore[attr-defined]
        "def copy(_jx_obj, _jx_map, _jx_plain):\n"
        "    w = _jx_obj.w\n"
        "    tag = _jx_obj.tag\n"
        "    if _jx_type(w) not in _jx_plain: w = _jx_map(w, 'w')\n"
        "    _jx_copy = _jx_new(_jx_cls)\n"
        "    _jx_set = _jx_bind(_jx_copy)\n"
        "    _jx_set('w', w)\n"
        "    _jx_set('tag', tag)\n"
        "    return _jx_copy\n"
    )


# -- internal frames out of tracebacks (JAX's default filtering) -------------------------


def _internal(frame: traceback.FrameSummary) -> bool:
    return frame.filename.startswith((JAXDC_DIR, GENERATED_DIR))


def _frames(exc: BaseException) -> list[traceback.FrameSummary]:
    return list(traceback.extract_tb(exc.__traceback__))


@jdc.pytree_dataclass
class Checked:
    w: jax.Array
    n: jdc.Static[int] = 1

    def __post_init__(self) -> None:
        if self.w.ndim != 1:
            raise ValueError("w must be a vector")

    @jdc.jit
    def grid(self, rows: jdc.Static[int]) -> jax.Array:
        return self.w.reshape(rows, -1) * self.n


@pytest.fixture(autouse=True)
def _default_filtering() -> Iterator[None]:
    before = jax.config.jax_traceback_filtering
    jax.config.update("jax_traceback_filtering", "auto")  # JAX's default
    yield
    jax.config.update("jax_traceback_filtering", before)


def test_an_error_inside_a_jitted_method_shows_the_users_frames_only() -> None:
    with pytest.raises(TypeError, match="cannot reshape") as info:
        Checked(jnp.zeros(4)).grid(3)  # the user's call
    frames = _frames(info.value)
    assert not [f for f in frames if _internal(f)]
    ours = [(f.name, f.line) for f in frames if f.filename == THIS_FILE]
    assert ours[0][1] == "Checked(jnp.zeros(4)).grid(3)  # the user's call"
    assert ours[-1] == ("grid", "return self.w.reshape(rows, -1) * self.n")


def test_an_error_in_post_init_under_jit_shows_the_users_frames_only() -> None:
    def build(w: jax.Array) -> Checked:
        return Checked(w.reshape(2, 2))  # construction inside jit

    with pytest.raises(ValueError, match="w must be a vector") as info:
        jax.jit(build)(jnp.zeros(4))
    frames = _frames(info.value)
    assert not [f for f in frames if _internal(f)]
    assert [f.name for f in frames if f.filename == THIS_FILE][-2:] == ["build", "__post_init__"]


def test_a_jaxdc_error_at_construction_under_jit_points_at_the_users_line() -> None:
    def build(w: jax.Array) -> Cached:
        return Cached(w, w, name=["not", "hashable"])  # type: ignore[arg-type]

    with pytest.raises(TypeError, match="static field 'name' of class 'Cached'") as info:
        jax.jit(build)(jnp.zeros(2))
    frames = _frames(info.value)
    assert not [f for f in frames if _internal(f)]
    assert frames[-1].filename == THIS_FILE and frames[-1].name == "build"
    assert (
        frames[-1].line == 'return Cached(w, w, name=["not", "hashable"])  # type: ignore[arg-type]'
    )


def test_jaxdc_jit_names_the_unhashable_parameter_at_the_users_line() -> None:
    with pytest.raises(TypeError, match="static parameter 'rows'") as info:
        Checked(jnp.zeros(4)).grid([2])  # type: ignore[arg-type]
    frames = _frames(info.value)
    assert not [f for f in frames if _internal(f)]
    assert frames[-1].filename == THIS_FILE


def test_a_copy_and_mutate_error_points_at_the_users_with_statement() -> None:
    with pytest.raises(ValueError, match=r"new\.w: field 'w' of class 'Cached'") as info:
        with jdc.copy_and_mutate(Cached(jnp.zeros(2), jnp.zeros(2))) as new:
            new.w = jnp.zeros(3)
    frames = _frames(info.value)
    assert not [f for f in frames if _internal(f)]
    assert frames[-1].filename == THIS_FILE


def test_filtering_off_shows_jaxdc_frames_again() -> None:
    jax.config.update("jax_traceback_filtering", "off")

    def build(w: jax.Array) -> Cached:
        return Cached(w, w, name=["not", "hashable"])  # type: ignore[arg-type]

    with pytest.raises(TypeError) as info:
        jax.jit(build)(jnp.zeros(2))
    files = [f.filename for f in _frames(info.value)]
    assert f"{GENERATED_DIR}/__init__ of {__name__}.Cached" in files
    assert any(f.startswith(JAXDC_DIR) for f in files)
    with pytest.raises(TypeError, match="cannot reshape") as info:
        Checked(jnp.zeros(4)).grid(3)
    assert any(f.filename.startswith(JAXDC_DIR) for f in _frames(info.value))  # jaxdc.jit's
