from contextlib import AbstractContextManager
from typing import TypeVar

_T = TypeVar("_T")

# The copy has the type of `obj`, so reads are typed; writes go through `jaxdc.attr` (see
# stubs/README.md: the checkers see the copy as frozen).
def copy_and_mutate(obj: _T, validate: bool = True) -> AbstractContextManager[_T]: ...
