"""jaxdc.attr(...).set(): only on self in a constructor or on the copy inside its block."""

import jax
import jax.numpy as jnp
import jaxdc
from jaxdc import Static, field, pytree_dataclass


@pytree_dataclass
class Inner:
    x: jax.Array


@pytree_dataclass
class Outer:
    inner: Inner
    mean: jax.Array = field(init=False, pytree=True)
    cache: int = field(pytree=False, init=False, default=0)
    name: Static[str] = "o"

    def __init__(self, inner: Inner) -> None:
        jaxdc.attr(self, lambda s: s.inner).set(inner)
        jaxdc.attr(self, lambda s: s.mean).set(inner.x.mean())
        jaxdc.attr(self, lambda s: s.cache).set(1)  # E: mypy-plugin jaxdc-mutation: field 'cache' of class 'Outer' is left out of the pytree (pytree=False), so a value set during construction would be lost after jit/vmap/tree_map (jaxdc never re-runs __init__/__post_init__ on unflatten). Fix: drop pytree=False to carry it in the pytree (Static[...] if it is configuration), or compute it in a property.
        jaxdc.attr(self, lambda s: s.inner.x + 1).set(inner.x)  # E: mypy-plugin jaxdc-mutation: jaxdc.attr() expects a function returning an attribute path of its argument, such as `lambda o: o.a.b` or `lambda o: o.layers[0].w`

    def rename(self, name: str) -> None:
        jaxdc.attr(self, lambda s: s.name).set(name)  # E: mypy-plugin jaxdc-mutation: cannot assign to field 'name' of 'Outer': jaxdc instances are frozen, like JAX arrays; fields can be set only on `self` in __init__/__post_init__ or inside `with jaxdc.copy_and_mutate(...)`. Fix: jaxdc.replace(obj, name=...), or `with jaxdc.copy_and_mutate(obj) as new: new.name = ...` (spelled `jaxdc.attr(new, lambda n: n.name).set(...)` where type checkers must accept it).


def edit(obj: Outer) -> Outer:
    with jaxdc.copy_and_mutate(obj) as new:
        jaxdc.attr(new, lambda n: n.inner.x).set(jnp.ones(2))
        jaxdc.attr(new.inner, lambda i: i.x).set(jnp.ones(2))
        if new.name:
            jaxdc.attr(new, lambda n: n.name).set("edited")
        jaxdc.attr(obj, lambda n: n.name).set("original")  # E: mypy-plugin jaxdc-mutation: cannot assign to field 'name' of 'Outer': jaxdc instances are frozen, like JAX arrays; fields can be set only on `self` in __init__/__post_init__ or inside `with jaxdc.copy_and_mutate(...)`. Fix: jaxdc.replace(obj, name=...), or `with jaxdc.copy_and_mutate(obj) as new: new.name = ...` (spelled `jaxdc.attr(new, lambda n: n.name).set(...)` where type checkers must accept it).
    jaxdc.attr(new, lambda n: n.name).set("too late")  # E: mypy-plugin jaxdc-mutation: cannot assign to field 'name' of 'Outer': jaxdc instances are frozen, like JAX arrays; fields can be set only on `self` in __init__/__post_init__ or inside `with jaxdc.copy_and_mutate(...)`. Fix: jaxdc.replace(obj, name=...), or `with jaxdc.copy_and_mutate(obj) as new: new.name = ...` (spelled `jaxdc.attr(new, lambda n: n.name).set(...)` where type checkers must accept it).
    return new


def on_the_class() -> None:
    jaxdc.attr(Outer, lambda o: o.name).set("x")  # E: mypy-plugin jaxdc-mutation: jaxdc.attr() needs an instance of a jaxdc pytree dataclass (or a list, dict or tuple of them from copy_and_mutate), got the class 'Outer'. Fix: pass an instance of the class (such as Model(...)), not the class itself.


class Plain:
    x: int = 0


jaxdc.attr(Plain(), lambda p: p.x).set(1)  # E: mypy-plugin jaxdc-mutation: jaxdc.attr() needs an instance of a jaxdc pytree dataclass (or a list, dict or tuple of them from copy_and_mutate), got an instance of 'Plain'.  # runtime: raises TypeError
