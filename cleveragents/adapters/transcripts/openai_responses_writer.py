"""The neutral `Transcript` written as OpenAI Responses API input (read by `openai_responses`).

A message read from Responses items is written as those items again, each from its record:
its own keys in their order, the values the blocks hold put back (a shortened output, a
redacted text). A message that has no such record, or whose blocks no longer line up with it,
is written the plain way: its text and other parts as one ``message`` item, each tool call a
``function_call``, each tool result a ``function_call_output``. Thinking that was not read from
a reasoning item is dropped: a reasoning item is only sent back with the id and encrypted
content OpenAI gave it, which no other format has.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from cleveragents.adapters.transcripts.anthropic_messages import Json
from cleveragents.adapters.transcripts.openai_responses import (
    CALLS,
    MESSAGE,
    OTHER,
    OUTPUTS,
    REASONING,
    REQUEST,
    RESPONSES,
    ROLES,
    TEXT_PARTS,
    canonical_arguments,
    parsed_arguments,
    part_text,
)
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

_BLOCK_OF: dict[str, type[ContentBlock]] = {
    REASONING: ThinkingBlock,
    **dict.fromkeys(CALLS, ToolCall),
    **dict.fromkeys(OUTPUTS, ToolResult),
}
"""The one block each modelled item kind is read as."""
_PLAIN_TEXT = ("text", *TEXT_PARTS)
"""Part types whose text a changed output's new text replaces."""


def write_responses(transcript: Transcript) -> Json | list[Json]:
    """The transcript as a request body, or as a bare list of items when it was read from one
    (and has no instructions)."""
    items: list[Json] = []
    instructions: str | None = None
    given_text: str | None = None
    for index, message in enumerate(transcript.messages):
        marks = _marks(message)
        if marks.get("instructions") and index == 0 and message.role is Role.SYSTEM:
            instructions = message.text
            continue
        if marks.get("input_text") and _plain_text(message):
            given_text = message.text
        items.extend(_write_message(message, index))
    if given_text is not None and len(items) != 1:
        given_text = None  # other items joined it: the input is a list now
    request = transcript.extra.get(REQUEST)
    if not isinstance(request, dict) and instructions is None:
        return items
    body: Json = dict(request) if isinstance(request, dict) else {}
    if instructions is not None:
        body["instructions"] = instructions
    body["input"] = items if given_text is None else given_text
    return body


def _marks(message: Message) -> dict[str, Any]:
    marks = message.extra.get(RESPONSES)
    return marks if isinstance(marks, dict) else {}


def _plain_text(message: Message) -> bool:
    return (
        message.role is Role.USER
        and len(message.content) <= 1
        and all(isinstance(block, TextBlock) for block in message.content)
    )


def _write_message(message: Message, index: int) -> list[Json]:
    for block in message.content:
        if isinstance(block, ToolCall) and message.role is not Role.ASSISTANT:
            raise InvalidInputError(f"message {index}: a tool call outside an assistant message")
        if isinstance(block, ToolResult) and message.role is not Role.USER:
            raise InvalidInputError(f"message {index}: a tool result outside a user message")
    records = _records(message)
    if records is None:
        return _plain_items(message)
    written: list[Json] = []
    start = 0
    for record in records:
        blocks = message.content[start : start + record["blocks"]]
        start += record["blocks"]
        written.append(_write_item(record, blocks, message.role))
    return written


def _records(message: Message) -> list[Json] | None:
    """The records of the items the message was read from, while its blocks still fit them."""
    items = _marks(message).get("items")
    if not isinstance(items, list) or not all(isinstance(record, dict) for record in items):
        return None
    start = 0
    for record in items:
        count = record.get("blocks")
        if not isinstance(count, int) or count < 0:
            return None
        if not _fits(record, message.content[start : start + count], count):
            return None
        start += count
    return items if start == len(message.content) else None


def _fits(record: Json, blocks: Sequence[ContentBlock], count: int) -> bool:
    kind = record.get("kind")
    if len(blocks) != count:
        return False
    if kind == OTHER:
        return count == 1 and isinstance(blocks[0], OtherBlock)
    if not isinstance(record.get("item"), dict):
        return False
    if kind == MESSAGE:
        return all(isinstance(block, TextBlock | OtherBlock) for block in blocks)
    block_type = _BLOCK_OF.get(str(kind))
    return block_type is not None and count == 1 and isinstance(blocks[0], block_type)


def _write_item(record: Json, blocks: Sequence[ContentBlock], role: Role) -> Json:
    kind = record["kind"]
    if kind == OTHER:
        assert isinstance(blocks[0], OtherBlock)
        return dict(blocks[0].data)
    item = dict(record["item"])  # its keys in their order; the values set here keep their place
    if kind == MESSAGE:
        if ROLES.get(item.get("role", "")) is not role:
            item["role"] = role.value
        item["content"] = _message_content(blocks, role, record)
        return item
    [block] = blocks
    if isinstance(block, ToolCall):
        return _write_call(item, block, kind)
    if isinstance(block, ToolResult):
        item["call_id"] = block.call_id
        item["output"] = _written_output(block)
        return item
    assert isinstance(block, ThinkingBlock)
    return _write_reasoning(item, block)


def _message_content(
    blocks: Sequence[ContentBlock], role: Role, record: Json | None = None
) -> str | list[Json]:
    """A string when it was one and still can be; otherwise the parts, each text part with the
    keys it was read with."""
    form = record.get("form") if record else None
    texts_only = all(isinstance(block, TextBlock) for block in blocks)
    if (
        (form == "string" or (form is None and len(blocks) == 1))
        and texts_only
        and len(blocks) <= 1
    ):
        return "".join(block.text for block in blocks if isinstance(block, TextBlock))
    parts = record.get("parts") if record else None
    if not isinstance(parts, list) or len(parts) != len(blocks):
        parts = [None for _ in blocks]
    text_type = "output_text" if role is Role.ASSISTANT else "input_text"
    written: list[Json] = []
    for block, part in zip(blocks, parts, strict=True):
        if isinstance(block, OtherBlock):
            written.append(dict(block.data))
            continue
        assert isinstance(block, TextBlock)
        if isinstance(part, dict) and part.get("type") in TEXT_PARTS:
            written.append({**part, "text": block.text})
        else:
            written.append({"type": text_type, "text": block.text})
    return written


def _write_call(item: Json, call: ToolCall, kind: str) -> Json:
    item["call_id"] = call.id
    item["name"] = call.name
    if kind == "custom_tool_call":
        text = call.input.get("input")
        plain = isinstance(text, str) and len(call.input) == 1
        item["input"] = text if plain else canonical_arguments(call.input)
        return item
    raw = item.get("arguments")
    if not (isinstance(raw, str) and (parsed_arguments(raw) or {}) == call.input):
        item["arguments"] = canonical_arguments(call.input)
    return item


def _written_output(result: ToolResult) -> str | list[Json]:
    """The output as read while its text still matches; after the text was changed (compacted,
    redacted), the new text followed by the parts that are not text."""
    if result.parts is None:
        return result.content
    parts = [dict(part) for part in result.parts]
    if part_text(parts) == result.content:
        return parts
    others = [part for part in parts if part.get("type") not in _PLAIN_TEXT]
    return ([{"type": "input_text", "text": result.content}] if result.content else []) + others


def _write_reasoning(item: Json, block: ThinkingBlock) -> Json:
    if block.signature is not None:
        item["encrypted_content"] = block.signature
    said = [
        part["text"]
        for key in ("summary", "content")
        for part in _listed(item.get(key))
        if isinstance(part, dict) and isinstance(part.get("text"), str)
    ]
    if "\n".join(said) != block.thinking:  # changed (redacted): the new text is the summary
        item.pop("content", None)
        item["summary"] = (
            [{"type": "summary_text", "text": block.thinking}] if block.thinking else []
        )
    return item


def _listed(value: object) -> list[Any]:
    return value if isinstance(value, list) else []


def _plain_items(message: Message) -> list[Json]:
    """The message as items when it has no record that fits: text and other parts in one
    message item, each call and result an item of its own, thinking dropped."""
    written: list[Json] = []
    run: list[ContentBlock] = []

    def flush() -> None:
        if run:
            written.append(_plain_message(run, message.role))
            run.clear()

    for block in message.content:
        if isinstance(block, TextBlock | OtherBlock):
            run.append(block)
            continue
        flush()
        if isinstance(block, ToolCall):
            written.append(
                {
                    "type": "function_call",
                    "call_id": block.id,
                    "name": block.name,
                    "arguments": canonical_arguments(block.input),
                }
            )
        elif isinstance(block, ToolResult):
            output = _written_output(block)
            written.append(
                {"type": "function_call_output", "call_id": block.call_id, "output": output}
            )
    flush()
    if not message.content:
        written.append(_plain_message([], message.role))
    return written


def _plain_message(blocks: Sequence[ContentBlock], role: Role) -> Json:
    return {"type": MESSAGE, "role": role.value, "content": _message_content(blocks, role)}
