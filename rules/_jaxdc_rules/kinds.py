"""Which kind a field is: data (a pytree child), static (part of the treedef) or excluded.

Both layers call ``decide_kind`` with the facts they read: the runtime from the field's
metadata and its evaluated annotation, the plugin from the literal keywords of the
``field(...)`` call and the unanalysed annotation. The rule:

- ``pytree=False`` is the one explicit exclusion: the field is neither a leaf nor part of the
  treedef, and holds its default after ``jit``/``vmap``/``tree_map``;
- otherwise an explicit static flag decides (``static=True``, ``static_field``, flax's
  ``pytree_node=False``, ``metadata={"static": True}``);
- otherwise the annotation does (``Static[T]``), and a parent's static field stays static
  when a subclass redeclares it.

``init=False`` does not matter: such a field is computed in ``__post_init__`` (the
jax_dataclasses idiom) and jaxdc never re-runs ``__post_init__`` on unflatten, so it is
carried in the pytree like any other field.
"""

from __future__ import annotations

from typing import Final, Literal

DATA: Final = "data"
STATIC: Final = "static"
EXCLUDED: Final = "excluded"
UNKNOWN: Final = "unknown"
"""A flag the plugin cannot read (``static=flag``): the field is not checked."""

Kind = Literal["data", "static", "excluded", "unknown"]
Flag = bool | None | Literal["unknown"]
"""A keyword's value: given True/False, not given (None), or not a literal."""


def explicit_static(
    *, static: Flag = None, pytree_node: Flag = None, static_field: bool = False
) -> Flag:
    """The static flag spelled by ``field(static=...)``, ``field(pytree_node=...)`` (flax's
    spelling: ``pytree_node=False`` is ``static=True``) or ``static_field(...)``.

    Raises ``ValueError`` when two spellings contradict each other.
    """
    if static_field:
        return True
    from_node: Flag = (not pytree_node) if isinstance(pytree_node, bool) else pytree_node
    if static is None:
        return from_node
    if isinstance(static, bool) and isinstance(from_node, bool) and static != from_node:
        raise ValueError((static, pytree_node))
    return UNKNOWN if UNKNOWN in (static, from_node) else static


def decide_kind(*, static: Flag, pytree: Flag, annotated_static: bool) -> Kind:
    """The kind of a field a class declares (``static``: see ``explicit_static``)."""
    if pytree is False:
        return "excluded"
    if UNKNOWN in (static, pytree):
        return "unknown"
    if static is not None:
        return "static" if static else "data"
    return "static" if annotated_static else "data"


def inherited_kind(parent: str | None, own: Kind) -> Kind:
    """A field a subclass redeclares: a parent's static field stays static
    (``sizes: list[int]`` over ``sizes: Static[Sequence[int]]``), so a field cannot
    silently move between the treedef and the leaves; its new type is checked."""
    return "static" if parent == STATIC and own == DATA else own
