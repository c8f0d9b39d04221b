"""The mypy plugin types `field(converter=...)` across modules, from mypy's cache, and for
every kind of converter (issue 18; typecheck_cases/converter_*.py hold the one-module cases).

A base class in one module, read from the cache on the second run, is subclassed and
constructed in another: inherited converter fields must keep the converter's input type
(the plugin reads it from the base's methods mypy cached, not from the source). A
`PyTreeNode` subclass is constructed above its class statement too, before mypy checks it.
"""

from __future__ import annotations

from checkers import Project

FILES = {
    "base.py": """
        import functools
        from collections.abc import Callable
        from dataclasses import InitVar
        from typing import Generic, TypeVar

        import jax
        import jax.numpy as jnp
        from jax.typing import ArrayLike

        import jaxdc
        from jaxdc import Static, field, pytree_dataclass

        T = TypeVar("T")

        to_array: Callable[[ArrayLike], jax.Array] = jnp.asarray


        def deco(f: Callable[[str], int]) -> Callable[[str], int]:
            return f


        @deco
        def parse(text: str) -> int:
            return int(text)


        def ident(x: T) -> T:
            return x


        @pytree_dataclass
        class Base:
            a: jax.Array = field(converter=to_array)
            b: Static[int] = field(default="1", converter=parse)
            c: Static[tuple[int, ...]] = field(default=[1], converter=tuple)
            d: Static[int] = field(default="2", converter=int)
            e: Static[float] = field(default=1, converter=float)
            f: Static[int] = field(default="0", converter=functools.partial(int, base=10))
            g: Static[int] = field(default=0, converter=ident)
            h: jax.Array = field(default=0.0, converter=jnp.asarray)


        @pytree_dataclass
        class Gen(Generic[T]):
            x: jax.Array = field(converter=jaxdc.as_array)
            t: Static[T] = field(default=None, converter=ident)


        @pytree_dataclass
        class Custom:
            n: Static[int] = field(converter=parse)

            def __init__(self, n: int) -> None:
                jaxdc.attr(self, lambda s: s.n).set(n)


        @pytree_dataclass
        class WithInitVar:
            w: jax.Array = field(converter=jaxdc.as_array)
            scale: InitVar[float] = field(default=1, converter=float)

            def __post_init__(self, scale: float) -> None:
                pass
        """,
    "use.py": """
        import numpy as np

        import jaxdc
        from base import Base, Custom, Gen, WithInitVar


        def early() -> None:  # checked before the class: typed by the constructor hook
            Sub(np.zeros(2), b="3", z="4")
            Sub("x")  # E: mypy-plugin arg-type


        class Sub(Base, jaxdc.PyTreeNode):
            z: jaxdc.Static[int] = jaxdc.field(default="0", converter=int)


        Base(np.zeros(2), b="2", c=[1, 2], d="3", e=2, f="3", g=5, h=[1.0])
        Sub(np.zeros(2), b="3", z="4")
        jaxdc.replace(Sub(1.0), a=np.ones(1), b="5", z=6.0)
        g = Gen[int](1.0, t=3)
        jaxdc.replace(g, x=2.0, t=4)
        jaxdc.replace(Custom(3), n="4")
        WithInitVar(1.0, scale="2")
        jaxdc.replace(WithInitVar(1.0), w=1.0, scale=2)

        Base(np.zeros(2), b=2)  # E: mypy-plugin arg-type
        Sub(np.zeros(2), z=[4])  # E: mypy-plugin arg-type
        jaxdc.replace(Sub(1.0), b=5)  # E: mypy-plugin arg-type
        jaxdc.replace(Custom(3), n=4)  # E: mypy-plugin arg-type
        Gen[int]("x")  # E: mypy-plugin arg-type
        """,
    # mypy types (and caches) Node's constructor at the guarded call above the class,
    # before the plugin retypes it when mypy checks the class: the cache must be dropped.
    "early.py": """
        import jax
        import numpy as np

        import jaxdc

        BUILD_EXAMPLE = None
        EXAMPLE = [Node(np.zeros(2))] if BUILD_EXAMPLE else None  # E: mypy-plugin used-before-def


        class Node(jaxdc.PyTreeNode):
            w: jax.Array = jaxdc.field(converter=jaxdc.as_array)


        Node(np.zeros(2))
        Node("x")  # E: mypy-plugin arg-type
        """,
}


def test_converter_fields_across_modules_cold_and_warm(project: Project) -> None:
    project.write(FILES)
    for run in ("cold", "warm"):
        problems = project.problems(project.mypy())
        assert not problems, f"{run} run:\n" + "\n".join(problems)
