"""check_shapes=True: the option, ShapeError, dims and EnforcedAnnotationsMixin are typed."""

from typing import Annotated

import jax
import jax.numpy as jnp
from jaxtyping import Array, Float
from typing_extensions import assert_type

import jaxdc as jdc


@jdc.pytree_dataclass(check_shapes=True)
class Batch:
    x: Float[Array, "b n"]
    y: Float[Array, "b"]


class Points(jdc.PyTreeNode, check_shapes=True):
    xyz: Annotated[jax.Array, (..., 3), jnp.floating]


@jdc.pytree_dataclass
class Mnist(jdc.EnforcedAnnotationsMixin):
    image: Annotated[jax.Array, (28, 28), jnp.floating]


batch = Batch(jnp.zeros((4, 3)), jnp.zeros(4))
sizes = jdc.dims(batch)
assert_type(Mnist(jnp.zeros((2, 28, 28))).get_batch_axes(), tuple[int, ...])
assert_type(Points(jnp.zeros((5, 3))).xyz, jax.Array)
try:
    Batch(jnp.zeros((4, 3)), jnp.zeros(5))
except jdc.ShapeError as error:
    assert isinstance(error, ValueError)


class Typo(jdc.PyTreeNode):
    x: Float[Array, "*a *b"]  # E: mypy-plugin jaxdc-shape: field 'x' of class 'Typo': shape "*a *b" is malformed: '*a' and '*b' both match any number of axes; a shape can have at most one variadic dimension (... or *name). Fix: write space-separated dimensions: sizes (3), names (n), expressions (n+1), and at most one *name or ... for any number of axes.  # runtime: raises ValueError
