"""`import jaxdc.compat.jax_dataclasses as jdc` (the migration path) and then `import jaxdc as
jdc` (jaxdc's own) replace `import jax_dataclasses as jdc` (version 1.6.3).

Every public name of jax_dataclasses 1.6.3 exists in both modules and accepts every call
that jax_dataclasses accepts (same parameter names, kinds at least as permissive, same
defaults); jaxdc may add keyword parameters. jax_dataclasses is a test dependency only:
jaxdc never imports it. Behaviour is compared by running jax_dataclasses' own tests on
jaxdc (tests/test_downstream_slice.py and `make test-downstream`).
"""

from __future__ import annotations

import inspect
import subprocess
import sys
from typing import get_args, get_origin

import jax
import jax.numpy as jnp
import jaxdc
import jaxdc.compat.jax_dataclasses
import pytest

jdc_reference = pytest.importorskip("jax_dataclasses")

VERSION = "1.6.3"
# `static_field` is public at runtime (deprecated there) though not in its __all__.
PUBLIC = sorted({*jdc_reference.__all__, "static_field"})
# Parameters whose jaxdc form differs, and why that accepts the same calls (or is open).
KNOWN = {
    # jax_dataclasses forwards *args to dataclasses.field, which takes no positionals.
    ("static_field", "args"): "dataclasses.field takes no positional arguments",
    # Open, owned by rules: `pytree_dataclass(cls=C)` (cls by keyword) is rejected.
    ("pytree_dataclass", "cls"): "positional-only in jaxdc (open, owned by rules)",
}
_PERMISSIVE = {
    inspect.Parameter.POSITIONAL_ONLY: {
        inspect.Parameter.POSITIONAL_ONLY,
        inspect.Parameter.POSITIONAL_OR_KEYWORD,
    },
    inspect.Parameter.POSITIONAL_OR_KEYWORD: {inspect.Parameter.POSITIONAL_OR_KEYWORD},
    inspect.Parameter.KEYWORD_ONLY: {
        inspect.Parameter.KEYWORD_ONLY,
        inspect.Parameter.POSITIONAL_OR_KEYWORD,
    },
    inspect.Parameter.VAR_POSITIONAL: {inspect.Parameter.VAR_POSITIONAL},
    inspect.Parameter.VAR_KEYWORD: {inspect.Parameter.VAR_KEYWORD},
}
MODULES = {"jaxdc": jaxdc, "jaxdc.compat.jax_dataclasses": jaxdc.compat.jax_dataclasses}
# Defaults that mean the same to jax.jit.
_NO_DONATION = ((), None)


def test_reference_is_the_pinned_release() -> None:
    from importlib.metadata import version

    assert version("jax_dataclasses") == VERSION


@pytest.mark.parametrize("module", MODULES)
@pytest.mark.parametrize("name", PUBLIC)
def test_every_public_name_exists(module: str, name: str) -> None:
    assert hasattr(MODULES[module], name), f"{module} lacks jax_dataclasses.{name}"


def test_the_migration_module_has_exactly_the_reference_names() -> None:
    assert sorted(jaxdc.compat.jax_dataclasses.__all__) == sorted(PUBLIC)


def _signature_problems(module: str, name: str) -> list[str]:
    ours = inspect.signature(getattr(MODULES[module], name)).parameters
    problems = []
    for p in inspect.signature(getattr(jdc_reference, name)).parameters.values():
        if (name, p.name) in KNOWN:
            continue
        q = ours.get(p.name)
        if q is None and p.kind is p.VAR_KEYWORD:
            q = next((o for o in ours.values() if o.kind is o.VAR_KEYWORD), None)
        if q is None:
            problems.append(f"{name}: no parameter '{p.name}'")
        elif q.kind not in _PERMISSIVE[p.kind]:
            problems.append(f"{name}({p.name}): {q.kind.description}, was {p.kind.description}")
        elif p.default is not q.default and not (
            p.default == q.default or {p.default, q.default} <= set(_NO_DONATION)
        ):
            problems.append(f"{name}({p.name}): default {q.default!r}, was {p.default!r}")
    return problems


@pytest.mark.parametrize("module", MODULES)
@pytest.mark.parametrize("name", [n for n in PUBLIC if n != "Static"])
def test_signature_accepts_every_call_the_reference_accepts(module: str, name: str) -> None:
    assert _signature_problems(module, name) == []


@pytest.mark.parametrize("module", MODULES)
def test_known_differences_are_still_real(module: str) -> None:
    """An entry of KNOWN that no longer differs must be removed (it would hide a regression)."""
    for name, param in KNOWN:
        ours = inspect.signature(getattr(MODULES[module], name)).parameters.get(param)
        theirs = inspect.signature(getattr(jdc_reference, name)).parameters[param]
        assert ours is None or ours.kind is not theirs.kind, (name, param)


def test_static_is_an_annotated_alias_taking_one_type() -> None:
    for alias in (jdc_reference.Static, jaxdc.Static):
        assert get_args(alias[int])[0] is int and get_origin(alias[int]) is not None


def test_jit_accepts_fun_by_keyword_and_the_reference_options() -> None:
    def double(x: jax.Array, n: jaxdc.Static[int]) -> jax.Array:
        return x * n

    jitted = jaxdc.jit(fun=double)
    assert float(jitted(jnp.float32(2.0), 3)) == 6.0
    options = jaxdc.jit(donate_argnums=(), inline=False, keep_unused=False, backend=None)
    assert float(options(double)(jnp.float32(1.0), 2)) == 2.0


def test_jaxdc_never_imports_jax_dataclasses() -> None:
    code = "import jaxdc.compat.jax_dataclasses, sys; print('jax_dataclasses' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
