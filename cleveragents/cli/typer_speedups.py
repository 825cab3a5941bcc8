"""Command-line text converted without pydantic, where Typer's conversion changes nothing.

Typer (0.2x) converts each command-line value, and each default that is not None, through a
pydantic ``TypeAdapter`` built for its parameter: the first value converted imports pydantic
(some 100-150 ms of a command's start). `TextFirstConversion` keeps a string given to a
parameter declared ``str`` as Typer's conversion returns it (the same characters, as a plain
``str``: a default such as ``Encoding.CL100K_BASE`` becomes ``"cl100k_base"``), and hands every
other value (numbers, choices, paths, dates, parsers, bytes) to Typer's own conversion, built
on first use. So a command whose values are all text, `agents tokens count`, starts without
pydantic. The parameters of `command_classes` use it.

Tests check that text converts exactly as Typer converts it, that bad values are refused with
Typer's own messages, and that `agents tokens count` loads no pydantic.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from typer._coercion import RuntimeParam, TypeDescriptor, build_runtime_param


@dataclass(frozen=True)
class TextFirstConversion(RuntimeParam):
    """Typer's conversion of one parameter, built at the first value that needs it; a string
    for a ``str`` parameter is kept (as a plain ``str``)."""

    descriptor: TypeDescriptor
    plain_text: bool
    built: list[RuntimeParam] = field(default_factory=list)

    @classmethod
    def of(cls, descriptor: TypeDescriptor) -> TextFirstConversion:
        """The conversion of a parameter described by `descriptor`."""
        return cls(
            parameter_info=descriptor.parameter_info,
            annotation=descriptor.annotation,
            descriptor=descriptor,
            plain_text=is_plain_text(descriptor),
        )

    def _coerce_value(self, value: Any, param: Any, ctx: Any) -> Any:
        if self.plain_text and isinstance(value, str):
            return str.__str__(value)  # a str subclass (a StrEnum) as pydantic gives it: str
        if not self.built:
            self.built.append(build_runtime_param(self.descriptor))
        return self.built[0]._coerce_value(value, param, ctx)


def is_plain_text(descriptor: TypeDescriptor) -> bool:
    """A parameter declared ``str``, with no parser, choices or file of its own: Typer's
    conversion of a string to it returns the same characters."""
    return (
        descriptor.annotation is str
        and descriptor.file_annotation is None
        and descriptor.parameter_info.parser is None
        and not descriptor.is_choice
    )
