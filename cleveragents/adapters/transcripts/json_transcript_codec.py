"""The `TranscriptCodec` for JSON transcripts: detects the format and dispatches to its module.

Detection, in order:

* Claude Code JSONL: the first line is a JSON object with a ``type`` on its own, and some record
  belongs to a session (see `looks_like_claude_code`).
* One JSON document holding messages (a list, or an object with ``messages``):
  - OpenAI when a message has role ``tool``, ``developer`` or ``system`` (Anthropic keeps the
    system prompt outside the list), ``tool_calls`` or ``tool_call_id``, or a content part of an
    OpenAI-only type (``image_url``, ``input_audio``, ``refusal``);
  - Anthropic when there is a top-level ``system`` or a block of an Anthropic-only type
    (``tool_use``, ``tool_result``, ``thinking``, ``redacted_thinking``, ``image``, ``document``);
  - plain ``{role, content: "text"}`` messages read the same either way: Anthropic;
  - signs of both: an error asking for the format to be named.
"""

from __future__ import annotations

import json
from typing import Any

from pydantic import ValidationError

from cleveragents.adapters.transcripts.anthropic_messages import read_anthropic, write_anthropic
from cleveragents.adapters.transcripts.claude_code_jsonl import (
    looks_like_claude_code,
    read_claude_code,
    write_claude_code,
)
from cleveragents.adapters.transcripts.openai_chat import read_openai, write_openai
from cleveragents.application.ports.transcript_codec import TranscriptCodec
from cleveragents.domain.errors import InvalidInputError
from cleveragents.domain.transcript import Transcript, TranscriptFormat

_OPENAI_ROLES = ("tool", "developer", "system")
_OPENAI_KEYS = ("tool_calls", "tool_call_id")
_OPENAI_PARTS = ("image_url", "input_audio", "refusal")
_ANTHROPIC_BLOCKS = (
    "tool_use",
    "tool_result",
    "thinking",
    "redacted_thinking",
    "image",
    "document",
)


class JsonTranscriptCodec(TranscriptCodec):
    """Anthropic Messages JSON, OpenAI Chat Completions JSON and Claude Code session JSONL."""

    def detect(self, text: str) -> TranscriptFormat:
        if looks_like_claude_code(text):
            return TranscriptFormat.CLAUDE_CODE
        return _document_format(_parse(text))

    def read(self, text: str, transcript_format: TranscriptFormat | None = None) -> Transcript:
        transcript_format = _format(transcript_format) if transcript_format else self.detect(text)
        try:
            if transcript_format is TranscriptFormat.CLAUDE_CODE:
                return read_claude_code(text)
            if transcript_format is TranscriptFormat.OPENAI:
                return read_openai(_parse(text))
            return read_anthropic(_parse(text))
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
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise InvalidInputError(
            f"transcript is not JSON: {exc.msg} at line {exc.lineno} column {exc.colno}"
        ) from exc
    except RecursionError as exc:
        raise InvalidInputError("transcript is nested too deeply to read") from exc


def _document_format(document: object) -> TranscriptFormat:
    messages = document.get("messages") if isinstance(document, dict) else document
    if not isinstance(messages, list) or not all(
        isinstance(message, dict) and "role" in message for message in messages
    ):
        raise InvalidInputError(
            "transcript is neither Claude Code JSONL nor JSON messages with roles "
            "(a list, or an object with a 'messages' list)"
        )
    openai = _openai_sign(messages)
    anthropic = (
        "top-level 'system'" if isinstance(document, dict) and "system" in document else None
    )
    anthropic = anthropic or _anthropic_sign(messages)
    if openai and anthropic:
        raise InvalidInputError(
            f"transcript mixes OpenAI ({openai}) and Anthropic ({anthropic}) features; "
            "name the format explicitly"
        )
    return TranscriptFormat.OPENAI if openai else TranscriptFormat.ANTHROPIC


def _openai_sign(messages: list[dict[str, Any]]) -> str | None:
    for index, message in enumerate(messages):
        if message.get("role") in _OPENAI_ROLES:
            return f"messages[{index}] has role {message['role']!r}"
        for key in _OPENAI_KEYS:
            if key in message:
                return f"messages[{index}] has {key!r}"
        if kind := _first_part_type(message, _OPENAI_PARTS):
            return f"messages[{index}] has a {kind!r} part"
    return None


def _anthropic_sign(messages: list[dict[str, Any]]) -> str | None:
    for index, message in enumerate(messages):
        if kind := _first_part_type(message, _ANTHROPIC_BLOCKS):
            return f"messages[{index}] has a {kind!r} block"
    return None


def _first_part_type(message: dict[str, Any], kinds: tuple[str, ...]) -> str | None:
    content = message.get("content")
    for part in content if isinstance(content, list) else ():
        if isinstance(part, dict) and part.get("type") in kinds:
            return str(part["type"])
    return None
