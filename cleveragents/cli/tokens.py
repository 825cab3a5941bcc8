"""`agents tokens count ...`: exact token counts with the real tokenizer, offline."""

from __future__ import annotations

import codecs
import os
import stat
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, BinaryIO

import typer

from cleveragents.cli.command_classes import AgentsTyper
from cleveragents.cli.inputs import check_input_name, read_transcript_file
from cleveragents.cli.output import ENCODING_HELP, emit_json
from cleveragents.cli.progress import ProgressLine, progress_line
from cleveragents.container import build_token_counter
from cleveragents.container.models import build_model_profiles, build_request_token_counting
from cleveragents.domain.vocabulary import DEFAULT_ENCODING

app = AgentsTyper(help="Count tokens with the real tokenizer.", no_args_is_help=True)

CHUNK_BYTES = 1 << 20
"""Bytes read at a time: the count holds a few of these, whatever the file's size."""


@app.command("count")
def count(
    path: Annotated[
        str | None,
        typer.Argument(metavar="PATH", help="A UTF-8 text file, or - for standard input."),
    ] = None,
    messages: Annotated[
        str | None,
        typer.Option(
            "--messages",
            metavar="FILE",
            help="Count what is sent instead: a message list or a request (system, tools) in "
            "any format `context compact` reads; - reads standard input.",
        ),
    ] = None,
    model: Annotated[
        str | None,
        typer.Option(
            "--model",
            metavar="NAME",
            help="Count for this model (see `agents models`): its encoding, and whether the "
            "count is exact or an estimate.",
        ),
    ] = None,
    exact: Annotated[
        bool,
        typer.Option(
            "--exact",
            help="Ask the provider for the count (Claude: Anthropic's token-counting "
            "endpoint; sends the content to Anthropic; needs ANTHROPIC_API_KEY and the "
            "anthropic SDK).",
        ),
    ] = False,
    name: Annotated[
        str | None,
        typer.Option(
            "--name",
            metavar="NAME",
            help="What standard input holds (with -), e.g. build.log: messages name it.",
        ),
    ] = None,
    encoding: Annotated[
        str,
        typer.Option(
            "--encoding",
            metavar="NAME",
            help=f"{ENCODING_HELP}; with --model, the model's unless another is given.",
        ),
    ] = DEFAULT_ENCODING,
    as_json: Annotated[
        bool, typer.Option("--json", help="Accepted for symmetry: the output is always JSON.")
    ] = False,
) -> None:
    """Print {"input_tokens": N}: the exact number of tokens in a UTF-8 text file.

    The file is read in pieces, so a file of any size is counted in bounded memory. Text that
    is not UTF-8 is refused (exit 2).

    With --model or --messages the output also says whether the count is "estimated" and its
    "method": exact for OpenAI models (messages with OpenAI's documented chat framing),
    estimated for Claude models (no public tokenizer), for tools and for formats whose framing
    is not documented.

    Example: agents tokens count build.log --encoding o200k_base

    Example: git diff | agents tokens count - --name changes.diff

    Example: agents tokens count --messages request.json --model gpt-4o
    """
    if (path is None) == (messages is None):
        raise typer.BadParameter("give PATH (a text) or --messages FILE, one of them")
    if messages is not None or model is not None or exact:
        emit_json(_report(path, messages, model, encoding, exact=exact))
        return
    assert path is not None
    shown = _shown_name(path, name)
    counter = build_token_counter(encoding)
    with (
        _opened(path) as (stream, size),
        progress_line(f"counting {shown}", total_bytes=size, enabled=not as_json) as progress,
    ):
        total = counter.count_stream(_text_chunks(stream, shown, progress))
    emit_json({"input_tokens": total})


def _report(
    path: str | None, messages: str | None, model: str | None, encoding: str, *, exact: bool
) -> dict[str, object]:
    """The count of a text or of what is sent, for a model, with how it was made."""
    profile = build_model_profiles().profile(model) if model is not None else None
    # The default encoding gives way to the model's; another one, given, wins.
    chosen = profile.encoding.value if profile and encoding == DEFAULT_ENCODING else encoding
    counting = build_request_token_counting()
    if messages is not None:
        report = counting.count_messages(
            read_transcript_file(messages), chosen, profile, exact=exact
        )
    else:
        assert path is not None
        report = counting.count_text(read_transcript_file(path), chosen, profile, exact=exact)
    return report.as_json()


def _shown_name(path: str, name: str | None) -> str:
    """What messages call the input: the file's path, or standard input's --name."""
    if name is None:
        return path
    if path != "-":
        raise typer.BadParameter("--name names standard input: give it with - as PATH")
    return check_input_name(name)


@contextmanager
def _opened(path: str) -> Iterator[tuple[BinaryIO, int | None]]:
    """`path` open for reading (``-``: standard input) with its size when it is a regular
    file; a usage error, naming the file, when it cannot be opened."""
    if path == "-":
        yield sys.stdin.buffer, None
        return
    try:
        # Closed by the `with` below; opened apart so that only opening errors land here.
        stream = Path(path).open("rb")  # noqa: SIM115
    except OSError as error:
        raise _unreadable(path, error) from None
    with stream:
        info = os.fstat(stream.fileno())
        yield stream, info.st_size if stat.S_ISREG(info.st_mode) else None


def _text_chunks(stream: BinaryIO, path: str, progress: ProgressLine) -> Iterator[str]:
    """The UTF-8 text of `stream`, decoded piece by piece (a character cut between two pieces
    is completed by the next); a usage error at the first byte that is not UTF-8."""
    decoder = codecs.getincrementaldecoder("utf-8")()
    offset = 0  # bytes handed to the decoder so far
    while True:
        try:
            data = stream.read(CHUNK_BYTES)
        except OSError as error:
            raise _unreadable(path, error) from None
        pending = len(decoder.getstate()[0])  # bytes of a character begun in the last piece
        try:
            text = decoder.decode(data, final=not data)
        except UnicodeDecodeError as error:
            bad = offset - pending + error.start
            raise typer.BadParameter(
                f"{path} is not UTF-8 text (bad byte at offset {bad})"
            ) from None
        offset += len(data)
        progress.advance(len(data))
        if text:
            yield text
        if not data:
            return


def _unreadable(path: str, error: OSError) -> typer.BadParameter:
    if isinstance(error, FileNotFoundError):
        return typer.BadParameter(f"file not found: {path}")
    if isinstance(error, IsADirectoryError):
        return typer.BadParameter(f"{path} is a directory, not a file")
    return typer.BadParameter(f"cannot read {path}: {error.strerror}")
