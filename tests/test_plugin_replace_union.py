"""The mypy plugin types `replace` on a union of jaxdc classes (`A | B`) for every target.

The runtime replaces on whichever class the object has, so a keyword every member has, of
a type every member accepts, is correct code. Without the plugin's handling mypy fell back
to the stubs: any keyword before 3.13 (a keyword one member lacks was missed), and from
3.13 a `__replace__` protocol no union satisfies (a false alarm, or two, on correct code).
"""

from __future__ import annotations

import pytest
from checkers import TARGETS, Project

FILES = {
    "union.py": """
        from typing import Optional, Union

        import jax
        import jaxdc
        from jaxdc import PyTreeNode, Static, pytree_dataclass


        class A(PyTreeNode):
            x: jax.Array
            n: Static[int] = 1


        class B(PyTreeNode):
            x: jax.Array
            tag: Static[str] = "b"


        @pytree_dataclass
        class C:
            x: jax.Array


        def either(o: Union[A, B]) -> Union[A, B]:
            return jaxdc.replace(o, x=o.x + 1)


        def method(o: A | B) -> A | B:
            return o.replace(x=o.x + 1)


        def mixed(o: A | C) -> A | C:
            return jaxdc.replace(o, x=o.x + 1)


        def maybe(o: Optional[A]) -> A:
            assert o is not None
            return jaxdc.replace(o, n=2)


        def missing(o: A | B) -> A | B:
            return jaxdc.replace(o, n=2)  # E: mypy-plugin call-arg: Unexpected keyword argument "n" for "replace"


        def wrong_type(o: A | B) -> A | B:
            return jaxdc.replace(o, x="s")  # E: mypy-plugin arg-type: Argument "x" to "replace" has incompatible type "str"; expected "Array"


        def method_missing(o: A | B) -> A | B:
            return o.replace(tag="t")  # E: mypy-plugin call-arg: Unexpected keyword argument "tag" for "replace" of "PyTreeNode"
        """,
}


@pytest.mark.parametrize("target", TARGETS)
def test_replace_on_a_union_takes_the_common_fields(project: Project, target: str) -> None:
    project.write(FILES)
    problems = project.problems(project.mypy("--python-version", target, "."))
    assert not problems, "\n".join(problems)
