"""Reading the files commands are given, with one clear line for each way it can fail."""

from __future__ import annotations

import sys
from pathlib import Path

import typer


def read_text_file(path: str) -> str:
    """The UTF-8 text of `path` (``-`` reads stdin); a usage error when it cannot be read."""
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
