"""Which format a JSON transcript document is in, and whether it can be the format a user named.

Detection (`document_format`) of one JSON document holding messages (a list, or an object with
``messages``; or OpenAI Responses input items, a list or an object's ``input``) walks the
document formats of `transcript_formats.TRANSCRIPT_FORMATS`, each with its signs
(`format_signs`):

* OpenAI Responses when there is a top-level ``input``, an item of a Responses-only type
  (``function_call``, ``function_call_output``, ``reasoning``, ...) or an ``input_text``,
  ``output_text``, ``input_image`` or ``input_file`` part; beside these, the roles and parts it
  shares with Chat Completions are no sign of that format;
* OpenAI when a message has role ``tool``, ``developer`` or ``system`` (Anthropic keeps the system
  prompt outside the list), ``tool_calls`` or ``tool_call_id``, or a content part of an
  OpenAI-only type (``image_url``, ``input_audio``, ``refusal``);
* Anthropic when there is a top-level ``system`` or a block of an Anthropic-only type
  (``tool_use``, ``tool_result``, ``thinking``, ``redacted_thinking``, ``image``, ``document``);
* plain ``{role, content: "text"}`` messages read the same either way: Anthropic;
* signs of more than one: an error asking for the format to be named.

A named format (`named_format_problem`) is refused when the document has none of its signs and
one of the other format's *structural* signs: the ones that change what is read (tool calls and
results, reasoning, the system prompt). Read as the wrong format they would be kept as opaque
extras, and tool pairs, usage and token counts would come out wrong. Part types alone (an
``image`` part in an OpenAI list, an ``image_url`` block in an Anthropic one) do not refuse it:
they are carried through unchanged either way, and a conversion writes them so.
"""

from __future__ import annotations

from typing import Any

from cleveragents.adapters.transcripts.format_signs import is_responses_item
from cleveragents.adapters.transcripts.transcript_formats import (
    DOCUMENT_FORMATS,
    PLAIN_MESSAGES,
    codec_of,
)
from cleveragents.domain.errors import InvalidInputError
from cleveragents.domain.transcript import TranscriptFormat


def message_list(document: object) -> list[dict[str, Any]] | None:
    """The messages of a transcript document, when it is one: a list of objects with a role (or
    Responses input items of a known type), or an object whose ``messages`` is such a list, or
    a Responses request whose ``input`` is (its ``input`` text alone: no message to look at)."""
    if isinstance(document, dict) and "messages" not in document and "input" in document:
        items = [] if isinstance(document["input"], str) else document["input"]
        # A request's input says what it is: an item of a type not known here is still one.
        if isinstance(items, list) and all(
            isinstance(item, dict) and ("role" in item or isinstance(item.get("type"), str))
            for item in items
        ):
            return items
        return None
    messages = document.get("messages") if isinstance(document, dict) else document
    if not isinstance(messages, list) or not all(
        isinstance(message, dict) and ("role" in message or is_responses_item(message))
        for message in messages
    ):
        return None
    return messages


def document_format(document: object) -> TranscriptFormat:
    """The format of a JSON transcript document; `InvalidInputError` when it holds no messages
    or signs of more than one format."""
    messages = message_list(document)
    if messages is None:
        raise InvalidInputError(
            "transcript is neither Claude Code JSONL nor JSON messages with roles "
            "(a list, or an object with a 'messages' list) nor OpenAI Responses input items "
            "(a list, or an object with an 'input' list)"
        )
    signed = [
        (codec, sign)
        for codec in DOCUMENT_FORMATS
        if codec.sign is not None and (sign := codec.sign(document, messages))
    ]
    if len(signed) > 1:
        features = " and ".join(f"{codec.vendor} ({sign})" for codec, sign in signed)
        raise InvalidInputError(f"transcript mixes {features} features; name the format explicitly")
    return signed[0][0].format if signed else PLAIN_MESSAGES.format


def named_format_problem(document: object, named: TranscriptFormat) -> str | None:
    """Why `document` cannot be read as `named` (it is plainly another JSON format), or None.
    A document that is no transcript at all is left to the reader, which says what is wrong."""
    messages = message_list(document)
    codec = codec_of(named)
    if messages is None or codec.sign is None or codec.sign(document, messages):
        return None
    if codec.also_reads is not None and codec.also_reads(document, messages):
        return None
    for other in DOCUMENT_FORMATS:
        if other is codec or other.structural_sign is None:
            continue
        if sign := other.structural_sign(document, messages):
            return mismatch(other.format, named, sign)
    return None


def mismatch(looks_like: TranscriptFormat, named: TranscriptFormat, sign: str) -> str:
    """The one line that refuses a transcript read as a format it is not in."""
    return (
        f"transcript looks like {codec_of(looks_like).label} ({sign}), not "
        f"{codec_of(named).label}; read it as {looks_like.value!r} or let the format be detected"
    )
