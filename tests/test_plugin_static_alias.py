"""An unhashable `Static[...]` written through a type alias is reported once, by the plugin.

The stubs' bound on `Static` makes mypy report `Sizes = Static[list[int]]` on the alias's
line (`type-var`, naming neither the field nor the fix); the plugin reports the field or
jitted parameter that uses it (`jaxdc-static`). Before, both stayed: one mistake, two
errors. An alias imported from another module keeps mypy's error in that module (checked,
and its errors final, before the module using it), and the use is reported by the plugin.
"""

from __future__ import annotations

from checkers import Project

SIZES = (
    "static field 'sizes' of class 'A' has unhashable type 'list[int]': 'list' is mutable"
    " and not hashable. Static values are part of the treedef and used as jit cache keys, so"
    " they must be hashable. Fix: use an immutable type such as tuple[...] or frozenset[...],"
    " or make 'sizes' a data field."
)
OPT = (
    "static field 'opt' of class 'A' has unhashable type 'dict[str, int]': 'dict' is mutable"
    " and not hashable. Static values are part of the treedef and used as jit cache keys, so"
    " they must be hashable. Fix: use an immutable type such as tuple[...] or frozenset[...],"
    " or make 'opt' a data field."
)
LOOSE = (
    "static parameter 's' of jitted function 'f' has unhashable type 'Loose': dataclass"
    " 'Loose' is not frozen. Static arguments are used as jit cache keys, so they must be"
    " hashable. Fix: declare 'Loose' with @dataclass(frozen=True)."
)
IMPORTED = SIZES.replace("'A'", "'B'")

FILES = {
    "aliases.py": """
        from typing import List

        import jaxdc as jdc

        Sizes = jdc.Static[List[int]]  # E: mypy-plugin type-var
        """,
    "use.py": f"""
        from __future__ import annotations

        import dataclasses
        from typing import List, Optional

        import jax

        import jaxdc as jdc
        from aliases import Sizes as ImportedSizes

        Sizes = jdc.Static[List[int]]
        Cfg = jdc.Static[dict[str, int]]
        Fine = jdc.Static[int]


        @dataclasses.dataclass
        class Loose:
            depth: int


        LooseStatic = jdc.Static[Loose]


        @jdc.pytree_dataclass
        class A:
            x: jax.Array
            sizes: Sizes  # E: mypy-plugin jaxdc-static: {SIZES}
            opt: Optional[Cfg] = None  # E: mypy-plugin jaxdc-static: {OPT}
            n: Fine = 1


        @jdc.pytree_dataclass
        class B:
            sizes: ImportedSizes  # E: mypy-plugin jaxdc-static: {IMPORTED}


        @jdc.jit
        def f(x: jax.Array, s: LooseStatic) -> jax.Array:  # E: mypy-plugin jaxdc-static: {LOOSE}
            return x
        """,
}


def test_an_alias_of_an_unhashable_static_is_reported_once(project: Project) -> None:
    project.write(FILES)
    for run in ("cold", "warm"):
        problems = project.problems(project.mypy())
        assert not problems, f"{run} run:\n" + "\n".join(problems)
