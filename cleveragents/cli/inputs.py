"""Reading the files commands are given, with one clear line for each way it can fail.

Every file a command reads is read whole but bounded (`read_bounded`): one byte past its limit
refuses it, whether it is a regular file, standard input, a pipe, a FIFO or a device. The limits
are read at each call, so a test or the environment can change them.
"""

from __future__ import annotations

import os
import sys

import typer

from cleveragents.domain import transcript_limits
from cleveragents.domain.errors import InvalidInputError
from cleveragents.domain.transcript_limits import MAX_TRANSCRIPT_ENV

MAX_DOCUMENT_BYTES = 16 * 1024 * 1024
"""The largest document read whole (16 MiB): the budget planner's spec, test plan, module docs
and changed files, a decision's text. That is some four million
tokens, past any context window the text is meant for; an exact count of a hostile one (a
single line of punctuation, one tokenizer piece) takes the tokenizer about a gigabyte."""

MAX_REPORT_BYTES = 4 * 1024 * 1024
"""The largest context budget report `lint` reads (4 MiB, some 40,000 artifact rows): the
linter holds every line of it with its number, about sixty times the size of a file of short
lines, so a report gets a tighter limit than a document."""

MAX_SETTINGS_BYTES = 1024 * 1024
"""The largest settings file read (1 MiB): a prefix file, a weights file. A prefix of that size
is about 250,000 tokens; a weights file is a few hundred bytes."""

_TRANSCRIPT_ADVICE = "split the session or compact it earlier"


def read_text_file(path: str) -> str:
    """The UTF-8 text of the document at `path` (``-`` reads stdin), at most
    `MAX_DOCUMENT_BYTES`; a usage error when it cannot be read or is larger."""
    return _decoded(path, _read(path, MAX_DOCUMENT_BYTES, "documents", ""))


def read_report_file(path: str) -> str:
    """Like `read_text_file`, for a report to check, at most `MAX_REPORT_BYTES`."""
    return _decoded(path, _read(path, MAX_REPORT_BYTES, "reports", ""))


def read_settings_file(path: str, what: str) -> str:
    """Like `read_text_file`, for a settings file of the kind `what` names in messages
    (``prefix files``), at most `MAX_SETTINGS_BYTES`."""
    return _decoded(path, _read(path, MAX_SETTINGS_BYTES, what, ""))


def read_transcript_file(path: str) -> str:
    """Like `read_text_file`, for a transcript: a file above `max_transcript_bytes` is refused
    before it is read (its size is checked first; standard input, a pipe or a file still being
    written is read up to one byte past the limit, no further)."""
    return _decoded(path, _read(path, max_transcript_bytes(), "transcripts", _TRANSCRIPT_ADVICE))


def max_transcript_bytes() -> int:
    """`MAX_TRANSCRIPT_BYTES`, or the environment's override (read at each call); a bad
    override is a usage error."""
    try:
        return transcript_limits.max_transcript_bytes(os.environ)
    except InvalidInputError as error:
        raise typer.BadParameter(str(error)) from None


def _read(path: str, limit: int, what: str, advice: str) -> bytes:
    # Here, not at the top: the file adapters: ~22 ms of CPU on `agents --help`.
    from cleveragents.container.files import read_bounded

    try:
        return read_bounded(path, limit, what=what, advice=advice)
    except InvalidInputError as error:  # the CLI's usage error, as every option's is
        raise typer.BadParameter(str(error)) from None


def _decoded(path: str, data: bytes) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise typer.BadParameter(
            f"{path} is not UTF-8 text (bad byte at offset {error.start})"
        ) from None


WORKSPACE_ENV = "CLEVERAGENTS_WORKSPACE"
LEGACY_WORKSPACE_ENV = "CLOSEDLOOP_WORKDIR"
"""The work directory's older name, still read (after `WORKSPACE_ENV`): judges set it."""

WORKSPACE_HELP = (
    "The workspace: paths are taken from it and must end inside it (default: "
    f"${WORKSPACE_ENV}, else ${LEGACY_WORKSPACE_ENV}, else the current directory). "
    "--workdir is the same option."
)


def workspace_root(flag: str | None) -> str:
    """The workspace a command reads files beneath: the flag (``--workspace``, alias
    ``--workdir``), else ``$CLEVERAGENTS_WORKSPACE``, else ``$CLOSEDLOOP_WORKDIR``, else the
    current directory; ``~`` expanded. An empty variable counts as unset."""
    chosen = (
        flag or os.environ.get(WORKSPACE_ENV) or os.environ.get(LEGACY_WORKSPACE_ENV) or os.getcwd()
    )
    return os.path.expanduser(chosen)


def check_input_name(name: str, option: str = "--name") -> str:
    """`name`, the file name standard input stands for: told apart from a path so that its
    suffix names the kind; one line and exit 2 when it is empty or holds a NUL or a control
    character (it is printed and stored)."""
    if not name.strip() or any(ord(char) < 32 or ord(char) == 127 for char in name):
        raise typer.BadParameter(
            "give a file name such as build.log or core.py (no control characters)",
            param_hint=option,
        )
    if len(name) > MAX_INPUT_NAME_CHARS:
        raise typer.BadParameter(
            f"at most {MAX_INPUT_NAME_CHARS} characters, got {len(name):,}", param_hint=option
        )
    return name


MAX_INPUT_NAME_CHARS = 255
"""The longest `--name` (a file name's limit on most file systems)."""


def read_standard_input() -> bytes:
    """Standard input, up to the limit transcripts have (`max_transcript_bytes`: what reads
    it holds it and several times its size); one byte more is refused, in one line, before
    anything is done with it."""
    limit = max_transcript_bytes()
    data = sys.stdin.buffer.read(limit + 1)
    if len(data) > limit:
        raise typer.BadParameter(
            f"standard input is more than {limit:,} bytes; larger input is refused "
            f"({MAX_TRANSCRIPT_ENV} sets the limit); write it to a file and give its path"
        )
    return data
