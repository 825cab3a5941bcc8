"""Values converted without pydantic are converted exactly as Typer converts them; the others
still go through Typer, with its messages."""

from __future__ import annotations

from typing import Annotated

import pytest
import typer
from typer._coercion import build_runtime_param
from typer.testing import CliRunner

from cleveragents.cli.typer_speedups import install_plain_text_coercion, is_plain_text

probe_app = typer.Typer()


@probe_app.command()
def probe(
    text: Annotated[str, typer.Argument()],
    count: Annotated[int, typer.Option("--count")] = 1,
    label: Annotated[str | None, typer.Option("--label")] = None,
    loud: Annotated[bool, typer.Option("--loud")] = False,
) -> None:
    typer.echo(repr((text, count, label, loud)))


def _parameter(name: str) -> typer.core.TyperArgument | typer.core.TyperOption:
    command = typer.main.get_command(probe_app)
    (parameter,) = [p for p in command.params if p.name == name]
    assert isinstance(parameter, typer.core.TyperArgument | typer.core.TyperOption)
    return parameter


def test_it_is_installed_on_this_typer() -> None:
    assert install_plain_text_coercion()  # the CLI installed it; a second call is harmless


@pytest.mark.parametrize("value", ["plain", "", " spaced ", "ünïcödé", "-", "1e3", "None"])
def test_a_string_for_a_text_parameter_is_what_typer_makes_of_it(value: str) -> None:
    parameter = _parameter("text")
    assert is_plain_text(parameter.type_descriptor)
    with typer.Context(typer.main.get_command(probe_app)) as ctx:
        converted = parameter.get_runtime_param().coerce(value, param=parameter, ctx=ctx)
        by_typer = build_runtime_param(parameter.type_descriptor).coerce(
            value, param=parameter, ctx=ctx
        )
    assert converted == by_typer == value
    assert type(converted) is type(by_typer)


def test_other_values_of_a_text_parameter_go_to_typer() -> None:
    parameter = _parameter("text")
    with typer.Context(typer.main.get_command(probe_app)) as ctx:
        converted = parameter.get_runtime_param().coerce(b"bytes", param=parameter, ctx=ctx)
    assert converted == "bytes"  # decoded by Typer's own conversion


def test_numbers_and_flags_are_not_plain_text() -> None:
    assert not is_plain_text(_parameter("count").type_descriptor)
    assert not is_plain_text(_parameter("loud").type_descriptor)


def test_the_command_line_converts_as_before() -> None:
    runner = CliRunner()
    result = runner.invoke(probe_app, ["hi", "--count", "3", "--label", "x", "--loud"])
    assert result.exit_code == 0, result.output
    assert result.output.strip() == "('hi', 3, 'x', True)"
    result = runner.invoke(probe_app, ["hi"])
    assert result.output.strip() == "('hi', 1, None, False)"


def test_a_bad_number_gets_typers_own_message() -> None:
    command = typer.main.get_command(probe_app)
    with pytest.raises(typer.BadParameter) as refused:
        command.main(["hi", "--count", "many"], standalone_mode=False)
    parameter = _parameter("count")
    with typer.Context(command) as ctx, pytest.raises(typer.BadParameter) as by_typer:
        build_runtime_param(parameter.type_descriptor).coerce("many", param=parameter, ctx=ctx)
    assert refused.value.message == by_typer.value.message
    assert "valid integer" in refused.value.message  # pydantic's wording, through Typer
