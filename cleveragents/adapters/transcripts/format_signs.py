"""What shows a JSON document of messages to be in one format and not another: an OpenAI Chat
role, key or content part; an Anthropic top-level ``system`` or block type; an OpenAI Responses
top-level ``input``, item type or content part. Each function gives the first such sign as a
phrase for messages (``messages[2] has role 'tool'``), or None.

*Structural* signs are the ones that change what is read (tool calls and results, reasoning,
the system prompt): a format named against one of another format's is refused. Part types
alone (an ``image`` part in an OpenAI list) are carried through unchanged either way.

The Responses API shares the roles ``system`` and ``developer`` and the ``refusal`` and
``input_audio`` parts with Chat Completions: beside a sign of the Responses format they are no
sign of Chat Completions (only a ``tool`` role, ``tool_calls``, ``tool_call_id`` or an
``image_url`` part are).
"""

from __future__ import annotations

from typing import Any

_OPENAI_ROLES = ("tool", "developer", "system")
_OPENAI_STRUCTURAL_ROLES = ("tool", "developer")  # "system" the Anthropic reader refuses itself
_OPENAI_KEYS = ("tool_calls", "tool_call_id")
_OPENAI_PARTS = ("image_url", "input_audio", "refusal")
_ANTHROPIC_STRUCTURAL_BLOCKS = ("tool_use", "tool_result", "thinking", "redacted_thinking")
_ANTHROPIC_BLOCKS = (*_ANTHROPIC_STRUCTURAL_BLOCKS, "image", "document")
_CHAT_ONLY_ROLES = ("tool",)  # what the Responses API never has
_CHAT_ONLY_PARTS = ("image_url",)

RESPONSES_ITEM_TYPES = (
    "function_call",
    "function_call_output",
    "custom_tool_call",
    "custom_tool_call_output",
    "reasoning",
    "web_search_call",
    "file_search_call",
    "computer_call",
    "computer_call_output",
    "code_interpreter_call",
    "image_generation_call",
    "local_shell_call",
    "local_shell_call_output",
    "mcp_call",
    "mcp_list_tools",
    "mcp_approval_request",
    "mcp_approval_response",
    "shell_call",
    "shell_call_output",
    "apply_patch_call",
    "apply_patch_call_output",
    "compaction",
    "item_reference",
)
"""The Responses API's input items other than messages: they have a ``type`` and no role."""
_RESPONSES_PARTS = ("input_text", "output_text", "input_image", "input_file")

Messages = list[dict[str, Any]]


def is_responses_item(item: object) -> bool:
    """An input item of the Responses API that is not a message (a function call, its output,
    reasoning, ...)."""
    return isinstance(item, dict) and item.get("type") in RESPONSES_ITEM_TYPES


def openai_sign(document: object, messages: Messages) -> str | None:
    """An OpenAI role (``tool``, ``developer``, ``system``), key or content part."""
    if responses_sign(document, messages):
        return _openai_sign(messages, _CHAT_ONLY_ROLES, _CHAT_ONLY_PARTS)
    return _openai_sign(messages, _OPENAI_ROLES, _OPENAI_PARTS)


def openai_structural_sign(document: object, messages: Messages) -> str | None:
    """An OpenAI ``tool`` or ``developer`` role, or a tool call's key."""
    if responses_sign(document, messages):
        return _openai_sign(messages, _CHAT_ONLY_ROLES, ())
    return _openai_sign(messages, _OPENAI_STRUCTURAL_ROLES, ())


def responses_reads_alike(document: object, messages: Messages) -> bool:
    """Messages the Responses API reads as Chat Completions does: plain ones, whatever their
    role (``developer`` included), with no sign only Chat Completions or Anthropic reads (a
    ``tool`` role, ``tool_calls``, ``tool_call_id``, a tool use or result, thinking, a top-level
    ``system``)."""
    return not (
        _openai_sign(messages, _CHAT_ONLY_ROLES, ())
        or anthropic_structural_sign(document, messages)
    )


def responses_sign(document: object, messages: Messages) -> str | None:
    """A top-level ``input`` (and no ``messages``), an item of a Responses-only type
    (``function_call``, ``function_call_output``, ``reasoning``, ...) or a Responses content
    part (``input_text``, ``output_text``, ``input_image``, ``input_file``). Each of them
    changes what is read, so every sign of the format is a structural one."""
    if isinstance(document, dict) and "input" in document and "messages" not in document:
        return "top-level 'input'"
    for index, item in enumerate(messages):
        if is_responses_item(item):
            return f"input[{index}] is a {item['type']!r} item"
        if kind := _first_part_type(item, _RESPONSES_PARTS):
            return f"input[{index}] has a part of type {kind!r}"
    return None


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
