"""jit: Static parameters of unhashable types, in every decorator form."""

import jax
import jaxdc
from jaxdc import Static
from jaxdc import Static as S


@jaxdc.jit
def f(x: jax.Array, sizes: Static[list[int]], n: Static[int], arr: S[jax.Array]) -> jax.Array:  # E: pyright,basedpyright reportInvalidTypeForm  # E: pyright,basedpyright reportInvalidTypeForm  # E: ty invalid-type-arguments  # E: ty invalid-type-arguments  # E: pyrefly bad-specialization  # E: pyrefly bad-specialization  # E: zuban,mypy type-var  # E: zuban,mypy type-var  # E: mypy-plugin jaxdc-static: static parameter 'sizes' of jitted function 'f' has unhashable type 'list[int]': 'list' is mutable and not hashable. Static arguments are used as jit cache keys, so they must be hashable. Fix: use an immutable type such as tuple[...] or frozenset[...], or drop Static[...] from 'sizes'.  # E: mypy-plugin jaxdc-static: static parameter 'arr' of jitted function 'f' has unhashable type 'jax.Array': arrays are not hashable. Static arguments are used as jit cache keys, so they must be hashable. Fix: drop Static[...] from 'arr' so the array is traced.
    return x


@jaxdc.jit
def g(x: jax.Array, n: Static[int], names: Static[tuple[str, ...]]) -> jax.Array:
    return x


@jaxdc.jit(donate_argnums=0)
def h(x: jax.Array, table: Static[dict[str, int]]) -> jax.Array:  # E: pyright,basedpyright reportInvalidTypeForm  # E: ty invalid-type-arguments  # E: pyrefly bad-specialization  # E: zuban,mypy type-var  # E: mypy-plugin jaxdc-static: static parameter 'table' of jitted function 'h' has unhashable type 'dict[str, int]': 'dict' is mutable and not hashable. Static arguments are used as jit cache keys, so they must be hashable. Fix: use an immutable type such as tuple[...] or frozenset[...], or drop Static[...] from 'table'.
    return x


class Model:
    @jaxdc.jit(static_argnames="n")
    def apply(self, x: jax.Array, n: int, seen: Static[set[int]]) -> jax.Array:  # E: pyright,basedpyright reportInvalidTypeForm  # E: ty invalid-type-arguments  # E: pyrefly bad-specialization  # E: zuban,mypy type-var  # E: mypy-plugin jaxdc-static: static parameter 'seen' of jitted function 'apply' has unhashable type 'set[int]': 'set' is mutable and not hashable. Static arguments are used as jit cache keys, so they must be hashable. Fix: use an immutable type such as tuple[...] or frozenset[...], or drop Static[...] from 'seen'.
        return x


jaxdc.jit(g)
