from contextlib import AbstractContextManager
from typing import Any, TypeVar

_T = TypeVar("_T")

# The copy is `Any` for a checker reading only the stubs: every checker reports plain
# assignment to a field of a frozen class, and assignment is what the block is for. `Any` is
# the one type that keeps `new.a.b = x` clean while `obj.a = x` outside a block stays an
# error; docs/checker-parity.md compares the candidates measured on every checker. The mypy
# plugin gives the copy the type of `obj` back and checks each assignment.
def copy_and_mutate(obj: _T, validate: bool = True) -> AbstractContextManager[Any]: ...
