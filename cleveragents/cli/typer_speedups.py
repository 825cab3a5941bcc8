"""Command-line values converted without pydantic where Typer's conversion changes nothing.

Typer (0.2x) converts each command-line value through a pydantic ``TypeAdapter`` built for its
parameter, and builds it before it looks at the value: the first parameter processed, even the
``--help`` option not given, imports pydantic, some 100-150 ms. Here each parameter's conversion
is built only when a value needs it (an option not given has none), and a string given to a
parameter declared ``str`` is kept as it is, which is what Typer's conversion returns for it.
Every other value (numbers, choices, paths, dates, parsers, bytes) goes to Typer's own
conversion. So a command whose values are all text, `agents tokens count` or `agents project
list`, starts without pydantic.

The hook uses Typer's internal parameter class (`typer.core._TyperParameter`); on a Typer
without it (older ones convert through Click, not pydantic) nothing is installed. Tests check
that on the installed Typer text values convert exactly as Typer converts them, that bad values
are refused with Typer's own messages, and that `agents tokens count` loads no `typer._adapters`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import typer.core

_INSTALLED_MARK = "_cleveragents_plain_text_first"


def install_plain_text_coercion() -> bool:
    """Install the text shortcut (once); whether this Typer has the hook it needs."""
    try:
        from typer._coercion import RuntimeParam, TypeDescriptor, build_runtime_param

        parameter_class: Any = typer.core._TyperParameter
        typer_runtime_param = parameter_class.get_runtime_param
    except (ImportError, AttributeError):
        return False
    if getattr(typer_runtime_param, _INSTALLED_MARK, False):
        return True

    @dataclass(frozen=True)
    class DeferredConversion(RuntimeParam):
        """Typer's conversion of one parameter, built at its first value: Typer builds it
        before it looks at the value, even for an option not given (None, which it converts
        to nothing). A string for a ``str`` parameter stays as it is."""

        descriptor: TypeDescriptor
        plain_text: bool
        built: list[Any] = field(default_factory=list)

        def _coerce_value(self, value: Any, param: Any, ctx: Any) -> Any:
            if self.plain_text and type(value) is str:
                return value
            if not self.built:
                self.built.append(build_runtime_param(self.descriptor))
            return self.built[0]._coerce_value(value, param, ctx)

    def get_runtime_param(self: Any) -> Any:
        if self._runtime_param is None:
            descriptor = self.type_descriptor
            self._runtime_param = DeferredConversion(
                parameter_info=descriptor.parameter_info,
                annotation=descriptor.annotation,
                descriptor=descriptor,
                plain_text=is_plain_text(descriptor),
            )
        return typer_runtime_param(self)

    setattr(get_runtime_param, _INSTALLED_MARK, True)
    parameter_class.get_runtime_param = get_runtime_param
    return True


def is_plain_text(descriptor: Any) -> bool:
    """A parameter declared ``str``, with no parser, choices or file of its own: Typer's
    conversion of a string to it returns the string unchanged."""
    return (
        descriptor.annotation is str
        and descriptor.file_annotation is None
        and descriptor.parameter_info.parser is None
        and not descriptor.is_choice
    )
