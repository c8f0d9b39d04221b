"""Reading ``[tool.jaxdc-mypy]`` (pyproject.toml) or ``[jaxdc-mypy]`` (mypy.ini, setup.cfg).

Same places pydantic's plugin reads its settings from, so users find them where they
expect. Every problem raises :class:`ConfigError` with the file, the section and the key,
which the plugin turns into a clean exit instead of a traceback inside mypy. Pure Python.

Every mypy run, warm ones too, reads the settings, and most find none: the wording of the
errors (``_jaxdc_rules.messages``, the largest module the plugin loads) is imported only
when a section is there to be checked, and nothing is compiled at import.
"""

from __future__ import annotations

import configparser
import re
import sys
from collections.abc import Callable
from typing import Any, NamedTuple

if sys.version_info >= (3, 11):
    import tomllib
else:  # mypy itself depends on tomli before 3.11
    import tomli as tomllib

TOML_SECTION = "tool.jaxdc-mypy"
INI_SECTION = "jaxdc-mypy"


class ConfigError(Exception):
    """The plugin's section of the mypy config file is malformed."""


class PluginConfig(NamedTuple):
    """Settings; each list holds fully qualified class names (``package.module.Class``).

    A NamedTuple rather than a dataclass: importing dataclasses costs every mypy run.
    """

    extra_array_types: tuple[str, ...] = ()
    """Treated like ``jax.Array``: array-like as data, unhashable as static."""
    extra_pytree_bases: tuple[str, ...] = ()
    """Subclasses are pytrees, so they are fine as data fields (e.g. ``equinox.Module``)."""
    extra_hashable_types: tuple[str, ...] = ()
    """Subclasses are accepted as static field types whatever the rules say."""
    check_any: bool = False
    """Report data fields typed ``Any`` (error code ``jaxdc-any``)."""
    warn_float_statics: bool = False
    """Report static fields and ``jaxdc.jit`` static parameters typed ``float`` or
    ``complex`` (error code ``jaxdc-float-static``): each new value recompiles."""

    def to_json(self) -> dict[str, Any]:
        return {
            key: list(value) if isinstance(value, tuple) else value
            for key, value in self._asdict().items()
        }


_LIST_KEYS = {name for name in PluginConfig._fields if name.startswith("extra_")}
_BOOL_KEYS = {"check_any", "warn_float_statics"}


def load(config_file: str | None) -> PluginConfig:
    """Read the plugin's section from mypy's config file; defaults if there is none."""
    if not config_file:
        return PluginConfig()
    try:
        if config_file.endswith(".toml"):
            with open(config_file, "rb") as f:
                section = tomllib.load(f).get("tool", {}).get("jaxdc-mypy", {})
            where = f"{config_file}: [{TOML_SECTION}]"
            return _parse(section, where, from_ini=False)
        parser = configparser.ConfigParser()
        parser.read(config_file)
        if not parser.has_section(INI_SECTION):
            return PluginConfig()
        return _parse(dict(parser[INI_SECTION]), f"{config_file}: [{INI_SECTION}]", from_ini=True)
    except (OSError, tomllib.TOMLDecodeError, configparser.Error) as exc:
        from _jaxdc_rules import messages

        raise ConfigError(messages.config_unreadable(config_file, exc)) from exc


def _parse(section: Any, where: str, *, from_ini: bool) -> PluginConfig:
    """The settings in a section the file has (the TOML one may not be a table)."""
    if section == {}:
        return PluginConfig()
    from _jaxdc_rules import messages

    if not isinstance(section, dict):
        raise ConfigError(messages.config_not_a_table(where))
    values: dict[str, Any] = {}
    for key, raw in section.items():
        if key in _LIST_KEYS:
            values[key] = _names(raw, f"{where} {key}", from_ini=from_ini)
        elif key in _BOOL_KEYS:
            values[key] = _boolean(raw, f"{where} {key}", from_ini=from_ini)
        else:
            known = sorted(_LIST_KEYS | _BOOL_KEYS)
            raise ConfigError(messages.config_unknown_setting(where, key, known))
    return PluginConfig(**values)


def _names(raw: Any, where: str, *, from_ini: bool) -> tuple[str, ...]:
    from _jaxdc_rules import messages  # loaded by `_parse`

    if from_ini and isinstance(raw, str):
        raw = [part.strip() for part in re.split(r"[,\n]", raw) if part.strip()]
    if not isinstance(raw, list) or not all(isinstance(item, str) for item in raw):
        raise ConfigError(messages.config_not_a_list(where))
    for name in raw:
        if not _is_dotted_name(name):
            raise ConfigError(messages.config_not_a_class_name(where, name))
    return tuple(raw)


def _boolean(raw: Any, where: str, *, from_ini: bool) -> bool:
    if from_ini and isinstance(raw, str):
        lowered = raw.strip().lower()
        if lowered in ("true", "yes", "on", "1"):
            return True
        if lowered in ("false", "no", "off", "0"):
            return False
    if isinstance(raw, bool):
        return raw
    from _jaxdc_rules import messages  # loaded by `_parse`

    raise ConfigError(messages.config_not_a_bool(where, raw))


def _is_dotted_name(name: str) -> bool:
    """``package.module.Class``: a module and a name in it, each part an identifier."""
    parts = name.split(".")
    return len(parts) > 1 and all(part.isidentifier() for part in parts)


class ClassNames:
    """Configured class names, as the fullnames mypy gives the classes.

    Users write the name they import (``equinox.Module``); mypy knows a class by where it
    is defined (``equinox._module.Module``). ``resolve`` (the plugin's lookup) follows
    re-exports once mypy has loaded the module; until then a name stands as written.
    """

    def __init__(self, written: tuple[str, ...], resolve: Callable[[str], str | None]) -> None:
        self._pending = set(written)
        self._resolved: frozenset[str] = frozenset()
        self._resolve = resolve

    def fullnames(self) -> frozenset[str]:
        if self._pending:
            found = {name: self._resolve(name) for name in self._pending}
            self._resolved |= {full for full in found.values() if full is not None}
            self._pending = {name for name, full in found.items() if full is None}
        return self._resolved | self._pending if self._pending else self._resolved

    def pending(self) -> frozenset[str]:
        """The names that have not resolved to a class (yet)."""
        return frozenset(self._pending)
