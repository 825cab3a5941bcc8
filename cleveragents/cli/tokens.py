"""`agents tokens ...`: exact token counts with the real tokenizer, offline."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

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

    text = _read_text(path)
    counter = build_container(encoding=encoding).token_counter()
    emit_json({"input_tokens": counter.count(text)})


def _read_text(path: str) -> str:
    try:
        if path == "-":
            return sys.stdin.buffer.read().decode("utf-8")
        return Path(path).read_bytes().decode("utf-8")
    except FileNotFoundError:
        raise typer.BadParameter(f"file not found: {path}") from None
    except IsADirectoryError:
        raise typer.BadParameter(f"{path} is a directory, not a file") from None
    except UnicodeDecodeError as error:
        raise typer.BadParameter(
            f"{path} is not UTF-8 text (bad byte at offset {error.start})"
        ) from None
    except OSError as error:
        raise typer.BadParameter(f"cannot read {path}: {error.strerror}") from None
