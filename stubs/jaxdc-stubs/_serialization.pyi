from collections.abc import Mapping
from typing import Any, TypeVar

_T = TypeVar("_T")

def to_state_dict(obj: Any) -> dict[str, Any]: ...
def from_state_dict(target: _T, state: Mapping[str, Any]) -> _T: ...
