"""jaxdc.jit: parameters annotated Static[T] are static; signature kept; clear unhashable errors."""

from __future__ import annotations

import inspect
from collections.abc import Callable
from types import ModuleType

import jax
import jax.numpy as jnp
import jaxdc as jdc
import pytest


class Counter(jdc.PyTreeNode):
    total: jax.Array
    scale: jdc.Static[float] = 2.0

    @jdc.jit
    def add(self, x: jax.Array, times: jdc.Static[int] = 1) -> Counter:
        for _ in range(times):  # a Python loop over a static value
            x = x * self.scale
        return self.replace(total=self.total + x)


def test_static_annotation_makes_the_parameter_static() -> None:
    traces = []

    @jdc.jit
    def power(x: jax.Array, n: jdc.Static[int]) -> jax.Array:
        traces.append(n)
        return x**n if isinstance(n, int) else x  # a traced n would not be an int

    assert float(power(jnp.float32(2.0), 3)) == 8.0
    assert float(power(jnp.float32(3.0), 3)) == 27.0  # cached: same static value
    assert float(power(jnp.float32(2.0), n=2)) == 4.0
    assert traces == [3, 2]


def test_string_annotations_and_local_imports(load_module: Callable[[str], ModuleType]) -> None:
    mod = load_module(
        """
        from __future__ import annotations
        import jax

        def make():
            from jaxdc import Static, jit

            @jit
            def f(x: jax.Array, mode: Static[str]) -> jax.Array:
                return x + 1 if mode == "inc" else x - 1
            return f
        """
    )
    f = mod.make()
    assert float(f(jnp.float32(1.0), "inc")) == 2.0
    assert float(f(jnp.float32(1.0), mode="dec")) == 0.0


def test_keeps_signature_name_and_doc() -> None:
    @jdc.jit
    def f(x: jax.Array, n: jdc.Static[int] = 2) -> jax.Array:
        """Doc."""
        return x * n

    assert f.__name__ == "f" and f.__doc__ == "Doc."
    assert list(inspect.signature(f).parameters) == ["x", "n"]
    assert inspect.signature(f).parameters["n"].default == 2


def test_call_form_passes_options_and_extra_static_names() -> None:
    @jdc.jit(donate_argnums=0, static_argnames="k")
    def f(x: jax.Array, n: jdc.Static[int], k: int) -> jax.Array:
        return x * n + k

    assert f(jnp.ones(2), 3, k=1).tolist() == [4.0, 4.0]
    assert "static: ['n', 'k']" in repr(f)


def test_positional_only_static_parameter() -> None:
    @jdc.jit
    def f(x: jax.Array, n: jdc.Static[int], /) -> jax.Array:
        return x * n

    assert f(jnp.ones(1), 4).tolist() == [4.0]


@pytest.mark.parametrize(
    ("value", "needle"),
    [
        ([1, 2], "got a value of type 'list', which is not hashable"),
        (jnp.ones(2), "got an array: arrays are not hashable"),
    ],
)
def test_unhashable_static_argument_names_the_parameter(value: object, needle: str) -> None:
    @jdc.jit
    def scale(x: jax.Array, factors: jdc.Static[tuple[int, ...]]) -> jax.Array:
        return x * len(factors)

    with pytest.raises(TypeError, match=r"static parameter 'factors' of .*scale") as info:
        scale(jnp.ones(1), value)
    assert needle in str(info.value) and "Fix:" in str(info.value)
    with pytest.raises(TypeError, match="static parameter 'factors'"):
        scale.lower(jnp.ones(1), factors=value)


def test_other_value_errors_pass_through() -> None:
    @jdc.jit
    def f(x: jax.Array) -> jax.Array:
        raise ValueError("mine")

    with pytest.raises(ValueError, match="mine"):
        f(jnp.ones(1))


def test_method_of_a_jaxdc_class_self_is_a_pytree() -> None:
    c = Counter(jnp.float32(0.0))
    out = c.add(jnp.float32(1.0), times=3)
    assert isinstance(out, Counter) and float(out.total) == 8.0
    assert list(inspect.signature(Counter.add).parameters) == ["self", "x", "times"]
    assert list(inspect.signature(c.add).parameters) == ["x", "times"]
    text = c.add.lower(jnp.float32(1.0)).as_text()
    assert "mul" in text


def test_lower_and_forwarded_attributes() -> None:
    @jdc.jit
    def f(x: jax.Array, n: jdc.Static[int]) -> jax.Array:
        return x * n

    lowered = f.lower(jnp.ones(3), 2)
    assert lowered.compile()(jnp.ones(3)).tolist() == [2.0] * 3
    assert f.eval_shape(jnp.ones(3), 2).shape == (3,)  # forwarded to jax's jitted function


def test_works_under_vmap_and_grad() -> None:
    @jdc.jit
    def f(x: jax.Array, n: jdc.Static[int]) -> jax.Array:
        return jnp.sum(x**n)

    assert jax.vmap(lambda x: f(x, 2))(jnp.ones((4, 3))).shape == (4,)
    assert jax.grad(lambda x: f(x, 2))(jnp.ones(3)).tolist() == [2.0] * 3


def test_unresolvable_static_annotation_names_the_parameter_at_the_first_call() -> None:
    # `tc` stands for a module imported only under TYPE_CHECKING.
    def f(x: jax.Array, n: tc.Static[int]) -> jax.Array:  # type: ignore[name-defined]  # noqa: F821
        return x

    jitted = jdc.jit(f)  # nothing is resolved at decoration
    with pytest.raises(TypeError, match=r"parameter 'n' of .*f' is static.*'tc'"):
        jitted(jnp.ones(2), 1)


def test_unresolvable_name_without_static_is_a_data_parameter() -> None:
    def f(x: Missing[int], y: Later) -> jax.Array:  # type: ignore[name-defined]  # noqa: F821
        return x + y

    assert float(jdc.jit(f)(jnp.float32(1.0), jnp.float32(2.0))) == 3.0


def test_variadic_static_is_rejected_at_the_first_call() -> None:
    def f(*xs: jdc.Static[int]) -> None: ...

    jitted = jdc.jit(f)
    with pytest.raises(TypeError, match=r"parameter 'xs' of .* is variadic"):
        jitted(1)


def test_methods_jitted_by_a_class_decorator_resolve_lazily(
    load_module: Callable[[str], ModuleType],
) -> None:
    # jaxlie's pattern: a class decorator jits every method while the class name is not yet
    # bound in its module, and some annotation types are imported only under TYPE_CHECKING.
    mod = load_module(
        """
        from __future__ import annotations
        from typing import TYPE_CHECKING
        import jax
        import jax.numpy as jnp
        import jaxdc as jdc

        if TYPE_CHECKING:
            from collections.abc import Sequence as OnlyForCheckers

        def jit_all_methods(cls):
            for name in ("scaled", "compose", "from_list", "identity"):
                setattr(cls, name, jdc.jit(getattr(cls, name)))
            return cls

        @jit_all_methods
        @jdc.pytree_dataclass
        class Rot:
            angle: jax.Array

            def scaled(self, k: jdc.Static[int], note: OnlyForCheckers[str] = ()) -> Rot:
                return Rot(self.angle * k if isinstance(k, int) else jnp.nan)

            def compose(self, other: Rot) -> Rot:
                return Rot(self.angle + other.angle)

            @classmethod
            def from_list(cls, values: OnlyForCheckers[float]) -> Rot:
                return cls(jnp.asarray(values).sum())

            @classmethod
            def identity(cls, batch_axes: jdc.Static[tuple[int, ...]] = ()) -> Rot:
                return cls(jnp.zeros(batch_axes))
        """
    )
    r = mod.Rot(jnp.float32(1.0))
    assert "not resolved yet" in repr(mod.Rot.__dict__["compose"])
    assert float(r.scaled(3).angle) == 3.0  # k static: a traced k would give nan
    assert float(r.compose(r).angle) == 2.0
    assert float(mod.Rot.from_list(jnp.array([1.0, 2.0])).angle) == 3.0
    assert mod.Rot.identity((2, 3)).angle.shape == (2, 3)  # batch_axes static: a shape
    assert "static: ['k']" in repr(mod.Rot.__dict__["scaled"])
