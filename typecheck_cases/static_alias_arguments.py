"""A bare alias of Static (`S = jdc.Static`) takes one type argument, as Static does.

The plugin reads `S[int]` as the runtime and pyright do, `Static[int]`; plain mypy follows
the typing spec, for which a bare alias of a generic alias has no parameters."""

import jax

import jaxdc as jdc

S = jdc.Static


@jdc.pytree_dataclass
class Model:
    w: jax.Array
    k: S[int]  # E: mypy type-arg
    pair: S[int, str]  # E: pyright,basedpyright reportInvalidTypeForm  # E: ty invalid-type-arguments  # E: pyrefly bad-specialization  # E: zuban misc  # E: mypy type-arg  # E: mypy-plugin type-arg: Bad number of arguments for type alias, expected 1, given 2  # runtime: raises TypeError
