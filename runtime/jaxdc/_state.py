"""The two steps of restoring a jaxdc instance from a state dict, shared by
`jaxdc.from_state_dict` (`_serialization`) and flax.serialization (`_flax`): check that the
state has exactly the target's keys, and rebuild the instance from restored children."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import jax
from _jaxdc_rules import messages

from jaxdc._display import class_name
from jaxdc._shapes import check_instance
from jaxdc._spec import spec_of

__all__ = ["fields_of", "rebuild"]


def fields_of(state: Any, keys: list[str] | tuple[str, ...], path: str, target: Any) -> list[Any]:
    """The values of `keys` in `state`, which must have exactly those keys."""
    owner = class_name(type(target))
    if not isinstance(state, Mapping):
        raise ValueError(messages.state_not_a_dict(path, keys, owner, class_name(type(state))))
    missing = [k for k in keys if k not in state]
    unknown = [k for k in state if k not in keys]
    if missing or unknown:
        spec = spec_of(type(target))
        static = [n for n in spec.static if n in unknown] if spec is not None else []
        raise ValueError(messages.state_keys(path, owner, keys, missing, unknown, static))
    return [state[k] for k in keys]


def rebuild(target: Any, children: list[Any]) -> Any:
    """A new instance of target's class with these data fields, built by its unflatten."""
    _, treedef = jax.tree_util.tree_flatten(target, is_leaf=lambda x: x is not target)
    rebuilt = jax.tree_util.tree_unflatten(treedef, children)
    check_instance(rebuilt)  # check_shapes=True: restored values are checked like new ones
    return rebuilt
