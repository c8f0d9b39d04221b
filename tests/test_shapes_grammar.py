"""The shape-string grammar (`_jaxdc_rules.shapes`) against jaxtyping itself.

The mypy plugin reports `jaxdc-shape` for what `shape_problem` rejects, so a string
jaxtyping accepts and can evaluate must never be rejected (a false alarm), and a string
jaxtyping rejects must be (a miss otherwise). jaxtyping is the oracle: each string of a
generated corpus, and of the forms jaxtyping's documentation and tests use, is given to
`Float[Array, s]`, and its symbolic dimensions are evaluated the way jaxtyping does.
"""

from __future__ import annotations

import functools
import itertools
import random
from typing import Any

import pytest
from _jaxdc_rules.shapes import parse_shape, shape_problem
from jaxtyping import Array, Float, _array_types as jaxtyping_array_types

# Forms from jaxtyping's documentation and test suite.
JAXTYPING_EXAMPLES = [
    "",
    "3",
    "4 5",
    "4 5 foo",
    "foo",
    "foo bar",
    "a b",
    "c d a b",
    "_",
    "foo _",
    "b c _ _",
    "...",
    "... foo",
    "... c h w",
    "*batch",
    "*batch foo",
    " foo *batch bar",
    "*B L D",
    "*#B J d",
    " #*foo",
    " *#foo",
    " #foo",
    "#4",
    "dim",
    "dim-1",
    " 2*dim",
    "foo=4",
    "rows=4 cols=3",
    "bar #foo=bar",
    "bar foo=#bar",
    "bar qux foo=bar+qux",
    "foo bar min(foo,bar)",
    " {dim}",
    " {dim-1}",
    " {self.size}",
    " {self.size}-1",
    " {value}",
    "{size}",
    "?foo",
    "*?foo",
    "batch channels height width",
    "28 28",
]

# Forms jaxtyping rejects, each for a different reason.
JAXTYPING_REJECTS = [
    "*a *b",
    "... *b",
    "*a ...",
    "foo, bar",
    "a,b",
    "foo#",
    "##foo",
    "**foo",
    "__foo",
    "??foo",
    "*4",
    "_4",
    "?4",
    "#_",
    "#*_",
    "_foo+bar",
    "*foo+bar",
    "?foo+bar",
    "...foo",
    "*...",
]


class _One(int):
    """1, with any attribute (`{self.size}`): what an f-string field may be filled with."""

    def __getattr__(self, name: str) -> Any:
        return self


class _AnyName(dict[str, Any]):
    """A namespace in which every name is a `_One` (the f-string stage of a symbolic dim)."""

    def __missing__(self, key: str) -> Any:
        return _One(1)


def jaxtyping_accepts(dim_str: str) -> bool:
    """Whether jaxtyping accepts the string and could evaluate its symbolic dimensions."""
    try:
        annotation = Float[Array, dim_str]
    except ValueError:
        return False
    for dim in annotation.dims:
        expr = getattr(dim, "elem", None)
        if expr is None:
            continue
        try:  # jaxtyping: eval(f"f'{elem}'", arguments), then eval(result, sizes)
            filled = eval(compile(f"f'{expr}'", "<shape>", "eval"), {}, _AnyName())
            compile(filled, "<shape>", "eval")
        except Exception:  # anything that cannot be evaluated
            return False
    return True


@pytest.mark.parametrize("dim_str", JAXTYPING_EXAMPLES)
def test_no_false_alarm_on_jaxtypings_own_forms(dim_str: str) -> None:
    assert jaxtyping_accepts(dim_str)
    assert shape_problem(dim_str) is None


@pytest.mark.parametrize("dim_str", JAXTYPING_REJECTS)
def test_what_jaxtyping_rejects_is_rejected(dim_str: str) -> None:
    assert not jaxtyping_accepts(dim_str)
    assert shape_problem(dim_str) is not None


def test_unbalanced_expressions_are_reported() -> None:
    for dim_str in ["n+(", "(n", "n)", "{n", "n}", "{}", "a=b=c", "min(a,", "n+"]:
        assert shape_problem(dim_str) is not None, dim_str
        assert not jaxtyping_accepts(dim_str), dim_str


_VALID_TOKENS = [
    *["a", "b", "batch", "x1", "_", "n", "...", "3", "0", "12", "-1", "1_0", "+2"],
    *["n+1", "2*n", "min(a,b)", "n//2", "a**2", "x.y", "a==b", "a<=b", "{n}", "{n}+1"],
    *["{{n}}", "2{n}"],
]
_TOKENS = [
    *_VALID_TOKENS,
    *["n-", "(n", "n)", "{n}x", "{", "}", "{n:3}", "{}", "a=b=c", "....", "a,b", "a#"],
]
_PREFIXES = [
    "",
    "#",
    "*",
    "_",
    "?",
    "#*",
    "*#",
    "##",
    "**",
    "__",
    "??",
    "*_",
    "_*",
    "foo=",
    "#foo=",
]


def _corpus(size: int, seed: int = 0) -> list[str]:
    """Every prefixed token alone, then random strings of 2-4 of them (mostly unprefixed,
    so that valid strings are common too)."""
    rng = random.Random(seed)
    strings = {p + t for p, t in itertools.product(_PREFIXES, _TOKENS)}
    prefixes = [""] * 12 + ["#", "*", "foo="] * 2 + _PREFIXES
    while len(strings) < size:
        count = rng.randint(2, 4)
        tokens = [
            rng.choice(_TOKENS if rng.random() < 0.2 else _VALID_TOKENS) for _ in range(count)
        ]
        strings.add(" ".join(rng.choice(prefixes) + token for token in tokens))
    return sorted(strings)


@functools.cache
def corpus_verdicts(size: int = 3000) -> dict[str, bool]:
    """The generated corpus, each string with jaxtyping's verdict (the oracle): made once
    per process, for this test and the plugin's (test_plugin_shapes.py)."""
    return {s: jaxtyping_accepts(s) for s in _corpus(size)}


def test_generated_corpus_agrees_with_jaxtyping() -> None:
    verdicts = corpus_verdicts()
    corpus = list(verdicts)
    false_alarms = [s for s in corpus if verdicts[s] and shape_problem(s) is not None]
    # Whether `{n}x` or `{n:3}` evaluates depends on the value filled in (`ax` is a name,
    # `1x` is not), so such strings are given the benefit of the doubt: not misses.
    misses = [s for s in corpus if not verdicts[s] and shape_problem(s) is None and "{" not in s]
    assert false_alarms == []
    assert misses == []
    accepted = sum(shape_problem(s) is None for s in corpus)
    assert 600 < accepted < len(corpus) - 600  # the corpus exercises both sides


def _jaxtyping_kind(dim: Any) -> str:
    """The kind of one dimension as jaxtyping parsed it. Its two anonymous kinds are
    module singletons, told apart by identity: before 0.3 they are bare `object()`s."""
    if dim is jaxtyping_array_types._anonymous_dim:
        return "anonymous"
    if dim is jaxtyping_array_types._anonymous_variadic_dim:
        return "anonymous_variadic"
    return {
        "_NamedDim": "named",
        "_NamedVariadicDim": "variadic",
        "_FixedDim": "fixed",
        "_SymbolicDim": "symbolic",
    }[type(dim).__name__]


def test_parsed_dims_match_jaxtypings_reading() -> None:
    """Same kinds, names, sizes and variadic position as jaxtyping's own parse."""
    for dim_str in [s for s in _corpus(1500, seed=1) if jaxtyping_accepts(s)]:
        ours = parse_shape(dim_str)
        theirs = Float[Array, dim_str]
        assert ours.variadic == theirs.index_variadic, dim_str
        for mine, dim in zip(ours.dims, theirs.dims, strict=True):
            kind = type(dim).__name__
            assert mine.kind == _jaxtyping_kind(dim), (dim_str, mine, dim)
            assert mine.broadcastable == getattr(dim, "broadcastable", False), dim_str
            if kind in ("_NamedDim", "_NamedVariadicDim"):
                assert mine.name == dim.name, dim_str
            if kind == "_FixedDim":
                assert mine.size == dim.size, dim_str
            if kind == "_SymbolicDim":
                assert mine.name == dim.elem, dim_str
