"""Reading the files commands are given, with one clear line for each way it can fail."""

from __future__ import annotations

import os
import stat
import sys
from pathlib import Path
from typing import BinaryIO

import typer

MAX_TRANSCRIPT_BYTES = 256 * 1024 * 1024
"""The largest transcript the commands read (256 MiB). Reading a Claude Code session takes
about ten times its size in memory (its text, its lines, the parsed messages), so a session at
the limit peaks near 2.5 GB, and one made of thousands of tiny records near 5 GB; above it the
file is refused before anything is read. ``CLEVERAGENTS_MAX_TRANSCRIPT_BYTES`` overrides it."""

MAX_TRANSCRIPT_ENV = "CLEVERAGENTS_MAX_TRANSCRIPT_BYTES"

_ADVICE = "split the session or compact it earlier"


def read_text_file(path: str) -> str:
    """The UTF-8 text of `path` (``-`` reads stdin); a usage error when it cannot be read."""
    return _decoded(path, _read_bytes(path, limit=None))


def read_transcript_file(path: str) -> str:
    """Like `read_text_file`, for a transcript: a file above `max_transcript_bytes` is refused
    before it is read (its size is checked first; standard input, a pipe or a file still being
    written is read up to one byte past the limit, no further)."""
    return _decoded(path, _read_bytes(path, limit=max_transcript_bytes()))


def max_transcript_bytes() -> int:
    """`MAX_TRANSCRIPT_BYTES`, or the environment's override (read at each call)."""
    configured = os.environ.get(MAX_TRANSCRIPT_ENV, "").strip()
    if not configured:
        return MAX_TRANSCRIPT_BYTES
    try:
        limit = int(configured)
    except ValueError:
        limit = 0
    if limit <= 0:
        raise typer.BadParameter(
            f"{MAX_TRANSCRIPT_ENV} must be a positive number of bytes, got {configured!r}"
        )
    return limit


def _read_bytes(path: str, limit: int | None) -> bytes:
    try:
        if path == "-":
            return _bounded(sys.stdin.buffer, "standard input", None, limit)
        with Path(path).open("rb") as stream:
            info = os.fstat(stream.fileno())
            size = info.st_size if stat.S_ISREG(info.st_mode) else None
            return _bounded(stream, path, size, limit)
    except FileNotFoundError:
        raise typer.BadParameter(f"file not found: {path}") from None
    except IsADirectoryError:
        raise typer.BadParameter(f"{path} is a directory, not a file") from None
    except OSError as error:
        raise typer.BadParameter(f"cannot read {path}: {error.strerror}") from None


def _bounded(stream: BinaryIO, name: str, size: int | None, limit: int | None) -> bytes:
    """All of `stream`, or a usage error when it is larger than `limit` bytes (`size`, when
    known, is checked before anything is read)."""
    if limit is None:
        return stream.read()
    if size is not None and size > limit:
        raise _too_large(f"{name} is {_over(size, limit)}", limit)
    data = stream.read(limit + 1)
    if len(data) > limit:
        raise _too_large(f"{name} is more than {_size(limit)}", limit)
    return data


def _too_large(what: str, limit: int) -> typer.BadParameter:
    return typer.BadParameter(f"{what}; transcripts above {_size(limit)} are refused ({_ADVICE})")


def _over(size: int, limit: int) -> str:
    """`size` in the unit the limit is shown in, exact when rounding would hide the excess."""
    shown = _size(size, decimals=1)
    return f"{size:,} bytes" if shown == _size(limit, decimals=1) else shown


_UNITS = (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10))


def _size(count: int, decimals: int | None = None) -> str:
    """``256 MiB``, ``1.0 GiB`` (with `decimals`), ``900 bytes``."""
    for unit, scale in _UNITS:
        if count >= scale:
            if decimals is None and count % scale == 0:
                return f"{count // scale} {unit}"
            return f"{count / scale:.{1 if decimals is None else decimals}f} {unit}"
    return f"{count:,} bytes"


def _decoded(path: str, data: bytes) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise typer.BadParameter(
            f"{path} is not UTF-8 text (bad byte at offset {error.start})"
        ) from None
