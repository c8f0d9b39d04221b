"""field(converter=...): a converter whose return type does not fit the field's type."""

from jaxdc import Static, field, pytree_dataclass


def parse(text: str) -> int:
    return int(text)


@pytree_dataclass
class Config:
    name: Static[str] = field(default="0", converter=parse)  # E: pyright,basedpyright reportGeneralTypeIssues  # E: ty invalid-assignment  # E: mypy-plugin jaxdc-converter: the converter 'parse' of field 'name' of class 'Config' returns 'int', which the field's type 'str' does not accept: the field holds what the converter returns. Fix: declare the field 'int', or convert to 'str'.
    count: Static[int] = field(default="0", converter=parse)
