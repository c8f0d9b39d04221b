"""Each diagnostic the plugin reports: the shared sentence with its error code.

The words are ``_jaxdc_rules.messages``', the runtime's own, so a user reads the same
sentence from mypy and from Python; this module only pairs each with the code users
silence it by (``# type: ignore[jaxdc-static]``), the way mypy's ``message_registry``
pairs ``ErrorMessage(value, code)``, so no call site can pick the wrong code.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import NamedTuple

from _jaxdc_rules import messages as text
from _jaxdc_rules.messages import Problem
from mypy.errorcodes import ErrorCode
from mypy.nodes import Context
from mypy.plugin import CheckerPluginInterface

from . import codes, compat


class ErrorMessage(NamedTuple):
    value: str
    code: ErrorCode

    def report(self, api: CheckerPluginInterface, context: Context) -> None:
        api.fail(self.value, context, code=self.code)

    def note(self, api: CheckerPluginInterface, context: Context) -> None:
        """Say it as a note under the error just reported there (mypy's own, say)."""
        compat.note(api, self.value, context, self.code)


def static_unhashable(field: str, cls: str, problem: Problem) -> ErrorMessage:
    return ErrorMessage(text.static_unhashable(field, cls, problem), codes.STATIC)


def jit_static_unhashable(param: str, function: str, problem: Problem) -> ErrorMessage:
    return ErrorMessage(text.jit_static_unhashable(param, function, problem), codes.STATIC)


def data_not_arraylike(field: str, cls: str, type_: str, problem: Problem) -> ErrorMessage:
    return ErrorMessage(text.data_not_arraylike(field, cls, type_, problem), codes.DATA)


def data_any(field: str, cls: str, type_: str) -> ErrorMessage:
    return ErrorMessage(text.data_any(field, cls, type_), codes.ANY)


NOT_A_PATH = ErrorMessage(text.NOT_A_PATH, codes.MUTATION)


def excluded_in_construction(field: str, cls: str) -> ErrorMessage:
    return ErrorMessage(text.excluded_in_construction(field, cls), codes.MUTATION)


def non_field_in_construction(name: str, cls: str) -> ErrorMessage:
    return ErrorMessage(text.non_field_in_construction(name, cls), codes.MUTATION)


def descriptor_field(field: str, cls: str, descriptor: str) -> ErrorMessage:
    return ErrorMessage(text.descriptor_field(field, cls, descriptor), codes.DESCRIPTOR)


def attr_not_jaxdc(cls: str, *, is_class: bool) -> ErrorMessage:
    """``jaxdc.attr(obj, ...)`` on something that is not a jaxdc instance (the runtime's
    TypeError; the runtime adds the value of a number or string, which mypy does not
    know, so those are left to it)."""
    got = text.given("class" if is_class else "instance", cls)
    fix = text.PASS_AN_INSTANCE if is_class else ""
    return ErrorMessage(
        text.wrong_argument("jaxdc.attr", text.ATTR_TARGET, got, fix), codes.MUTATION
    )


def frozen_assignment(path: str | None, cls: str) -> ErrorMessage:
    return ErrorMessage(text.frozen_assignment(path, cls), codes.MUTATION)


def stacked_dataclass(cls: str, *, node: bool) -> ErrorMessage:
    return ErrorMessage(text.stacked_dataclass(cls, node=node), codes.DECORATOR)


def not_frozen_option(where: str) -> ErrorMessage:
    return ErrorMessage(text.not_frozen_option(where), codes.DECORATOR)


def edit_no_such_field(name: str, cls: str, fields: Iterable[str]) -> ErrorMessage:
    return ErrorMessage(text.edit_no_such_field(name, cls, fields), codes.MUTATION)


def read_only_note(name: str, cls: str) -> ErrorMessage:
    """Under mypy's "Property ... is read-only" on a field of a jaxdc instance."""
    return ErrorMessage(text.read_only_note(name, cls), codes.MUTATION)


def float_static_field(field: str, cls: str, type_: str, kind: str) -> ErrorMessage:
    return ErrorMessage(text.float_static_field(field, cls, type_, kind), codes.FLOAT_STATIC)


def float_static_parameter(param: str, function: str, type_: str, kind: str) -> ErrorMessage:
    message = text.float_static_parameter(param, function, type_, kind)
    return ErrorMessage(message, codes.FLOAT_STATIC)


def jax_jit_ignores_static(param: str, function: str) -> ErrorMessage:
    return ErrorMessage(text.jax_jit_ignores_static(param, function), codes.JIT)


def converter_returns(
    field: str, cls: str, converter: str, returns: str, declared: str
) -> ErrorMessage:
    return ErrorMessage(
        text.converter_returns(field, cls, converter, returns, declared), codes.CONVERTER
    )
