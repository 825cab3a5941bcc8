"""Anthropic Messages JSON to and from the neutral `Transcript`.

The document is a Messages API request body (``{"model", "system", "messages", ...}``) or a bare
list of messages. The quirks this module absorbs:

* The system prompt is not a message: it sits beside ``messages`` as ``system``, a string or a
  list of text blocks. It becomes one leading system message; the other request keys (model,
  max_tokens, tools, ...) ride in ``Transcript.extra["anthropic_request"]``.
* ``content`` is a string or a list of blocks. The string form is remembered as
  ``extra["content_form"] == "string"`` so that it is written back as a string.
* ``redacted_thinking`` carries only opaque ``data``: it becomes a redacted `ThinkingBlock`
  whose ``signature`` holds that data.
* ``tool_result.content`` is a string or a list of blocks; the list is kept in ``parts``.
* Keys the neutral blocks have no field for (``cache_control``, ``citations``, Claude Code's
  ``caller``, a default spelled out such as ``"is_error": false``) are kept per block in
  ``extra["block_extras"]`` (one dict per block) and restored on writing.

Claude Code session logs carry the same blocks, so `read_content` and `write_content` serve
`claude_code_jsonl` too.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from cleveragents.domain.errors import InvalidInputError
from cleveragents.domain.transcript import (
    ContentBlock,
    Message,
    OtherBlock,
    Role,
    TextBlock,
    ThinkingBlock,
    ToolCall,
    ToolResult,
    Transcript,
)

CONTENT_FORM = "content_form"
"""Message.extra key: how `content` was spelled ("string", "list", "null", "absent")."""
BLOCK_EXTRAS = "block_extras"
"""Message.extra key: per block, the keys the neutral block has no field for."""
REQUEST = "anthropic_request"
"""Transcript.extra key: the request's keys other than system and messages."""
MESSAGE_KEYS = "anthropic"
"""Message.extra key: a message's keys other than role, content and usage."""

_ROLES = {"user": Role.USER, "assistant": Role.ASSISTANT}

Json = dict[str, Any]


@dataclass(frozen=True, slots=True)
class Content:
    """Blocks read from a `content` value, and the Message.extra entries that restore it."""

    blocks: tuple[ContentBlock, ...]
    extra: Json = field(default_factory=dict)


def kind_of(value: object) -> str:
    """A JSON type name for error messages."""
    names = {dict: "an object", list: "a list", str: "a string", bool: "a boolean"}
    if value is None:
        return "null"
    return names.get(type(value), "a number")


def joined_text(parts: list[Json] | tuple[Json, ...]) -> str:
    """The text parts of a tool result joined with newlines (Anthropic and OpenAI spell a text
    part the same way: ``{"type": "text", "text": ...}``)."""
    return "\n".join(
        part["text"]
        for part in parts
        if part.get("type") == "text" and isinstance(part.get("text"), str)
    )


def result_parts(where: str, content: list[Any]) -> tuple[Json, ...]:
    for index, part in enumerate(content):
        if not isinstance(part, dict):
            raise InvalidInputError(f"{where}[{index}]: a content part must be an object")
    return tuple(content)


def written_result_content(result: ToolResult) -> str | list[Json]:
    """The tool result's content as written: its original parts while their text still matches
    `content`; after the text was changed (compacted), the new text followed by the non-text
    parts."""
    if result.parts is None:
        return result.content
    parts = [dict(part) for part in result.parts]
    if joined_text(parts) == result.content:
        return parts
    others = [part for part in parts if part.get("type") != "text"]
    return ([{"type": "text", "text": result.content}] if result.content else []) + others


def read_content(content: object, where: str) -> Content:
    """`content` (a string or a list of blocks) as neutral blocks; `where` names it in errors."""
    if isinstance(content, str):
        return Content((TextBlock(text=content),) if content else (), {CONTENT_FORM: "string"})
    if not isinstance(content, list):
        raise InvalidInputError(
            f"{where}: content must be a string or a list of blocks, not {kind_of(content)}"
        )
    blocks: list[ContentBlock] = []
    extras: list[Json] = []
    for index, raw in enumerate(content):
        block, extra = read_block(raw, f"{where}[{index}]")
        blocks.append(block)
        extras.append(extra)
    return Content(tuple(blocks), {BLOCK_EXTRAS: extras} if any(extras) else {})


def read_block(raw: object, where: str) -> tuple[ContentBlock, Json]:
    """One block and its leftover keys; unknown block types are kept whole as `OtherBlock`."""
    if not isinstance(raw, dict) or not isinstance(raw.get("type"), str):
        raise InvalidInputError(f"{where}: a block must be an object with a string 'type'")
    reader = _BLOCK_READERS.get(raw["type"])
    if reader is None:
        return OtherBlock(data=raw), {}
    return reader(raw, where)


def _string(raw: Json, key: str, where: str, *, required_text: bool = False) -> str:
    value = raw.get(key)
    if not isinstance(value, str) or (required_text and not value):
        wanted = "a non-empty string" if required_text else "a string"
        raise InvalidInputError(f"{where}: {raw['type']} block without {wanted} '{key}'")
    return value


def _leftovers(raw: Json, used: set[str]) -> Json:
    return {key: value for key, value in raw.items() if key not in used}


def _read_text(raw: Json, where: str) -> tuple[ContentBlock, Json]:
    return TextBlock(text=_string(raw, "text", where)), _leftovers(raw, {"type", "text"})


def _read_thinking(raw: Json, where: str) -> tuple[ContentBlock, Json]:
    signature = raw.get("signature")
    used = {"type", "thinking"} | ({"signature"} if isinstance(signature, str) else set())
    block = ThinkingBlock(
        thinking=_string(raw, "thinking", where),
        signature=signature if isinstance(signature, str) else None,
    )
    return block, _leftovers(raw, used)


def _read_redacted(raw: Json, where: str) -> tuple[ContentBlock, Json]:
    block = ThinkingBlock(thinking="", redacted=True, signature=_string(raw, "data", where))
    return block, _leftovers(raw, {"type", "data"})


def _read_tool_use(raw: Json, where: str) -> tuple[ContentBlock, Json]:
    call_id = _string(raw, "id", where, required_text=True)
    name = _string(raw, "name", where)
    arguments = raw.get("input")
    if not isinstance(arguments, dict):
        raise InvalidInputError(f"{where}: tool_use block whose 'input' is not an object")
    block = ToolCall(id=call_id, name=name, input=arguments)
    return block, _leftovers(raw, {"type", "id", "name", "input"})


def _read_tool_result(raw: Json, where: str) -> tuple[ContentBlock, Json]:
    call_id = _string(raw, "tool_use_id", where, required_text=True)
    content = raw.get("content", "")
    is_error = raw.get("is_error", False)
    if not isinstance(is_error, bool):
        raise InvalidInputError(f"{where}: tool_result 'is_error' must be true or false")
    used = {"type", "tool_use_id"} | ({"is_error"} if is_error else set())
    # An empty string or a false flag spelled out stays a leftover: the writer omits defaults.
    if isinstance(content, list):
        parts = result_parts(f"{where}.content", content)
        block = ToolResult(
            call_id=call_id, content=joined_text(parts), is_error=is_error, parts=parts
        )
        return block, _leftovers(raw, used | {"content"})
    if not isinstance(content, str):
        raise InvalidInputError(f"{where}: tool_result content must be a string or a list")
    used |= {"content"} if content else set()
    return ToolResult(call_id=call_id, content=content, is_error=is_error), _leftovers(raw, used)


_BLOCK_READERS: dict[str, Callable[[Json, str], tuple[ContentBlock, Json]]] = {
    "text": _read_text,
    "thinking": _read_thinking,
    "redacted_thinking": _read_redacted,
    "tool_use": _read_tool_use,
    "tool_result": _read_tool_result,
}


def write_block(block: ContentBlock, extra: Mapping[str, Any]) -> Json:
    """One block as Anthropic spells it, with its leftover keys restored."""
    written: Json
    if isinstance(block, TextBlock):
        written = {"type": "text", "text": block.text}
    elif isinstance(block, ThinkingBlock) and block.redacted:
        written = {"type": "redacted_thinking", "data": block.signature or ""}
    elif isinstance(block, ThinkingBlock):
        written = {"type": "thinking", "thinking": block.thinking}
        if block.signature is not None:
            written["signature"] = block.signature
    elif isinstance(block, ToolCall):
        written = {"type": "tool_use", "id": block.id, "name": block.name, "input": block.input}
    elif isinstance(block, ToolResult):
        written = {"type": "tool_result", "tool_use_id": block.call_id}
        if block.parts is not None or block.content:
            written["content"] = written_result_content(block)
        if block.is_error:
            written["is_error"] = True
    else:
        written = dict(block.data)
    for key, value in extra.items():
        written.setdefault(key, value)  # leftovers never override what the model says now
    return written


def block_extras(message: Message) -> list[Mapping[str, Any]]:
    """The message's per-block leftovers, or none when they no longer line up with its blocks
    (a service changed the blocks)."""
    extras = message.extra.get(BLOCK_EXTRAS)
    if isinstance(extras, list) and len(extras) == len(message.content):
        return [extra if isinstance(extra, dict) else {} for extra in extras]
    return [{} for _ in message.content]


def write_content(message: Message) -> str | list[Json]:
    """The message's content, as a string when it was read as one and still can be."""
    extras = block_extras(message)
    as_string = (
        message.extra.get(CONTENT_FORM) == "string"
        and len(message.content) <= 1
        and all(isinstance(block, TextBlock) for block in message.content)
        and not any(extras)
    )
    if as_string:
        return message.text
    return [write_block(block, extra) for block, extra in zip(message.content, extras, strict=True)]


def read_anthropic(document: object) -> Transcript:
    """A request body or a bare list of messages as a `Transcript`."""
    if isinstance(document, list):
        return Transcript(messages=_read_messages(document))
    if not isinstance(document, dict) or not isinstance(document.get("messages"), list):
        raise InvalidInputError("transcript: expected a list of messages or an object with one")
    messages = _read_messages(document["messages"])
    if "system" in document:
        system = read_content(document["system"], "system")
        prompt = Message(role=Role.SYSTEM, content=system.blocks, extra=system.extra)
        messages = (prompt, *messages)
    request = {key: value for key, value in document.items() if key not in ("system", "messages")}
    # With a system prompt the writer makes an object anyway; an empty request is then noise.
    if request or "system" not in document:
        return Transcript(messages=messages, extra={REQUEST: request})
    return Transcript(messages=messages)


def _read_messages(raw_messages: list[Any]) -> tuple[Message, ...]:
    return tuple(_read_message(raw, f"messages[{index}]") for index, raw in enumerate(raw_messages))


def _read_message(raw: object, where: str) -> Message:
    if not isinstance(raw, dict):
        raise InvalidInputError(f"{where}: a message must be an object, not {kind_of(raw)}")
    role = raw.get("role")
    if role == "system":
        raise InvalidInputError(
            f"{where}: role 'system' inside messages; Anthropic puts it in the top-level 'system'"
        )
    if not isinstance(role, str) or role not in _ROLES:
        raise InvalidInputError(f"{where}: unknown role {role!r}")
    if "content" not in raw:
        raise InvalidInputError(f"{where}: message without content")
    content = read_content(raw["content"], f"{where}.content")
    usage = raw.get("usage")
    usage = usage if isinstance(usage, dict) else None
    keys = _leftovers(raw, {"role", "content"} | ({"usage"} if usage is not None else set()))
    extra = {**content.extra, **({MESSAGE_KEYS: keys} if keys else {})}
    return Message(role=_ROLES[role], content=content.blocks, usage=usage, extra=extra)


def write_anthropic(transcript: Transcript) -> Json | list[Json]:
    """The transcript as a request body, or as a bare list when it was read from one and has no
    system prompt."""
    messages = list(transcript.messages)
    leading = 0
    while leading < len(messages) and messages[leading].role is Role.SYSTEM:
        leading += 1
    written: list[Json] = []
    for index, message in enumerate(messages[leading:], start=leading):
        if message.role is Role.SYSTEM:
            raise InvalidInputError(
                f"message {index}: a system message after the conversation began has no place "
                "in Anthropic Messages (one top-level system prompt)"
            )
        written.append(_write_message(message))
    request = transcript.extra.get(REQUEST)
    if not isinstance(request, dict) and not leading:
        return written
    body: Json = dict(request) if isinstance(request, dict) else {}
    if leading:
        body["system"] = _write_system(messages[:leading])
    body["messages"] = written
    return body


def _write_system(system: list[Message]) -> str | list[Json]:
    if len(system) == 1:
        return write_content(system[0])
    # Several system messages (OpenAI's system + developer) become one list of blocks.
    blocks: list[Json] = []
    for message in system:
        content = write_content(message)
        blocks.extend([{"type": "text", "text": content}] if isinstance(content, str) else content)
    return blocks


def _write_message(message: Message) -> Json:
    written: Json = {"role": message.role.value, "content": write_content(message)}
    if message.usage is not None:
        written["usage"] = message.usage
    keys = message.extra.get(MESSAGE_KEYS)
    for key, value in (keys if isinstance(keys, dict) else {}).items():
        written.setdefault(key, value)
    return written
