"""The `TranscriptCodec` for JSON transcripts: detects the format and dispatches to its module.

Claude Code JSONL is recognised first (its first line is a JSON object with a ``type`` on its
own, and some record belongs to a session: see `looks_like_claude_code`); otherwise the text is
one JSON document whose format `format_detection` tells. A format named by the caller is checked
against what the text plainly is: Claude Code JSONL read as a JSON document, an Anthropic
document read as OpenAI and the reverse are refused, naming the format the text looks like.
"""

from __future__ import annotations

import json

from pydantic import ValidationError

from cleveragents.adapters.transcripts.anthropic_messages import read_anthropic, write_anthropic
from cleveragents.adapters.transcripts.claude_code_jsonl import (
    looks_like_claude_code,
    read_claude_code,
    write_claude_code,
)
from cleveragents.adapters.transcripts.format_detection import (
    document_format,
    message_list,
    mismatch,
    named_format_problem,
)
from cleveragents.adapters.transcripts.openai_chat import read_openai, write_openai
from cleveragents.adapters.transcripts.strict_json import parse_json, parse_json_or_none
from cleveragents.application.ports.transcript_codec import TranscriptCodec
from cleveragents.domain.errors import InvalidInputError
from cleveragents.domain.transcript import Transcript, TranscriptFormat


class JsonTranscriptCodec(TranscriptCodec):
    """Anthropic Messages JSON, OpenAI Chat Completions JSON and Claude Code session JSONL."""

    def detect(self, text: str) -> TranscriptFormat:
        if looks_like_claude_code(text):
            return TranscriptFormat.CLAUDE_CODE
        return document_format(_parse(text))

    def read(self, text: str, transcript_format: TranscriptFormat | None = None) -> Transcript:
        named = _format(transcript_format) if transcript_format else None
        try:
            if looks_like_claude_code(text):
                if named not in (None, TranscriptFormat.CLAUDE_CODE):
                    raise InvalidInputError(
                        mismatch(TranscriptFormat.CLAUDE_CODE, named, "one JSON record a line")
                    )
                return read_claude_code(text)
            if named is TranscriptFormat.CLAUDE_CODE:
                _refuse_a_json_document(text)
                return read_claude_code(text)
            document = _parse(text)
            if named is None:
                named = document_format(document)
            elif problem := named_format_problem(document, named):
                raise InvalidInputError(problem)
            if named is TranscriptFormat.OPENAI:
                return read_openai(document)
            return read_anthropic(document)
        except ValidationError as exc:  # a value the explicit checks let through
            error = exc.errors()[0]
            place = ".".join(str(part) for part in error["loc"])
            raise InvalidInputError(f"transcript: {place}: {error['msg']}") from exc

    def write(self, transcript: Transcript, transcript_format: TranscriptFormat) -> str:
        transcript_format = _format(transcript_format)
        if transcript_format is TranscriptFormat.CLAUDE_CODE:
            return write_claude_code(transcript)
        document = (
            write_openai(transcript)
            if transcript_format is TranscriptFormat.OPENAI
            else write_anthropic(transcript)
        )
        return json.dumps(document, ensure_ascii=False, indent=2) + "\n"


def _format(name: str) -> TranscriptFormat:
    """The format, also when it was passed as its plain string value."""
    try:
        return TranscriptFormat(name)
    except ValueError as exc:
        known = ", ".join(member.value for member in TranscriptFormat)
        raise InvalidInputError(f"unknown transcript format {name!r}; one of {known}") from exc


def _parse(text: str) -> object:
    return parse_json(text, "transcript")


def _refuse_a_json_document(text: str) -> None:
    """Claude Code JSONL was named, and `text` is not: refuse it when it is one JSON document of
    messages (the Claude Code reader would only say that its first line is not a record)."""
    document = parse_json_or_none(text)
    if not message_list(document):  # no messages: nothing shows which format it is
        return
    try:
        looks_like = document_format(document)
    except InvalidInputError:  # signs of both formats
        raise InvalidInputError(
            "transcript is one JSON document of messages, not Claude Code session JSONL; "
            "read it as 'anthropic' or 'openai'"
        ) from None
    sign = "one JSON document of messages"
    raise InvalidInputError(mismatch(looks_like, TranscriptFormat.CLAUDE_CODE, sign))
