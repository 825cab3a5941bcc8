"""OpenAI Responses API input to the neutral `Transcript` (written back by
`openai_responses_writer`).

The document is a request body (``{"model", "instructions", "input": [...], ...}``) or a bare
list of input items. Where Chat Completions has messages, the Responses API has *items*: a
``message`` (role and content), a ``function_call`` (``call_id``, ``name``, ``arguments``), its
``function_call_output`` (``call_id``, ``output``), ``reasoning`` (a summary, possibly
``encrypted_content``), and the built-in tools' items. The quirks this module absorbs:

* Items become messages. A ``user``, ``system`` or ``developer`` message item is a message of
  its own (``developer`` a system message). The items the model produced between two of them
  (reasoning, assistant messages, function calls, built-in tool calls) become ONE assistant
  message, and a run of outputs (``function_call_output``, ``computer_call_output``, ...) ONE
  user message of `ToolResult`s: a call and its output, paired by ``call_id``, are then in
  adjacent messages, which compaction never separates, and a reasoning item stays in the
  assistant message of the calls it led to.
* Each message remembers the items it was read from (``extra["openai_responses"]["items"]``:
  per item its kind, how many blocks it gave, and its own keys in their order, the values the
  neutral blocks hold left as null) so that the same items, keys in the same order, are
  written back. ``instructions`` becomes a leading system message marked as such, and an
  ``input`` given as text a user message marked as such.
* ``arguments`` are a JSON *string*, parsed into ``ToolCall.input``; the raw string stays in
  the item's keys and is written back while it still says the same. A ``custom_tool_call``'s
  free-text ``input`` becomes ``{"input": text}``.
* A reasoning item is one `ThinkingBlock`: its summary and content texts joined, its
  ``encrypted_content`` as the signature (opaque: never redacted, written back as it came).
* ``input_text`` and ``output_text`` parts are text; every other part (``input_image``,
  ``input_file``, ``refusal``) and every item this module does not model (``web_search_call``,
  ``mcp_call``, ``item_reference``, ...) is kept whole as an `OtherBlock`.
* The format has no error flag on outputs: a read output is never an error, and ``is_error``
  is lost when writing.
"""

from __future__ import annotations

import json
from typing import Any

from cleveragents.adapters.transcripts.anthropic_messages import Json, kind_of
from cleveragents.adapters.transcripts.strict_json import parse_json_or_none
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

REQUEST = "openai_responses_request"
"""Transcript.extra key: the request's keys, ``input`` (and ``instructions`` when it was text)
left as null where the transcript's messages go."""
RESPONSES = "openai_responses"
"""Message.extra key: {"items": [...]} (the items the message was read from), and
{"instructions": true} or {"input_text": true} on the message read from those fields."""

ROLES = {
    "system": Role.SYSTEM,
    "developer": Role.SYSTEM,
    "user": Role.USER,
    "assistant": Role.ASSISTANT,
}
TEXT_PARTS = ("input_text", "output_text")
CALLS = ("function_call", "custom_tool_call")
OUTPUTS = ("function_call_output", "custom_tool_call_output")
REASONING = "reasoning"
MESSAGE = "message"
OTHER = "other"
"""The kind of an item kept whole as an `OtherBlock`."""

_OUTPUT_SIDE = ("mcp_approval_response",)
"""Items the caller supplies, besides the ``..._output`` ones: they answer the model."""


def canonical_arguments(arguments: Json) -> str:
    """The compact JSON the API itself produces for function call arguments."""
    return json.dumps(arguments, ensure_ascii=False, separators=(",", ":"))


def parsed_arguments(raw: str) -> Json | None:
    """The arguments object a string holds, or None when it holds no JSON object."""
    value = parse_json_or_none(raw)
    return value if isinstance(value, dict) else None


def part_text(parts: list[Any] | tuple[Any, ...]) -> str:
    """The ``input_text`` and ``output_text`` parts' texts, joined with newlines."""
    return "\n".join(
        part["text"]
        for part in parts
        if isinstance(part, dict)
        and part.get("type") in TEXT_PARTS
        and isinstance(part.get("text"), str)
    )


def read_responses(document: object) -> Transcript:
    """A request body or a bare list of input items as a `Transcript`."""
    if isinstance(document, list):
        return Transcript(messages=_read_items(document))
    if not isinstance(document, dict) or not isinstance(document.get("input"), list | str):
        raise InvalidInputError(
            "transcript: expected a list of input items or an object with an 'input' list"
        )
    request = dict(document)
    messages: list[Message] = []
    instructions = document.get("instructions")
    if isinstance(instructions, str):
        request["instructions"] = None
        blocks = (TextBlock(text=instructions),) if instructions else ()
        messages.append(
            Message(role=Role.SYSTEM, content=blocks, extra={RESPONSES: {"instructions": True}})
        )
    given = document["input"]
    request["input"] = None
    if isinstance(given, str):
        blocks = (TextBlock(text=given),) if given else ()
        messages.append(
            Message(role=Role.USER, content=blocks, extra={RESPONSES: {"input_text": True}})
        )
    else:
        messages.extend(_read_items(given))
    return Transcript(messages=tuple(messages), extra={REQUEST: request})


class _Run:
    """The items of one message being read: what they gave, and the record of each."""

    def __init__(self, side: str) -> None:
        self.side = side
        self.blocks: list[ContentBlock] = []
        self.items: list[Json] = []

    def add(self, record: Json, blocks: list[ContentBlock]) -> None:
        self.items.append({**record, "blocks": len(blocks)})
        self.blocks.extend(blocks)

    def message(self, role: Role) -> Message:
        return Message(
            role=role, content=tuple(self.blocks), extra={RESPONSES: {"items": self.items}}
        )


_SIDES = {"assistant": Role.ASSISTANT, "outputs": Role.USER}


def _read_items(items: list[Any]) -> tuple[Message, ...]:
    messages: list[Message] = []
    run: _Run | None = None
    for index, raw in enumerate(items):
        where = f"input[{index}]"
        side, record, blocks = _read_item(raw, where)
        if run is not None and run.side != side:
            messages.append(run.message(_SIDES[run.side]))
            run = None
        if side in _SIDES:
            run = run or _Run(side)
            run.add(record, blocks)
            continue
        single = _Run(side)
        single.add(record, blocks)
        messages.append(single.message(ROLES[side]))
    if run is not None:
        messages.append(run.message(_SIDES[run.side]))
    return tuple(messages)


def _read_item(raw: object, where: str) -> tuple[str, Json, list[ContentBlock]]:
    """Which message the item belongs in (a role of its own, or the run of the assistant's
    items or of the outputs), its record, and its blocks."""
    if not isinstance(raw, dict):
        raise InvalidInputError(f"{where}: an item must be an object, not {kind_of(raw)}")
    kind = raw.get("type", MESSAGE if "role" in raw else None)
    if not isinstance(kind, str):
        raise InvalidInputError(f"{where}: an item must have a string 'type' or a 'role'")
    if kind == MESSAGE:
        return _read_message(raw, where)
    if kind in CALLS:
        return "assistant", *_read_call(raw, kind, where)
    if kind in OUTPUTS:
        return "outputs", *_read_output(raw, kind, where)
    if kind == REASONING:
        return "assistant", *_read_reasoning(raw, where)
    side = "outputs" if kind.endswith("_output") or kind in _OUTPUT_SIDE else "assistant"
    return side, {"kind": OTHER}, [OtherBlock(data=raw)]


def _read_message(raw: Json, where: str) -> tuple[str, Json, list[ContentBlock]]:
    role = raw.get("role")
    if not isinstance(role, str) or role not in ROLES:
        raise InvalidInputError(f"{where}: unknown role {role!r}")
    if "content" not in raw:
        raise InvalidInputError(f"{where}: message item without content")
    content = raw["content"]
    item = {**raw, "content": None}
    if isinstance(content, str):
        blocks: list[ContentBlock] = [TextBlock(text=content)] if content else []
        record: Json = {"kind": MESSAGE, "item": item, "form": "string"}
    elif isinstance(content, list):
        blocks, parts = _read_parts(content, f"{where}.content")
        record = {"kind": MESSAGE, "item": item, "form": "list", "parts": parts}
    else:
        raise InvalidInputError(
            f"{where}: content must be a string or a list of parts, not {kind_of(content)}"
        )
    side = "assistant" if role == "assistant" else "system" if ROLES[role] is Role.SYSTEM else role
    return side, record, blocks


def _read_parts(content: list[Any], where: str) -> tuple[list[ContentBlock], list[Json | None]]:
    """Text parts as text (their other keys kept, the text left as null), the rest whole."""
    blocks: list[ContentBlock] = []
    parts: list[Json | None] = []
    for index, part in enumerate(content):
        if not isinstance(part, dict) or not isinstance(part.get("type"), str):
            raise InvalidInputError(
                f"{where}[{index}]: a part must be an object with a string 'type'"
            )
        if part["type"] in TEXT_PARTS and isinstance(part.get("text"), str):
            blocks.append(TextBlock(text=part["text"]))
            parts.append({**part, "text": None})
        else:
            blocks.append(OtherBlock(data=part))
            parts.append(None)
    return blocks, parts


def _string(raw: Json, key: str, where: str, *, required_text: bool = False) -> str:
    value = raw.get(key)
    if not isinstance(value, str) or (required_text and not value):
        wanted = "a non-empty string" if required_text else "a string"
        raise InvalidInputError(f"{where}: {raw['type']} item without {wanted} '{key}'")
    return value


def _read_call(raw: Json, kind: str, where: str) -> tuple[Json, list[ContentBlock]]:
    call_id = _string(raw, "call_id", where, required_text=True)
    name = _string(raw, "name", where)
    item = {**raw, "call_id": None, "name": None}
    if kind == "custom_tool_call":
        text = _string(raw, "input", where)
        item["input"] = None
        call = ToolCall(id=call_id, name=name, input={"input": text})
    else:
        # The raw string stays in the item: written back while it still says the same.
        arguments = _string(raw, "arguments", where)
        call = ToolCall(id=call_id, name=name, input=parsed_arguments(arguments) or {})
    return {"kind": kind, "item": item}, [call]


def _read_output(raw: Json, kind: str, where: str) -> tuple[Json, list[ContentBlock]]:
    call_id = _string(raw, "call_id", where, required_text=True)
    output = raw.get("output")
    item = {**raw, "call_id": None, "output": None}
    if isinstance(output, str):
        result = ToolResult(call_id=call_id, content=output)
    elif isinstance(output, list):
        for index, part in enumerate(output):
            if not isinstance(part, dict):
                raise InvalidInputError(f"{where}.output[{index}]: a part must be an object")
        result = ToolResult(call_id=call_id, content=part_text(output), parts=tuple(output))
    else:
        raise InvalidInputError(f"{where}: {kind} 'output' must be a string or a list of parts")
    return {"kind": kind, "item": item}, [result]


def _read_reasoning(raw: Json, where: str) -> tuple[Json, list[ContentBlock]]:
    texts: list[str] = []
    for key in ("summary", "content"):
        parts = raw.get(key)
        if parts is None:
            continue
        if not isinstance(parts, list) or not all(isinstance(part, dict) for part in parts):
            raise InvalidInputError(f"{where}: reasoning '{key}' must be a list of objects")
        texts.extend(part["text"] for part in parts if isinstance(part.get("text"), str))
    encrypted = raw.get("encrypted_content")
    signature = encrypted if isinstance(encrypted, str) else None
    item = {**raw, "encrypted_content": None} if signature is not None else dict(raw)
    block = ThinkingBlock(thinking="\n".join(texts), signature=signature)
    return {"kind": REASONING, "item": item}, [block]
