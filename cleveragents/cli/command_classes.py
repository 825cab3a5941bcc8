"""The Typer classes every `agents` command is built with, handed to Typer through ``cls=``.

A command module declares its sub-app as ``AgentsTyper(...)``: a `typer.Typer` whose groups
are built as `FlowingGroup` and whose commands (``@app.command(...)``) as `FlowingCommand`, the
``cls=`` Typer takes for each. Built, a group or a command:

- reflows its help text (`help_text.flow`) and names an option of many choices by its name
  (`help_text.name_wide_choices`);
- makes its parameters `AgentsOption` and `AgentsArgument`, which show no Python type beside a
  flag or an argument and convert text without pydantic (`typer_speedups`).

A test walks the whole tree: every group, command and parameter is of these classes.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import typer
import typer.core

from cleveragents.cli.help_text import flow, name_wide_choices
from cleveragents.cli.typer_speedups import TextFirstConversion

if TYPE_CHECKING:
    from typer._click import Command, Context, Parameter
    from typer._coercion import RuntimeParam


class AgentsOption(typer.core.TyperOption):
    """An option: a flag shows no type (``--json``, not ``--json <bool>``: it takes no value,
    as Click's plain help shows it); text converts without pydantic."""

    def display_type_rich(self, ctx: Context) -> str | None:
        return None if self.is_flag else super().display_type_rich(ctx)

    def get_runtime_param(self) -> RuntimeParam:
        if self._runtime_param is None:
            self._runtime_param = TextFirstConversion.of(self.type_descriptor)
        return self._runtime_param


class AgentsArgument(typer.core.TyperArgument):
    """An argument: its name is its metavar (``ARTIFACT_PATH``, ``ID``) and says what it is,
    so the Python type Typer adds (``ARTIFACT_PATH <str>``) is not shown; choices stay listed.
    Text converts without pydantic."""

    def display_type_rich(self, ctx: Context) -> str | None:
        return super().display_type_rich(ctx) if self.type_descriptor.is_choice else None

    def get_runtime_param(self) -> RuntimeParam:
        if self._runtime_param is None:
            self._runtime_param = TextFirstConversion.of(self.type_descriptor)
        return self._runtime_param


class FlowingCommand(typer.core.TyperCommand):
    """A command whose help flows and whose parameters are the app's own (see the module)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        _settle(self)

    def get_params(self, ctx: Context) -> list[Parameter]:
        return _own_classes(super().get_params(ctx))


class FlowingGroup(typer.core.TyperGroup):
    """A group whose help flows and whose parameters are the app's own (see the module)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        _settle(self)

    def get_params(self, ctx: Context) -> list[Parameter]:
        return _own_classes(super().get_params(ctx))


class AgentsTyper(typer.Typer):
    """A sub-app of `agents`: its group is a `FlowingGroup` and its commands are
    `FlowingCommand`, unless a ``cls=`` says otherwise."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("cls", FlowingGroup)
        super().__init__(**kwargs)

    def command(  # type: ignore[override]  # Typer's keywords, passed on as they are
        self, name: str | None = None, **kwargs: Any
    ) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
        kwargs.setdefault("cls", FlowingCommand)
        return super().command(name, **kwargs)


def _settle(command: Command) -> None:
    if command.help:
        command.help = flow(command.help)
    for param in command.params:
        name_wide_choices(param)
    _own_classes(command.params)


def _own_classes(params: list[Parameter]) -> list[Parameter]:
    """`params`, each of Typer's two parameter classes made the app's own. Typer builds every
    parameter with its classes and offers no ``cls=`` for them; the app's add no state, only
    the two methods above. Typer adds some parameters after the command is built (``--help``,
    the root's completion options): they are settled when the command lists its parameters."""
    for param in params:
        if type(param) is typer.core.TyperOption:
            param.__class__ = AgentsOption
        elif type(param) is typer.core.TyperArgument:
            param.__class__ = AgentsArgument
    return params
