"""Static detection survives PEP 563 strings, local imports, Optional and forward refs."""

from __future__ import annotations

from collections.abc import Callable
from types import ModuleType

import jax
import pytest

Load = Callable[[str], ModuleType]


def _statics(obj: object) -> str:
    return str(jax.tree.structure(obj))


def test_future_annotations_module_level_import(load_module: Load) -> None:
    m = load_module(
        """
        from __future__ import annotations
        from typing import Optional
        import jax, jax.numpy as jnp
        import jaxdc as jdc

        @jdc.pytree_dataclass
        class A:
            x: jax.Array
            name: jdc.Static[str]
            maybe: jdc.Static[Optional[int]] = None
            opt_data: Optional[jax.Array] = None

        a = A(jnp.ones(2), "n", 3)
        """
    )
    assert len(jax.tree.leaves(m.a)) == 1 and "A(name='n', maybe=3)" in _statics(m.a)


def test_future_annotations_with_local_import(load_module: Load) -> None:
    m = load_module(
        """
        from __future__ import annotations

        def make():
            import jax.numpy as jnp
            from jaxdc import Static, pytree_dataclass
            from jax import Array

            @pytree_dataclass
            class Local:
                x: Array
                k: Static[int]

            return Local(jnp.ones(1), 5)

        obj = make()
        """
    )
    assert jax.tree.leaves(m.obj)[0].shape == (1,) and "5" in _statics(m.obj)


def test_local_import_unhashable_static_is_still_rejected(load_module: Load) -> None:
    with pytest.raises(
        TypeError, match="static field 'ids' of class 'Local' has unhashable type 'list\\[int\\]'"
    ):
        load_module(
            """
            from __future__ import annotations

            def make():
                from jaxdc import Static, pytree_dataclass

                @pytree_dataclass
                class Local:
                    ids: Static[list[int]]

            make()
            """
        )


def test_forward_reference_resolved_lazily(load_module: Load) -> None:
    m = load_module(
        """
        from __future__ import annotations
        from typing import Optional
        import jax, jax.numpy as jnp
        import jaxdc as jdc

        @jdc.pytree_dataclass
        class Tree:
            value: jax.Array
            child: Optional[Later]
            label: jdc.Static[Label]

        @jdc.pytree_dataclass
        class Later:
            w: jax.Array

        Label = str
        t = Tree(jnp.ones(1), Later(jnp.zeros(2)), "root")
        """
    )
    leaves = jax.tree.leaves(m.t)
    assert [leaf.shape for leaf in leaves] == [(1,), (2,)] and "'root'" in _statics(m.t)
    assert jax.tree.map(lambda x: x + 1, m.t).child.w.tolist() == [1.0, 1.0]


def test_static_of_forward_reference(load_module: Load) -> None:
    m = load_module(
        """
        import jax, jax.numpy as jnp
        import jaxdc as jdc

        @jdc.pytree_dataclass
        class A:
            x: jax.Array
            mode: jdc.Static["Mode"]

        class Mode(str):
            pass

        a = A(jnp.ones(1), Mode("fast"))
        """
    )
    assert len(jax.tree.leaves(m.a)) == 1 and "fast" in _statics(m.a)


def test_unresolvable_name_gives_error_naming_the_field(load_module: Load) -> None:
    m = load_module(
        """
        from __future__ import annotations
        from typing import TYPE_CHECKING
        import jax
        import jaxdc as jdc
        if TYPE_CHECKING:
            from somewhere import Missing

        @jdc.pytree_dataclass
        class A:
            x: jax.Array
            thing: Missing
        """
    )
    with pytest.raises(TypeError) as info:
        m.A(1, 2)
    message = str(info.value)
    assert "field 'thing' of class 'A'" in message and "'Missing'" in message
    assert "jaxdc.field(static=False)" in message


def test_explicit_kind_skips_unresolvable_annotation(load_module: Load) -> None:
    m = load_module(
        """
        from __future__ import annotations
        from typing import TYPE_CHECKING
        import jax, jax.numpy as jnp
        import jaxdc as jdc
        if TYPE_CHECKING:
            from somewhere import Missing, Tag

        @jdc.pytree_dataclass
        class A:
            x: Missing = jdc.field(static=False)
            tag: Tag = jdc.field(static=True, default="t")

        a = A(jnp.ones(3))
        """
    )
    assert jax.tree.leaves(m.a)[0].shape == (3,) and "'t'" in _statics(m.a)


def test_annotated_with_marker_and_alias(load_module: Load) -> None:
    m = load_module(
        """
        from __future__ import annotations
        from typing import Annotated
        import jax, jax.numpy as jnp
        import jaxdc as jdc
        from jaxdc._static import STATIC_MARKER

        Name = jdc.Static[str]

        @jdc.pytree_dataclass
        class A:
            x: jax.Array
            a: Name
            b: Annotated[int, "doc", STATIC_MARKER]
            c: Annotated[jax.Array, "not static"]

        a = A(jnp.ones(1), "n", 2, jnp.zeros(1))
        """
    )
    assert len(jax.tree.leaves(m.a)) == 2 and "A(a='n', b=2)" in _statics(m.a)


def test_class_defined_by_exec_resolves_in_its_own_globals() -> None:
    """PEP 563 strings must be evaluated where the class statement ran, which is not
    `sys.modules[cls.__module__]` for exec'd code (notebooks, REPL tools, demos)."""
    import jax.numpy as jnp
    import jaxdc as jdc

    source = (
        "from __future__ import annotations\n"
        "@jdc.pytree_dataclass\n"
        "class A:\n"
        "    w: jax.Array\n"
        "    k: jdc.Static[int]\n"
        "a = A(jnp.ones(2), 3)\n"
    )
    scope = {"jax": jax, "jnp": jnp, "jdc": jdc}
    exec(compile(source, "<notebook>", "exec"), scope)
    assert len(jax.tree.leaves(scope["a"])) == 1 and "3" in _statics(scope["a"])


def test_quoted_annotation_under_future_annotations(load_module: Load) -> None:
    """`x: "T"` under PEP 563 is the string "'T'": evaluating it yields a str, not an error."""
    m = load_module(
        """
        from __future__ import annotations
        import jax, jax.numpy as jnp
        import jaxdc as jdc

        @jdc.pytree_dataclass
        class A:
            x: "jax.Array"
            k: "jdc.Static[int]"

        @jdc.pytree_dataclass
        class B:
            y: "Missing[int]"

        a = A(jnp.ones(1), 2)
        """
    )
    assert len(jax.tree.leaves(m.a)) == 1 and "2" in _statics(m.a)
    with pytest.raises(TypeError, match="field 'y' of class 'B'.*'Missing'"):
        m.B(1)
    with pytest.raises(
        TypeError, match="static field 'ids' of class 'C' has unhashable type 'list\\[int\\]'"
    ):
        load_module(
            """
            from __future__ import annotations
            import jaxdc as jdc

            @jdc.pytree_dataclass
            class C:
                ids: "jdc.Static[list[int]]"
            """
        )
