"""Printing: JSON for scripts, Rich tables for people."""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, Annotated, Any

import typer

from cleveragents.domain.vocabulary import DEFAULT_ENCODING, Encoding

if TYPE_CHECKING:
    from rich.console import Console


JsonFlag = Annotated[bool, typer.Option("--json", help="Print JSON instead of text.")]
"""The `--json` flag every command that prints data takes."""

ENCODING_HELP = " or ".join(
    f"{encoding} (default)" if encoding is DEFAULT_ENCODING else encoding for encoding in Encoding
)
"""The encodings, the default named: ``cl100k_base (default) or o200k_base``."""

EncodingOption = Annotated[
    str, typer.Option("--encoding", metavar="NAME", help=f"{ENCODING_HELP}.")
]


def emit_json(data: Any) -> None:
    """Deterministic JSON on stdout (keys in the order the command built them)."""
    sys.stdout.write(json.dumps(data, indent=2, ensure_ascii=False) + "\n")


PIPE_WIDTH = 160
"""Output to a pipe or a file is not squeezed into 80 columns: tables keep whole cells."""


def console() -> Console:
    # Here, not at the top: Rich: ~30 ms of CPU on `agents tokens count`, which prints no table.
    from rich.console import Console

    width = None if sys.stdout.isatty() else PIPE_WIDTH
    return Console(highlight=False, soft_wrap=True, width=width)


def print_table(
    title: str | None, columns: Sequence[str], rows: Sequence[Sequence[object]]
) -> None:
    # Here, not at the top: Rich: see `console`.
    from rich.table import Table

    table = Table(title=title, title_justify="left")
    for index, column in enumerate(columns):
        # The first column names the row: a wide table squeezes the others, never it.
        table.add_column(column, no_wrap=index == 0, min_width=None)
    for row in rows:
        table.add_row(*("-" if cell is None else str(cell) for cell in row))
    console().print(table)


def print_fields(title: str, fields: Sequence[tuple[str, object]]) -> None:
    # Here, not at the top: Rich: see `console`.
    from rich.table import Table

    table = Table(title=title, title_justify="left", show_header=False)
    table.add_column("field", style="bold")
    table.add_column("value")
    for name, value in fields:
        table.add_row(name, "-" if value is None else str(value))
    console().print(table)
