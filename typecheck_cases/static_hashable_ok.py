"""Static[...] accepts every hashable kind (no false alarm)."""

import dataclasses
import enum
from collections.abc import Callable
from typing import Literal, Optional

import jax.numpy as jnp

from jaxdc import Static, pytree_dataclass


class Mode(enum.Enum):
    TRAIN = "train"
    EVAL = "eval"


@dataclasses.dataclass(frozen=True)
class Settings:
    depth: int


class Plain:
    """Identity hash, inherited from object."""


@pytree_dataclass
class Model:
    w: jnp.ndarray
    count: Static[int] = 1
    name: Static[str] = "m"
    rate: Static[float] = 0.5
    flag: Static[bool] = True
    shape: Static[tuple[int, ...]] = (2, 3)
    axes: Static[frozenset[str]] = frozenset({"batch"})
    mode: Static[Mode] = Mode.TRAIN
    kind: Static[Literal["mlp", "cnn"]] = "mlp"
    activation: Static[Callable[[float], float]] = abs
    settings: Static[Settings] = Settings(2)
    dtype: Static[type[float]] = float
    nothing: Static[None] = None
    maybe: Static[Optional[int]] = None
    plain: Static[Plain] = Plain()


Model(jnp.zeros(2))
