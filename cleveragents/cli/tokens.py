"""`agents tokens ...`: exact token counts with the real tokenizer, offline."""

from __future__ import annotations

from typing import Annotated

import typer

from cleveragents.cli.inputs import read_text_file
from cleveragents.cli.output import EncodingOption, emit_json

app = typer.Typer(help="Count tokens with the real tokenizer.", no_args_is_help=True)


@app.command("count")
def count(
    path: Annotated[
        str, typer.Argument(metavar="PATH", help="A UTF-8 text file, or - for standard input.")
    ],
    encoding: EncodingOption = "cl100k_base",
    as_json: Annotated[
        bool, typer.Option("--json", help="Accepted for symmetry: the output is always JSON.")
    ] = False,
) -> None:
    """Print {"input_tokens": N} for a file (the count_tokens.py contract).

    Example: agents tokens count build.log --encoding o200k_base
    """
    from cleveragents.container import build_container

    text = read_text_file(path)
    counter = build_container(encoding=encoding).token_counter()
    emit_json({"input_tokens": counter.count(text)})
