"""The app's command classes: values converted without pydantic are converted exactly as Typer
converts them, the others still go through Typer with its messages; help shows no Python type
beside a flag or an argument; every command of `agents` is built with these classes."""

from __future__ import annotations

from collections.abc import Iterator
from enum import StrEnum
from typing import TYPE_CHECKING, Annotated

import pytest
import typer
import typer.main
from typer._coercion import build_runtime_param
from typer.testing import CliRunner

from cleveragents.cli.app import app
from cleveragents.cli.command_classes import (
    AgentsArgument,
    AgentsOption,
    AgentsTyper,
    FlowingCommand,
    FlowingGroup,
)
from cleveragents.cli.typer_speedups import is_plain_text

if TYPE_CHECKING:
    from typer._click import Command


class Tone(StrEnum):
    QUIET = "quiet"


probe_app = AgentsTyper()


@probe_app.command()
def probe(
    text: Annotated[str, typer.Argument()],
    count: Annotated[int, typer.Option("--count")] = 1,
    label: Annotated[str | None, typer.Option("--label")] = None,
    tone: Annotated[str, typer.Option("--tone")] = Tone.QUIET,
    loud: Annotated[bool, typer.Option("--loud")] = False,
) -> None:
    typer.echo(repr((text, count, label, tone, type(tone).__name__, loud)))


def _command() -> typer.core.TyperCommand:
    command = typer.main.get_command(probe_app)
    assert isinstance(command, FlowingCommand)
    return command


def _parameter(name: str) -> AgentsArgument | AgentsOption:
    (parameter,) = [p for p in _command().params if p.name == name]
    assert isinstance(parameter, AgentsArgument | AgentsOption)
    return parameter


@pytest.mark.parametrize(
    "value", ["plain", "", " spaced ", "ünïcödé", "-", "1e3", "None", Tone.QUIET]
)
def test_a_string_for_a_text_parameter_is_what_typer_makes_of_it(value: str) -> None:
    parameter = _parameter("text")
    assert is_plain_text(parameter.type_descriptor)
    with typer.Context(_command()) as ctx:
        converted = parameter.get_runtime_param().coerce(value, param=parameter, ctx=ctx)
        by_typer = build_runtime_param(parameter.type_descriptor).coerce(
            value, param=parameter, ctx=ctx
        )
    assert converted == by_typer == value
    assert type(converted) is type(by_typer) is str


def test_other_values_of_a_text_parameter_go_to_typer() -> None:
    parameter = _parameter("text")
    with typer.Context(_command()) as ctx:
        converted = parameter.get_runtime_param().coerce(b"bytes", param=parameter, ctx=ctx)
    assert converted == "bytes"  # decoded by Typer's own conversion


def test_numbers_and_flags_are_not_plain_text() -> None:
    assert not is_plain_text(_parameter("count").type_descriptor)
    assert not is_plain_text(_parameter("loud").type_descriptor)


def test_the_command_line_converts_as_typer_does() -> None:
    runner = CliRunner()
    result = runner.invoke(probe_app, ["hi", "--count", "3", "--label", "x", "--loud"])
    assert result.exit_code == 0, result.output
    assert result.output.strip() == "('hi', 3, 'x', 'quiet', 'str', True)"
    result = runner.invoke(probe_app, ["hi", "--tone", "soft"])
    assert result.output.strip() == "('hi', 1, None, 'soft', 'str', False)"


def test_a_bad_number_gets_typers_own_message() -> None:
    command = _command()
    with pytest.raises(typer.BadParameter) as refused:
        command.main(["hi", "--count", "many"], standalone_mode=False)
    parameter = _parameter("count")
    with typer.Context(command) as ctx, pytest.raises(typer.BadParameter) as by_typer:
        build_runtime_param(parameter.type_descriptor).coerce("many", param=parameter, ctx=ctx)
    assert refused.value.message == by_typer.value.message
    assert "valid integer" in refused.value.message  # pydantic's wording, through Typer


def test_help_names_values_and_shows_no_python_type() -> None:
    result = CliRunner().invoke(probe_app, ["--help"], env={"COLUMNS": "100"})
    assert result.exit_code == 0, result.output
    (argument_row,) = [line for line in result.output.splitlines() if " text " in line]
    assert "<str>" not in argument_row  # an argument is named, its type not shown
    assert "<bool>" not in result.output  # a flag takes no value
    assert "<int>" in result.output  # a value that is not text keeps its type


def _tree(command: Command, parent: typer.Context | None = None) -> Iterator[Command]:
    yield command
    ctx = typer.Context(command, parent=parent, info_name=command.name)
    if isinstance(command, typer.core.TyperGroup):
        for name in command.list_commands(ctx):
            sub_command = command.get_command(ctx, name)
            assert sub_command is not None, name
            yield from _tree(sub_command, ctx)


def test_every_command_of_agents_is_built_with_the_apps_classes() -> None:
    commands = list(_tree(typer.main.get_command(app)))
    assert len(commands) > 30
    for command in commands:
        assert isinstance(command, FlowingCommand | FlowingGroup), command.name
        params = command.get_params(typer.Context(command))
        assert any(param.name == "help" for param in params)  # added late, settled too
        for param in params:
            assert isinstance(param, AgentsOption | AgentsArgument), (command.name, param.name)
