"""field(converter=...): a converter whose return type does not fit the field's type."""

from jaxdc import Static, field, pytree_dataclass


def parse(text: str) -> int:
    return int(text)


@pytree_dataclass
class Config:
    name: Static[str] = field(default="0", converter=parse)  # E: pyright,basedpyright reportGeneralTypeIssues  # E: ty invalid-assignment
    count: Static[int] = field(default="0", converter=parse)
