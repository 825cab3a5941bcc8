"""Which format a JSON transcript document is in, and whether it can be the format a user named.

Detection (`document_format`) of one JSON document holding messages (a list, or an object with
``messages``):

* OpenAI when a message has role ``tool``, ``developer`` or ``system`` (Anthropic keeps the system
  prompt outside the list), ``tool_calls`` or ``tool_call_id``, or a content part of an
  OpenAI-only type (``image_url``, ``input_audio``, ``refusal``);
* Anthropic when there is a top-level ``system`` or a block of an Anthropic-only type
  (``tool_use``, ``tool_result``, ``thinking``, ``redacted_thinking``, ``image``, ``document``);
* plain ``{role, content: "text"}`` messages read the same either way: Anthropic;
* signs of both: an error asking for the format to be named.

A named format (`named_format_problem`) is refused when the document has none of its signs and
one of the other format's *structural* signs: the ones that change what is read (tool calls and
results, reasoning, the system prompt). Read as the wrong format they would be kept as opaque
extras, and tool pairs, usage and token counts would come out wrong. Part types alone (an
``image`` part in an OpenAI list, an ``image_url`` block in an Anthropic one) do not refuse it:
they are carried through unchanged either way, and a conversion writes them so.
"""

from __future__ import annotations

from typing import Any

from cleveragents.domain.errors import InvalidInputError
from cleveragents.domain.transcript import TranscriptFormat

FORMAT_NAMES = {
    TranscriptFormat.ANTHROPIC: "Anthropic Messages JSON",
    TranscriptFormat.OPENAI: "OpenAI Chat Completions JSON",
    TranscriptFormat.CLAUDE_CODE: "Claude Code session JSONL",
}

_OPENAI_ROLES = ("tool", "developer", "system")
_OPENAI_STRUCTURAL_ROLES = ("tool", "developer")  # "system" the Anthropic reader refuses itself
_OPENAI_KEYS = ("tool_calls", "tool_call_id")
_OPENAI_PARTS = ("image_url", "input_audio", "refusal")
_ANTHROPIC_STRUCTURAL_BLOCKS = ("tool_use", "tool_result", "thinking", "redacted_thinking")
_ANTHROPIC_BLOCKS = (*_ANTHROPIC_STRUCTURAL_BLOCKS, "image", "document")


def message_list(document: object) -> list[dict[str, Any]] | None:
    """The messages of a transcript document, when it is one: a list of objects with a role, or
    an object whose ``messages`` is such a list."""
    messages = document.get("messages") if isinstance(document, dict) else document
    if not isinstance(messages, list) or not all(
        isinstance(message, dict) and "role" in message for message in messages
    ):
        return None
    return messages


def document_format(document: object) -> TranscriptFormat:
    """The format of a JSON transcript document; `InvalidInputError` when it holds no messages
    or signs of both formats."""
    messages = message_list(document)
    if messages is None:
        raise InvalidInputError(
            "transcript is neither Claude Code JSONL nor JSON messages with roles "
            "(a list, or an object with a 'messages' list)"
        )
    openai = _openai_sign(messages, _OPENAI_ROLES, _OPENAI_PARTS)
    anthropic = _anthropic_sign(document, messages, _ANTHROPIC_BLOCKS)
    if openai and anthropic:
        raise InvalidInputError(
            f"transcript mixes OpenAI ({openai}) and Anthropic ({anthropic}) features; "
            "name the format explicitly"
        )
    return TranscriptFormat.OPENAI if openai else TranscriptFormat.ANTHROPIC


def named_format_problem(document: object, named: TranscriptFormat) -> str | None:
    """Why `document` cannot be read as `named` (it is plainly the other JSON format), or None.
    A document that is no transcript at all is left to the reader, which says what is wrong."""
    messages = message_list(document)
    if messages is None:
        return None
    if named is TranscriptFormat.OPENAI:
        own = _openai_sign(messages, _OPENAI_ROLES, _OPENAI_PARTS)
        other = _anthropic_sign(document, messages, _ANTHROPIC_STRUCTURAL_BLOCKS)
        looks_like = TranscriptFormat.ANTHROPIC
    elif named is TranscriptFormat.ANTHROPIC:
        own = _anthropic_sign(document, messages, _ANTHROPIC_BLOCKS)
        other = _openai_sign(messages, _OPENAI_STRUCTURAL_ROLES, ())
        looks_like = TranscriptFormat.OPENAI
    else:
        return None
    if own or not other:
        return None
    return mismatch(looks_like, named, other)


def mismatch(looks_like: TranscriptFormat, named: TranscriptFormat, sign: str) -> str:
    """The one line that refuses a transcript read as a format it is not in."""
    return (
        f"transcript looks like {FORMAT_NAMES[looks_like]} ({sign}), not "
        f"{FORMAT_NAMES[named]}; read it as {looks_like.value!r} or let the format be detected"
    )


def _openai_sign(
    messages: list[dict[str, Any]], roles: tuple[str, ...], parts: tuple[str, ...]
) -> str | None:
    for index, message in enumerate(messages):
        if message.get("role") in roles:
            return f"messages[{index}] has role {message['role']!r}"
        for key in _OPENAI_KEYS:
            if key in message:
                return f"messages[{index}] has {key!r}"
        if kind := _first_part_type(message, parts):
            return f"messages[{index}] has a {kind!r} part"
    return None


def _anthropic_sign(
    document: object, messages: list[dict[str, Any]], blocks: tuple[str, ...]
) -> str | None:
    if isinstance(document, dict) and "system" in document:
        return "top-level 'system'"
    for index, message in enumerate(messages):
        if kind := _first_part_type(message, blocks):
            return f"messages[{index}] has a {kind!r} block"
    return None


def _first_part_type(message: dict[str, Any], kinds: tuple[str, ...]) -> str | None:
    content = message.get("content")
    for part in content if isinstance(content, list) else ():
        if isinstance(part, dict) and part.get("type") in kinds:
            return str(part["type"])
    return None
