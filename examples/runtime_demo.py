"""The jaxdc runtime in action: a tiny model trained with jit, edited, printed and saved.

Run alone with `python examples/runtime_demo.py`; `make demo` runs it last.
"""

from __future__ import annotations

import jax
import jax.numpy as jnp
import jaxdc


@jaxdc.pytree_dataclass
class Dense:
    w: jax.Array
    b: jax.Array
    activation: jaxdc.Static[str] = "tanh"

    def __call__(self, x: jax.Array) -> jax.Array:
        y = x @ self.w + self.b
        return jnp.tanh(y) if self.activation == "tanh" else y


class Model(jaxdc.PyTreeNode):
    layers: list
    step: jax.Array

    def __call__(self, x: jax.Array) -> jax.Array:
        for layer in self.layers:
            x = layer(x)
        return x


def make_model(key: jax.Array) -> Model:
    k1, k2 = jax.random.split(key)
    return Model(
        [
            Dense(jax.random.normal(k1, (3, 8)) * 0.5, jnp.zeros(8)),
            Dense(jax.random.normal(k2, (8, 1)) * 0.5, jnp.zeros(1), activation="linear"),
        ],
        step=jnp.asarray(0),
    )


@jaxdc.jit
def train_step(model: Model, x: jax.Array, y: jax.Array, lr: jaxdc.Static[float]) -> Model:
    """`lr` is static because of its annotation: no static_argnames list to keep in sync."""

    def loss(layers: list) -> jax.Array:
        return jnp.mean((jax.vmap(model.replace(layers=layers))(x) - y) ** 2)

    grads = jax.grad(loss)(model.layers)
    layers = jax.tree.map(lambda p, g: p - lr * g, model.layers, grads)
    return model.replace(layers=layers, step=model.step + 1)


def section(title: str) -> None:
    print(f"\n--- {title}")


def main() -> None:
    x = jax.random.normal(jax.random.PRNGKey(1), (32, 3))
    y = jnp.sum(x, axis=1, keepdims=True)
    model = make_model(jax.random.PRNGKey(0))

    section("repr: arrays as dtype[shape], nested trees indented")
    print(model)
    print("full values are one step away, e.g. model.layers[1].b =", model.layers[1].b)

    section("jit with Static[...] parameters (lr is static, model is traced)")
    for _ in range(200):
        model = train_step(model, x, y, 0.05)
    loss = float(jnp.mean((jax.vmap(model)(x) - y) ** 2))
    print(f"after {int(model.step)} steps, loss = {loss:.4f}")
    try:
        train_step(model, x, y, [0.05])
    except TypeError as err:
        print("unhashable static argument ->", err)

    section("replace: a copy with some fields changed (no __init__ call)")
    reset = model.replace(step=jnp.asarray(0))
    print(
        "reset.step =",
        int(reset.step),
        "| model.step =",
        int(model.step),
        "| layers shared:",
        reset.layers is model.layers,
    )

    section("copy_and_mutate: nested edits on a copy, only the edited path is copied")
    with jaxdc.copy_and_mutate(model) as new:
        new.layers[1].b = new.layers[1].b + 10.0
    print("new.layers[1].b =", new.layers[1].b, "| model.layers[1].b =", model.layers[1].b)
    print("untouched layer shared:", new.layers[0] is model.layers[0])
    try:
        with jaxdc.copy_and_mutate(model) as new:
            new.layers[0].w = jnp.zeros((3, 4))
    except ValueError as err:
        print("validate=True ->", err)

    section("equality: a bool, arrays compared by value")
    print("model == model.replace() ->", model == model.replace())
    print("model == reset ->", model == reset)

    section("state dicts keyed by field names (static fields come from the target)")
    state = jaxdc.to_state_dict(model)
    print(jax.tree.map(lambda a: a.shape, state))
    restored = jaxdc.from_state_dict(make_model(jax.random.PRNGKey(7)), state)
    print("restored == model ->", restored == model)
    state["layers"]["0"]["w"] = jnp.zeros((3, 5))
    try:
        jaxdc.from_state_dict(model, state)
    except ValueError as err:
        print("mismatched checkpoint ->", err)


if __name__ == "__main__":
    main()
