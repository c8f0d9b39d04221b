from typing import Any, Literal

class TreeDifference:
    path: str
    kind: Literal["static", "structure", "shape", "dtype"]
    old: Any
    new: Any
    field: str | None
    owner: str | None
    def __init__(
        self,
        path: str,
        kind: Literal["static", "structure", "shape", "dtype"],
        old: Any,
        new: Any,
        field: str | None = None,
        owner: str | None = None,
    ) -> None: ...

def tree_diff(old: Any, new: Any) -> list[TreeDifference]: ...
