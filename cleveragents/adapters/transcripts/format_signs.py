"""What shows a JSON document of messages to be in one format and not the other: an OpenAI
role, key or content part; an Anthropic top-level ``system`` or block type. Each function
gives the first such sign as a phrase for messages (``messages[2] has role 'tool'``), or None.

*Structural* signs are the ones that change what is read (tool calls and results, reasoning,
the system prompt): a format named against one of the other format's is refused. Part types
alone (an ``image`` part in an OpenAI list) are carried through unchanged either way.
"""

from __future__ import annotations

from typing import Any

_OPENAI_ROLES = ("tool", "developer", "system")
_OPENAI_STRUCTURAL_ROLES = ("tool", "developer")  # "system" the Anthropic reader refuses itself
_OPENAI_KEYS = ("tool_calls", "tool_call_id")
_OPENAI_PARTS = ("image_url", "input_audio", "refusal")
_ANTHROPIC_STRUCTURAL_BLOCKS = ("tool_use", "tool_result", "thinking", "redacted_thinking")
_ANTHROPIC_BLOCKS = (*_ANTHROPIC_STRUCTURAL_BLOCKS, "image", "document")

Messages = list[dict[str, Any]]


def openai_sign(document: object, messages: Messages) -> str | None:
    """An OpenAI role (``tool``, ``developer``, ``system``), key or content part."""
    return _openai_sign(messages, _OPENAI_ROLES, _OPENAI_PARTS)


def openai_structural_sign(document: object, messages: Messages) -> str | None:
    """An OpenAI ``tool`` or ``developer`` role, or a tool call's key."""
    return _openai_sign(messages, _OPENAI_STRUCTURAL_ROLES, ())


def anthropic_sign(document: object, messages: Messages) -> str | None:
    """A top-level ``system``, or a block of an Anthropic-only type."""
    return _anthropic_sign(document, messages, _ANTHROPIC_BLOCKS)


def anthropic_structural_sign(document: object, messages: Messages) -> str | None:
    """A top-level ``system``, or a tool use, tool result or thinking block."""
    return _anthropic_sign(document, messages, _ANTHROPIC_STRUCTURAL_BLOCKS)


def _openai_sign(messages: Messages, roles: tuple[str, ...], parts: tuple[str, ...]) -> str | None:
    for index, message in enumerate(messages):
        if message.get("role") in roles:
            return f"messages[{index}] has role {message['role']!r}"
        for key in _OPENAI_KEYS:
            if key in message:
                return f"messages[{index}] has {key!r}"
        if kind := _first_part_type(message, parts):
            return f"messages[{index}] has a {kind!r} part"
    return None


def _anthropic_sign(document: object, messages: Messages, blocks: tuple[str, ...]) -> str | None:
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
