# Candidate: the signatures before typed keywords (the mypy plugin types them).
from typing import Any, TypeVar

_T = TypeVar("_T")

# Field names and value types of `changes` are checked by the mypy plugin; no PEP lets a
# stub derive keyword parameters from a dataclass's fields.
def replace(obj: _T, /, **changes: Any) -> _T: ...
