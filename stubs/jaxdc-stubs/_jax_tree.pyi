# JAX's own field specifier, `jax.tree.static`, as jaxdc's `dataclass_transform`s name it
# (stubs/README.md, "Why each choice"). A stub-only module: nothing imports it at runtime.
#
# jax >= 0.9.1 defines `jax.tree.static`; older releases (the oldest supported, 0.4.36)
# do not, and a field specifier that does not resolve costs pyright, basedpyright and zuban
# *all* of a transform's field specifiers. So the name is bound through a star import, which
# binds it only where JAX has it, followed by a stand-in that nothing calls: mypy and zuban
# keep a name's first binding (JAX's, when it exists), pyright its last, and every checker
# resolves the name whatever the installed JAX.
from typing import Any

from jax.tree import *  # noqa: F403

def static(**kwargs: Any) -> Any: ...  # type: ignore[no-redef]
