"""The machinery of `copy_and_mutate` (public in `jaxdc._copy_and_mutate`); see README.md."""

from jaxdc._edit._block import CopyAndMutate

__all__ = ["CopyAndMutate"]
