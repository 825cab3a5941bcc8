"""The `TranscriptCodec` for JSON transcripts: detects the format and dispatches to its module.

Claude Code JSONL is recognised first (its first line is a JSON object with a ``type`` on its
own, and some record belongs to a session: see `looks_like_claude_code`); otherwise the text is
one JSON document whose format `format_detection` tells. A format named by the caller is checked
against what the text plainly is: Claude Code JSONL read as a JSON document, an Anthropic
document read as OpenAI and the reverse are refused, naming the format the text looks like.

The native methods take and give the parsed form (`native_documents`): an Anthropic or OpenAI
document goes to its reader as it is, a list of Claude Code records through their JSONL text
(that reader and writer work on lines).
"""

from __future__ import annotations

import json
import re

from pydantic import ValidationError

from cleveragents.adapters.transcripts.format_detection import (
    document_format,
    message_list,
    mismatch,
    named_format_problem,
)
from cleveragents.adapters.transcripts.native_documents import claude_code_lines, json_copy
from cleveragents.adapters.transcripts.strict_json import parse_json, parse_json_or_none
from cleveragents.adapters.transcripts.transcript_formats import (
    DOCUMENT_FORMATS,
    TranscriptFormatCodec,
    codec_of,
    line_record_format,
    records_format,
)
from cleveragents.application.ports.transcript_codec import TranscriptCodec
from cleveragents.domain.errors import InvalidInputError
from cleveragents.domain.transcript import Transcript, TranscriptFormat


class JsonTranscriptCodec(TranscriptCodec):
    """Anthropic Messages JSON, OpenAI Chat Completions and Responses JSON, and Claude Code
    session JSONL: each format `transcript_formats` declares."""

    def detect(self, text: str) -> TranscriptFormat:
        if (lines := line_record_format(text)) is not None:
            return lines.format
        return document_format(_parse(text))

    def read(self, text: str, transcript_format: TranscriptFormat | None = None) -> Transcript:
        named = _format(transcript_format) if transcript_format else None
        try:
            if (lines := line_record_format(text)) is not None:
                if named not in (None, lines.format):
                    raise InvalidInputError(mismatch(lines.format, named, "one JSON record a line"))
                return lines.read(text)
            if named is not None and (codec := codec_of(named)).line_records:
                _refuse_a_json_document(text, codec)
                return codec.read(text)
            return _read_document(_parse(text), named)
        except ValidationError as exc:  # a value the explicit checks let through
            raise _invalid(exc) from exc

    def write(self, transcript: Transcript, transcript_format: TranscriptFormat) -> str:
        codec = codec_of(_format(transcript_format))
        written = codec.write(transcript)
        if codec.line_records:
            return str(written)
        return json.dumps(written, ensure_ascii=False, indent=2) + "\n"

    def write_bytes(self, transcript: Transcript, transcript_format: TranscriptFormat) -> bytes:
        text = self.write(transcript, transcript_format)
        # Only a JSON string can hold a lone surrogate, and there its escape is what was read.
        return _LONE_SURROGATE.sub(_escaped, text).encode("utf-8")

    def detect_native(self, document: object) -> TranscriptFormat:
        if (records := records_format(document)) is not None:
            return records.format
        return document_format(document)

    def read_native(
        self, document: object, transcript_format: TranscriptFormat | None = None
    ) -> Transcript:
        named = _format(transcript_format) if transcript_format else None
        copied = json_copy(document, "transcript")
        try:
            if (records := records_format(copied)) is not None:
                if named not in (None, records.format):
                    raise InvalidInputError(
                        mismatch(records.format, named, "a list of session records")
                    )
                assert isinstance(copied, list)  # the records recognised are a list
                return records.read(claude_code_lines(copied))
            if named is not None and (codec := codec_of(named)).line_records:
                raise InvalidInputError(
                    f"transcript is not a list of {codec.records} ({codec.records_described})"
                )
            return _read_document(copied, named)
        except ValidationError as exc:
            raise _invalid(exc) from exc

    def write_native(self, transcript: Transcript, transcript_format: TranscriptFormat) -> object:
        codec = codec_of(_format(transcript_format))
        written = codec.write(transcript)
        if codec.line_records:
            # One record a line, split at newlines only: a record's text may hold U+2028.
            return [json.loads(line) for line in str(written).split("\n") if line]
        # The writers reuse the transcript's own dicts (usage, extras): whoever edits the
        # document must not be editing the transcript.
        return json_copy(written, "transcript")

    def provider(self, transcript_format: TranscriptFormat) -> str:
        return codec_of(_format(transcript_format)).provider


_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def _escaped(match: re.Match[str]) -> str:
    return f"\\u{ord(match.group()):04x}"


def _read_document(document: object, named: TranscriptFormat | None) -> Transcript:
    """An Anthropic or OpenAI document, its format detected when `named` is None."""
    if named is None:
        named = document_format(document)
    elif problem := named_format_problem(document, named):
        raise InvalidInputError(problem)
    return codec_of(named).read(document)


def _invalid(exc: ValidationError) -> InvalidInputError:
    error = exc.errors()[0]
    place = ".".join(str(part) for part in error["loc"])
    return InvalidInputError(f"transcript: {place}: {error['msg']}")


def _format(name: str) -> TranscriptFormat:
    """The format, also when it was passed as its plain string value."""
    try:
        return TranscriptFormat(name)
    except ValueError as exc:
        known = ", ".join(member.value for member in TranscriptFormat)
        raise InvalidInputError(f"unknown transcript format {name!r}; one of {known}") from exc


def _parse(text: str) -> object:
    return parse_json(text, "transcript")


def _refuse_a_json_document(text: str, named: TranscriptFormatCodec) -> None:
    """A line-record format was named, and `text` is not in it: refuse it when it is one JSON
    document of messages (the line reader would only say that its first line is not a
    record)."""
    document = parse_json_or_none(text)
    if not message_list(document):  # no messages: nothing shows which format it is
        return
    try:
        looks_like = document_format(document)
    except InvalidInputError:  # signs of both formats
        formats = " or ".join(
            repr(item.value) for item in TranscriptFormat if codec_of(item) in DOCUMENT_FORMATS
        )
        raise InvalidInputError(
            f"transcript is one JSON document of messages, not {named.label}; read it as {formats}"
        ) from None
    sign = "one JSON document of messages"
    raise InvalidInputError(mismatch(looks_like, named.format, sign))
