"""Every command's --help reads well at the terminal's width: paragraphs flow (no source line
breaks kept), the lines that must stay lines do, no line is wider than the terminal, and every
value a parameter takes is named by what it is (N, PATH, ID), never by a Python type."""

from __future__ import annotations

import itertools
import json
import os
import re
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from functools import cache
from typing import TYPE_CHECKING

import pytest
import typer.core
import typer.main

from cleveragents.cli.help_text import flow, mark_kept_lines
from cleveragents.cli.reference import iter_commands

if TYPE_CHECKING:
    from typer._click import Command

WIDTHS = (80, 120)
# What Typer or Click would print for a value's type where a metavar should name it.
TYPE_NAMES = re.compile(
    r"<(?:str|int|float|bool|path|file|datetime|uuid)>|\b(?:INTEGER|FLOAT|BOOLEAN|FILENAME)\b"
)
OWN_LINE = re.compile(r"(?:Example:|(?:[-*•]|\d+[.)])\s)")

_RENDER_ALL = """
import json, sys
from typer.testing import CliRunner
from cleveragents.cli.app import app
from cleveragents.cli.reference import iter_commands
runner = CliRunner()
helps = {}
for entry in iter_commands():
    result = runner.invoke(app, [*entry.path.split()[1:], "--help"])
    assert result.exit_code == 0, (entry.path, result.output)
    helps[entry.path] = result.output
json.dump(helps, sys.stdout)
"""


@cache
def rendered_helps(width: int) -> dict[str, str]:
    """Each command's Rich --help, as a terminal `width` columns wide shows it."""
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in {"TERMINAL_WIDTH", "FORCE_TERMINAL", "TTY_COMPATIBLE", "COLUMNS"}
    }
    env["COLUMNS"] = str(width)
    result = subprocess.run(
        [sys.executable, "-c", _RENDER_ALL], capture_output=True, text=True, check=True, env=env
    )
    helps: dict[str, str] = json.loads(result.stdout)
    return helps


def description_paragraphs(help_output: str) -> list[list[str]]:
    """The lines of the help's description (after the usage line, before the first panel),
    grouped by paragraph, without the padding."""
    lines = help_output.splitlines()
    start = next(i for i, line in enumerate(lines) if line.strip().startswith("Usage:")) + 1
    paragraphs: list[list[str]] = [[]]
    for line in lines[start:]:
        if line.startswith("╭"):
            break
        if line.strip():
            paragraphs[-1].append(line.strip())
        elif paragraphs[-1]:
            paragraphs.append([])
    return [paragraph for paragraph in paragraphs if paragraph]


@pytest.mark.parametrize("width", WIDTHS)
def test_no_help_line_is_wider_than_the_terminal(width: int) -> None:
    helps = rendered_helps(width)
    assert len(helps) == len(iter_commands())
    for path, output in helps.items():
        wide = [line for line in output.splitlines() if len(line) > width]
        assert not wide, f"{path} at {width} columns: {wide}"


@pytest.mark.parametrize("width", WIDTHS)
def test_paragraphs_flow_without_stubs(width: int) -> None:
    # A line followed by one whose first word would have fitted after it is a source line
    # break kept: the stub a hard-wrapped docstring leaves at a narrower terminal.
    text_width = width - 2  # Rich pads the description by one column each side
    for path, output in rendered_helps(width).items():
        paragraphs = description_paragraphs(output)
        assert paragraphs, f"{path} has no description"
        for paragraph in paragraphs:
            for line, following in itertools.pairwise(paragraph):
                if OWN_LINE.match(following):
                    continue
                first_word = following.split()[0]
                assert len(line) + 1 + len(first_word) > text_width, (
                    f"{path} at {width} columns: {line!r} is cut before {first_word!r}"
                )


@pytest.mark.parametrize("width", WIDTHS)
def test_the_first_paragraph_printed_is_the_summary_reflowed(width: int) -> None:
    for path, output in rendered_helps(width).items():
        printed = description_paragraphs(output)[0]
        reflowed = textwrap.wrap(
            " ".join(printed), width - 2, break_long_words=False, break_on_hyphens=False
        )
        assert printed == reflowed, f"{path} at {width} columns"


def test_every_example_stays_a_line_of_its_own() -> None:
    for path, output in rendered_helps(120).items():
        examples = [line for line in output.splitlines() if "Example:" in line]
        assert all(line.lstrip().startswith("Example:") for line in examples), path


def test_a_groups_list_shows_each_commands_summary_as_one_flowing_line() -> None:
    output = rendered_helps(80)["agents context"]
    listing = output[output.index("Commands") :]
    compact = [line.strip("│ ").removeprefix("compact").strip() for line in listing.splitlines()]
    start = next(i for i, line in enumerate(compact) if line.startswith("Compact a transcript"))
    # Its summary is four source lines; flowed, every line but the last is full.
    assert compact[start + 1].startswith("summary (within its own budget)")


@pytest.mark.parametrize("width", WIDTHS)
def test_values_are_named_by_what_they_are_not_by_a_type(width: int) -> None:
    for path, output in rendered_helps(width).items():
        assert not TYPE_NAMES.findall(output), f"{path}: {TYPE_NAMES.findall(output)}"


def built_commands() -> Iterator[tuple[str, Command]]:
    """Every command of the app, built as running it builds it, with its path."""
    from cleveragents.cli.app import app

    root = typer.main.get_command(app)
    ctx = root.context_class(root, info_name="agents")
    for entry in iter_commands():
        command = root
        for name in entry.path.split()[1:]:
            assert isinstance(command, typer.core.TyperGroup)
            found = command.get_command(ctx, name)
            assert found is not None
            command = found
        yield entry.path, command


def test_every_option_that_takes_a_value_has_a_metavar_or_choices() -> None:
    missing = [
        f"{path} {param.opts[0]}"
        for path, command in built_commands()
        for param in command.params
        if isinstance(param, typer.core.TyperOption)
        and not param.is_flag
        and param.metavar is None
        and not param.type_descriptor.is_choice
    ]
    assert not missing, f"options whose value has no metavar: {missing}"


def test_every_commands_summary_is_one_line_for_the_groups_list() -> None:
    # A group lists each command by the first paragraph of its help, keeping its line breaks.
    for path, command in built_commands():
        assert command.help, path
        assert "\n" not in command.help.split("\n\n")[0], path


def test_arguments_show_their_name_only() -> None:
    output = rendered_helps(120)["agents artifact compress"]
    row = next(line for line in output.splitlines() if "ARTIFACT_PATH" in line and "│" in line)
    assert row.split()[1:3] == ["ARTIFACT_PATH", "The"]


def test_flow_joins_prose_and_keeps_the_lines_that_must_stay() -> None:
    docstring = """Summary that
    wraps in the source.

    A paragraph
    hard-wrapped.
    Example: agents one --long
    option
    Example: agents two

    - an item
      continued
    - another item
        indented block? no: continues the item

        an indented block
        stays as it is

    \b
    kept
    lines

    Last paragraph.
    \f
    not for the help
    """
    assert flow(docstring).split("\n\n") == [
        "Summary that wraps in the source.",
        "A paragraph hard-wrapped.\nExample: agents one --long option\nExample: agents two",
        "- an item continued\n- another item indented block? no: continues the item",
        "    an indented block\n    stays as it is",
        "kept\nlines",
        "Last paragraph.\n\f\nnot for the help",
    ]


def test_flow_is_stable_and_the_plain_marks_keep_lines() -> None:
    docstring = "Summary.\n\nProse\nflowing.\n\nExample: a\nExample: b"
    flowed = flow(docstring)
    assert flow(flowed) == flowed
    marked = mark_kept_lines(flowed)
    assert marked == "Summary.\n\nProse flowing.\n\n\b\nExample: a\nExample: b"
    assert mark_kept_lines(marked) == marked


@pytest.mark.parametrize("width", WIDTHS)
def test_no_option_cell_is_cut_short(width: int) -> None:
    # Rich cuts a table cell with an ellipsis when the columns' longest words do not fit the
    # terminal: an option's name, a metavar or a word of its help would be lost.
    for path, output in rendered_helps(width).items():
        cut = [line for line in output.splitlines() if "…" in line]
        assert not cut, f"{path} at {width} columns: {cut}"


def test_option_help_keeps_a_readable_column_at_80() -> None:
    # Long metavars (every choice spelt out) squeeze the help column to a few words a line.
    for path, output in rendered_helps(80).items():
        starts = []
        for line in output.splitlines():
            cells = [cell for cell in re.split(r"\s{2,}", line.strip("│ ")) if cell]
            if line.startswith("│") and len(cells) >= 2:
                starts.append(line.rindex(cells[-1]))
        help_width = 80 - 2 - max(starts, default=0)
        assert help_width >= 30, f"{path}: the help column is {help_width} wide at 80 columns"
