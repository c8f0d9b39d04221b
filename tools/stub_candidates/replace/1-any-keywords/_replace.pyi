# Candidate: the signatures before typed keywords (the mypy plugin types them).
from typing import Any, TypeVar

from typing_extensions import Self

_T = TypeVar("_T")

def replace(obj: _T, /, **changes: Any) -> _T: ...

# PyTreeNode's `replace` (tools/stub_candidates.py makes it a base of PyTreeNode).
class _ReplaceMixin:
    def replace(self, **changes: Any) -> Self: ...
