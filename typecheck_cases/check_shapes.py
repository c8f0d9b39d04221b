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
    x: Float[Array, "*a *b"]  # E: mypy jaxdc-shape  # runtime: raises ValueError
