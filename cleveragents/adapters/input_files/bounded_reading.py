"""Reading a named file whole, never more than a limit.

A file is read in chunks and the read stops one byte past the limit, whatever the file is: a
regular file, standard input, a pipe, a FIFO or a character device (``/dev/zero`` never ends and
reports a size of 0). A regular file's size, when it is already over the limit, refuses it before
a byte is read; it is never trusted to say that the file is small (``/proc`` files report 0, and a
file may grow while it is read).

A FIFO is opened as ``cat`` opens it: the open waits for a writer, as reading standard input waits
for the user. That is waiting for input to exist, not work on input, so it is left alone.
"""

from __future__ import annotations

import os
import stat
import sys
from typing import BinaryIO

from cleveragents.domain.errors import InvalidInputError

READ_CHUNK_BYTES = 1 << 20
STDIN_PATH = "-"
STDIN_NAME = "standard input"


class InputTooLargeError(InvalidInputError):
    """A file, or standard input, larger than the limit its kind of input is read under."""

    def __init__(self, name: str, size: int | None, limit: int, what: str, advice: str) -> None:
        amount = f"more than {format_size(limit)}" if size is None else _over(size, limit)
        reason = f" ({advice})" if advice else ""
        super().__init__(
            f"{name} is {amount}; {what} above {format_size(limit)} are refused{reason}"
        )
        self.name = name
        self.size = size
        self.limit = limit


class UnreadableInputError(InvalidInputError):
    """A named file that is missing, a directory, or that the system refuses to read."""


def read_bounded(path: str, limit: int, *, what: str, advice: str = "") -> bytes:
    """The bytes of the file at `path` (``-``: standard input), or `InputTooLargeError` when it
    holds more than `limit` bytes (`what` names the kind of input in that message, `advice` says
    what to do instead). `UnreadableInputError` when it cannot be read."""
    if limit < 0:
        raise ValueError(f"a limit is a number of bytes, not {limit}")
    if path == STDIN_PATH:
        return _read_stream(sys.stdin.buffer, STDIN_NAME, limit, what, advice)
    try:
        with open(path, "rb") as stream:  # `path` may be a FIFO or a device
            info = os.fstat(stream.fileno())
            if stat.S_ISREG(info.st_mode) and info.st_size > limit:
                raise InputTooLargeError(path, info.st_size, limit, what, advice)
            expected = info.st_size if stat.S_ISREG(info.st_mode) else 0
            return _read_stream(stream, path, limit, what, advice, expected)
    except FileNotFoundError:
        raise UnreadableInputError(f"file not found: {path}") from None
    except IsADirectoryError:
        raise UnreadableInputError(f"{path} is a directory, not a file") from None
    except OSError as error:
        raise UnreadableInputError(f"cannot read {path}: {error.strerror or error}") from None


def read_open_file_bounded(
    stream: BinaryIO, name: str, size: int, limit: int, *, what: str, advice: str = ""
) -> bytes:
    """`read_bounded` for a file already opened (`size`: its size when it was opened; a
    regular file over the limit is refused before a byte is read)."""
    if size > limit:
        raise InputTooLargeError(name, size, limit, what, advice)
    return _read_stream(stream, name, limit, what, advice, size)


def _read_stream(
    stream: BinaryIO, name: str, limit: int, what: str, advice: str, expected: int = 0
) -> bytes:
    """At most `limit` bytes of `stream`, in chunks: one byte more refuses it. The first chunk
    is the `expected` size and a byte, so that a regular file comes in one piece (joined
    without a copy); a stream of unknown size comes in chunks of `READ_CHUNK_BYTES`."""
    chunks: list[bytes] = []
    held = 0
    wanted = max(expected, READ_CHUNK_BYTES - 1) + 1
    while held <= limit:
        chunk = stream.read(min(wanted, limit + 1 - held))
        wanted = READ_CHUNK_BYTES
        if not chunk:
            return b"".join(chunks)
        chunks.append(chunk)
        held += len(chunk)
    raise InputTooLargeError(name, None, limit, what, advice)


_UNITS = (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10))


def format_size(count: int, decimals: int | None = None) -> str:
    """``256 MiB``, ``1.0 GiB`` (with `decimals`), ``900 bytes``."""
    for unit, scale in _UNITS:
        if count >= scale:
            if decimals is None and count % scale == 0:
                return f"{count // scale} {unit}"
            return f"{count / scale:.{1 if decimals is None else decimals}f} {unit}"
    return f"{count:,} bytes"


def _over(size: int, limit: int) -> str:
    """`size` in the unit the limit is shown in, exact when rounding would hide the excess."""
    shown = format_size(size, decimals=1)
    return f"{size:,} bytes" if shown == format_size(limit, decimals=1) else shown
