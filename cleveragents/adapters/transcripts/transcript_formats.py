"""The transcript formats, one declaration each: what a format is called, how it is
recognised, whose usage figures its messages carry, and how it is read and written.

`TRANSCRIPT_FORMATS` is the one list: detection walks it (a format recognised from its text,
Claude Code's JSONL, first; then the signs of the JSON document formats, in this order), the
codec reads and writes through it, and the usage of a transcript is normalized as its
declaration's provider says. A new format is one more declaration here, its reader and writer
in a module of their own, and its name in `domain.vocabulary.TranscriptFormat`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from cleveragents.adapters.transcripts.anthropic_messages import read_anthropic, write_anthropic
from cleveragents.adapters.transcripts.claude_code_jsonl import (
    looks_like_claude_code,
    read_claude_code,
    write_claude_code,
)
from cleveragents.adapters.transcripts.format_signs import (
    Messages,
    anthropic_sign,
    anthropic_structural_sign,
    openai_sign,
    openai_structural_sign,
    responses_reads_alike,
    responses_sign,
)
from cleveragents.adapters.transcripts.native_documents import looks_like_claude_code_records
from cleveragents.adapters.transcripts.openai_chat import read_openai, write_openai
from cleveragents.adapters.transcripts.openai_responses import read_responses
from cleveragents.adapters.transcripts.openai_responses_writer import write_responses
from cleveragents.domain.transcript import Transcript, TranscriptFormat

Sign = Callable[[object, Messages], str | None]


@dataclass(frozen=True, slots=True)
class TranscriptFormatCodec:
    """One transcript format.

    A *line-record* format (`recognises_text` given) is one JSON record a line: it is read from
    and written to its text; parsed, it is the list of its records (`recognises_records`, what
    `records` calls them and `records_described` says they look like). A *document* format is
    one JSON document of messages: it is read from and written to the parsed document, and told
    from the others by `sign` (any sign of it) and `structural_sign` (a sign that changes what
    is read: named against one of these, another format is refused)."""

    format: TranscriptFormat
    label: str  # how messages name it: "Anthropic Messages JSON"
    vendor: str  # how a mixed document names its features: "Anthropic"
    provider: str  # the API whose usage payloads its messages carry (`normalize_usage`)
    read: Callable[[object], Transcript]  # the text (line records) or the parsed document
    write: Callable[[Transcript], object]  # the text (line records) or the document
    recognises_text: Callable[[str], bool] | None = None
    recognises_records: Callable[[object], bool] | None = None
    records: str = ""
    records_described: str = ""
    sign: Sign | None = None
    structural_sign: Sign | None = None
    also_reads: Callable[[object, Messages], bool] | None = None
    """Named, the format also takes a document with none of its signs that this accepts, though
    another format's structural sign is in it (a sign both formats read alike)."""

    @property
    def line_records(self) -> bool:
        return self.recognises_text is not None


def _read_claude_code(text: object) -> Transcript:
    assert isinstance(text, str)  # a line-record format is read from its text
    return read_claude_code(text)


CLAUDE_CODE = TranscriptFormatCodec(
    TranscriptFormat.CLAUDE_CODE,
    label="Claude Code session JSONL",
    vendor="Claude Code",
    provider="anthropic",
    read=_read_claude_code,
    write=write_claude_code,
    recognises_text=looks_like_claude_code,
    recognises_records=looks_like_claude_code_records,
    records="Claude Code session records",
    records_described="dicts with a string 'type', some with a 'message', a 'sessionId' or a "
    "'uuid'",
)
OPENAI = TranscriptFormatCodec(
    TranscriptFormat.OPENAI,
    label="OpenAI Chat Completions JSON",
    vendor="OpenAI",
    provider="openai",
    read=read_openai,
    write=write_openai,
    sign=openai_sign,
    structural_sign=openai_structural_sign,
)
ANTHROPIC = TranscriptFormatCodec(
    TranscriptFormat.ANTHROPIC,
    label="Anthropic Messages JSON",
    vendor="Anthropic",
    provider="anthropic",
    read=read_anthropic,
    write=write_anthropic,
    sign=anthropic_sign,
    structural_sign=anthropic_structural_sign,
)
OPENAI_RESPONSES = TranscriptFormatCodec(
    TranscriptFormat.OPENAI_RESPONSES,
    label="OpenAI Responses JSON",
    vendor="OpenAI Responses",
    provider="openai",
    read=read_responses,
    write=write_responses,
    sign=responses_sign,
    structural_sign=responses_sign,  # every sign of it changes what is read
    also_reads=responses_reads_alike,  # a developer role: Chat Completions' sign, read alike
)

TRANSCRIPT_FORMATS: tuple[TranscriptFormatCodec, ...] = (
    CLAUDE_CODE,
    OPENAI,
    ANTHROPIC,
    OPENAI_RESPONSES,
)
"""In the order detection tries them."""

PLAIN_MESSAGES = ANTHROPIC
"""What a JSON document of plain ``{role, content: "text"}`` messages, which reads the same in
every document format, is read as."""

DOCUMENT_FORMATS = tuple(codec for codec in TRANSCRIPT_FORMATS if not codec.line_records)
LINE_RECORD_FORMATS = tuple(codec for codec in TRANSCRIPT_FORMATS if codec.line_records)


def line_record_format(text: str) -> TranscriptFormatCodec | None:
    """The line-record format that recognises `text`, if one does."""
    for codec in LINE_RECORD_FORMATS:
        if codec.recognises_text is not None and codec.recognises_text(text):
            return codec
    return None


def records_format(document: object) -> TranscriptFormatCodec | None:
    """The line-record format whose parsed records `document` is, if one's."""
    for codec in LINE_RECORD_FORMATS:
        if codec.recognises_records is not None and codec.recognises_records(document):
            return codec
    return None


def codec_of(transcript_format: TranscriptFormat) -> TranscriptFormatCodec:
    """The declaration of `transcript_format`."""
    for codec in TRANSCRIPT_FORMATS:
        if codec.format is transcript_format:
            return codec
    raise LookupError(f"no codec declares the transcript format {transcript_format!r}")
