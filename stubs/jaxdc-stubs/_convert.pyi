import jax
from jax.typing import ArrayLike

# Typed, so a field declared with `converter=as_array` takes `ArrayLike` in `__init__`.
def as_array(value: ArrayLike, /) -> jax.Array: ...
