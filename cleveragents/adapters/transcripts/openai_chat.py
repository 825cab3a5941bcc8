"""OpenAI Chat Completions JSON to and from the neutral `Transcript`.

The document is a request body (``{"model", "messages", ...}``) or a bare list of messages. The
quirks this module absorbs:

* ``system`` and ``developer`` messages are both system messages; ``developer`` is remembered in
  ``extra["openai"]["role"]``.
* Tool results are messages of their own (role ``tool``). The neutral model, like Anthropic,
  answers calls inside the next user message, so a run of tool messages becomes ONE user message
  holding their `ToolResult` blocks in order; writing splits it again.
* Tool call ``arguments`` are a JSON *string*. They are parsed into ``ToolCall.input``; the raw
  string is kept (``extra["openai"]["tool_calls"][i]``, with the call's id) when it is not the
  compact serialisation of that input, or not a JSON object at all, so it is written back
  unchanged.
* ``content`` may be a string, null, absent or a list of parts; which one is always recorded in
  ``extra["content_form"]``. Non-text parts (``image_url``, ``input_audio``, ``refusal``, ...)
  are kept whole as `OtherBlock`.
* The format has no reasoning blocks and no error flag on tool results: thinking is dropped and
  ``is_error`` is lost when writing, and a read tool result is never an error.

Other message keys (``name``, ``refusal``, ``audio``, ...) ride in ``extra["openai"]["keys"]``;
other request keys in ``Transcript.extra["openai_request"]``.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from cleveragents.adapters.transcripts.anthropic_messages import (
    BLOCK_EXTRAS,
    CONTENT_FORM,
    Json,
    block_extras,
    joined_text,
    kind_of,
    result_parts,
    written_result_content,
)
from cleveragents.adapters.transcripts.strict_json import parse_json_or_none
from cleveragents.domain.errors import InvalidInputError
from cleveragents.domain.transcript import (
    ContentBlock,
    Message,
    OtherBlock,
    Role,
    TextBlock,
    ToolCall,
    ToolResult,
    Transcript,
)

REQUEST = "openai_request"
"""Transcript.extra key: the request's keys other than messages."""
OPENAI = "openai"
"""Message.extra key: {"role", "keys", "tool_calls", "tool_messages"}, each only when needed."""

_ROLES = {
    "system": Role.SYSTEM,
    "developer": Role.SYSTEM,
    "user": Role.USER,
    "assistant": Role.ASSISTANT,
}


def canonical_arguments(arguments: Json) -> str:
    """The compact JSON the API itself produces for tool call arguments."""
    return json.dumps(arguments, ensure_ascii=False, separators=(",", ":"))


def _parsed_arguments(raw: str) -> Json | None:
    value = parse_json_or_none(raw)  # what no provider would accept is kept as raw text
    return value if isinstance(value, dict) else None


def read_openai(document: object) -> Transcript:
    """A request body or a bare list of messages as a `Transcript`."""
    if isinstance(document, list):
        return Transcript(messages=_read_messages(document))
    if not isinstance(document, dict) or not isinstance(document.get("messages"), list):
        raise InvalidInputError("transcript: expected a list of messages or an object with one")
    request = {key: value for key, value in document.items() if key != "messages"}
    return Transcript(messages=_read_messages(document["messages"]), extra={REQUEST: request})


def _read_messages(raw_messages: list[Any]) -> tuple[Message, ...]:
    messages: list[Message] = []
    tool_run: list[tuple[ToolResult, Json]] = []
    for index, raw in enumerate(raw_messages):
        where = f"messages[{index}]"
        if not isinstance(raw, dict):
            raise InvalidInputError(f"{where}: a message must be an object, not {kind_of(raw)}")
        if raw.get("role") == "tool":
            tool_run.append(_read_tool_message(raw, where))
            continue
        if tool_run:
            messages.append(_tool_results_message(tool_run))
            tool_run = []
        messages.append(_read_message(raw, where))
    if tool_run:
        messages.append(_tool_results_message(tool_run))
    return tuple(messages)


def _read_tool_message(raw: Json, where: str) -> tuple[ToolResult, Json]:
    call_id = raw.get("tool_call_id")
    if not isinstance(call_id, str) or not call_id:
        raise InvalidInputError(f"{where}: tool message without a 'tool_call_id'")
    content = raw.get("content")
    keys = {key: value for key, value in raw.items() if key not in ("role", "tool_call_id")}
    if isinstance(content, str):
        result = ToolResult(call_id=call_id, content=content)
    elif isinstance(content, list):
        parts = result_parts(f"{where}.content", content)
        result = ToolResult(call_id=call_id, content=joined_text(parts), parts=parts)
    else:
        raise InvalidInputError(f"{where}: tool message content must be a string or a list")
    del keys["content"]
    return result, keys


def _tool_results_message(run: list[tuple[ToolResult, Json]]) -> Message:
    keys = [message_keys for _, message_keys in run]
    extra = {OPENAI: {"tool_messages": keys}} if any(keys) else {}
    return Message(role=Role.USER, content=tuple(result for result, _ in run), extra=extra)


def _read_message(raw: Json, where: str) -> Message:
    role = raw.get("role")
    if not isinstance(role, str) or role not in _ROLES:
        raise InvalidInputError(f"{where}: unknown role {role!r}")
    blocks, extra = _read_content(raw, where)
    openai: Json = {"role": role} if role == "developer" else {}
    used = {"role", "content"}
    calls = raw.get("tool_calls")
    if role == "assistant" and calls:  # an empty list stays a plain leftover key
        if not isinstance(calls, list):
            raise InvalidInputError(f"{where}: 'tool_calls' must be a list")
        details: list[Json] = []
        for index, call in enumerate(calls):
            block, detail = _read_tool_call(call, f"{where}.tool_calls[{index}]")
            blocks.append(block)
            details.append({"id": block.id, **detail} if detail else {})
        used.add("tool_calls")
        if BLOCK_EXTRAS in extra:  # keep one entry per block: the calls have no leftovers
            extra[BLOCK_EXTRAS] = [*extra[BLOCK_EXTRAS], *({} for _ in details)]
        if any(details):
            openai["tool_calls"] = details
    keys = {key: value for key, value in raw.items() if key not in used}
    if keys:
        openai["keys"] = keys
    if openai:
        extra[OPENAI] = openai
    return Message(role=_ROLES[role], content=tuple(blocks), extra=extra)


def _read_content(raw: Json, where: str) -> tuple[list[ContentBlock], Json]:
    if "content" not in raw:
        return [], {CONTENT_FORM: "absent"}
    content = raw["content"]
    if content is None:
        return [], {CONTENT_FORM: "null"}
    if isinstance(content, str):
        return ([TextBlock(text=content)] if content else []), {CONTENT_FORM: "string"}
    if not isinstance(content, list):
        raise InvalidInputError(f"{where}: content must be a string, null or a list of parts")
    blocks: list[ContentBlock] = []
    extras: list[Json] = []
    for index, part in enumerate(content):
        if not isinstance(part, dict) or not isinstance(part.get("type"), str):
            raise InvalidInputError(
                f"{where}.content[{index}]: a part must be an object with a string 'type'"
            )
        if part["type"] == "text" and isinstance(part.get("text"), str):
            blocks.append(TextBlock(text=part["text"]))
            extras.append(
                {key: value for key, value in part.items() if key not in ("type", "text")}
            )
        else:
            blocks.append(OtherBlock(data=part))
            extras.append({})
    extra: Json = {CONTENT_FORM: "list"}
    if any(extras):
        extra[BLOCK_EXTRAS] = extras
    return blocks, extra


def _read_tool_call(raw: object, where: str) -> tuple[ToolCall, Json]:
    """A function call, or a custom tool call whose free-text input becomes {"input": text}."""
    if not isinstance(raw, dict):
        raise InvalidInputError(f"{where}: a tool call must be an object")
    call_id, kind = raw.get("id"), raw.get("type", "function")
    if not isinstance(call_id, str) or not call_id:
        raise InvalidInputError(f"{where}: tool call without an id")
    if kind not in ("function", "custom"):
        raise InvalidInputError(f"{where}: unsupported tool call type {kind!r}")
    body = raw.get(kind)
    argument_key = "arguments" if kind == "function" else "input"
    if not isinstance(body, dict) or not isinstance(body.get("name"), str):
        raise InvalidInputError(f"{where}: tool call without a '{kind}' object naming the tool")
    arguments = body.get(argument_key)
    if not isinstance(arguments, str):
        raise InvalidInputError(f"{where}: tool call '{argument_key}' must be a JSON string")
    if kind == "custom":
        return ToolCall(id=call_id, name=body["name"], input={"input": arguments}), {"type": kind}
    parsed = _parsed_arguments(arguments)
    detail: Json = {}
    if parsed is None or canonical_arguments(parsed) != arguments:
        detail["arguments"] = arguments
    return ToolCall(id=call_id, name=body["name"], input=parsed or {}), detail


def write_openai(transcript: Transcript) -> Json | list[Json]:
    """The transcript as a request body, or as a bare list when it was read from one."""
    written: list[Json] = []
    for index, message in enumerate(transcript.messages):
        written.extend(_write_message(message, index))
    request = transcript.extra.get(REQUEST)
    if isinstance(request, dict):
        return {**request, "messages": written}
    return written


_ABSENT = object()
"""`_write_content`'s answer when the message is written without a content key."""


def _write_message(message: Message, index: int) -> list[Json]:
    openai = message.extra.get(OPENAI)
    openai = openai if isinstance(openai, dict) else {}
    for block in message.content:
        if isinstance(block, ToolCall) and message.role is not Role.ASSISTANT:
            raise InvalidInputError(f"message {index}: a tool call outside an assistant message")
        if isinstance(block, ToolResult) and message.role is not Role.USER:
            raise InvalidInputError(f"message {index}: a tool result outside a user message")
    written = _write_tool_messages(message, openai)
    if written and len(message.tool_results) == len(message.content):
        return written
    role = message.role.value
    if message.role is Role.SYSTEM and openai.get("role") == "developer":
        role = "developer"
    body: Json = {"role": role}
    content = _write_content(message)
    if content is not _ABSENT:
        body["content"] = content
    if message.tool_calls:
        details = openai.get("tool_calls")
        calls = message.tool_calls
        if not isinstance(details, list) or len(details) != len(calls):
            details = [{} for _ in calls]
        body["tool_calls"] = [
            _write_tool_call(call, detail) for call, detail in zip(calls, details, strict=True)
        ]
    keys = openai.get("keys")
    for key, value in (keys if isinstance(keys, dict) else {}).items():
        body.setdefault(key, value)
    return [*written, body]


def _write_tool_messages(message: Message, openai: Json) -> list[Json]:
    results = message.tool_results
    keys = openai.get("tool_messages")
    if not isinstance(keys, list) or len(keys) != len(results):
        keys = [{} for _ in results]
    written: list[Json] = []
    for result, result_keys in zip(results, keys, strict=True):
        tool: Json = {"role": "tool", "tool_call_id": result.call_id}
        tool["content"] = written_result_content(result)
        for key, value in (result_keys if isinstance(result_keys, dict) else {}).items():
            tool.setdefault(key, value)
        written.append(tool)
    return written


def _write_content(message: Message) -> object:
    """A string when the text allows it, a list of parts when it was one or holds non-text parts,
    and null or nothing as recorded when there is no text. Thinking has no spelling here and is
    dropped; tool calls and results are written elsewhere."""
    pairs = [
        (block, extra)
        for block, extra in zip(message.content, block_extras(message), strict=True)
        if isinstance(block, TextBlock | OtherBlock)
    ]
    form = message.extra.get(CONTENT_FORM)
    if form == "list" or any(isinstance(block, OtherBlock) for block, _ in pairs):
        return [_write_part(block, extra) for block, extra in pairs]
    if pairs:
        return "\n".join(block.text for block, _ in pairs if isinstance(block, TextBlock))
    if form == "absent":
        return _ABSENT
    if form == "null" or (form is None and message.tool_calls):
        return None
    return ""


def _write_part(block: TextBlock | OtherBlock, extra: Mapping[str, Any]) -> Json:
    if isinstance(block, OtherBlock):
        return dict(block.data)
    part: Json = {"type": "text", "text": block.text}
    for key, value in extra.items():
        part.setdefault(key, value)
    return part


def _write_tool_call(call: ToolCall, detail: object) -> Json:
    # A detail applies only to the call it was read with (a service may have replaced calls).
    if not isinstance(detail, dict) or detail.get("id") != call.id:
        detail = {}
    if detail.get("type") == "custom":
        text = call.input.get("input")
        custom = {"name": call.name, "input": text if isinstance(text, str) else ""}
        return {"id": call.id, "type": "custom", "custom": custom}
    raw = detail.get("arguments")
    if isinstance(raw, str) and (_parsed_arguments(raw) or {}) == call.input:
        arguments = raw
    else:
        arguments = canonical_arguments(call.input)
    return {
        "id": call.id,
        "type": "function",
        "function": {"name": call.name, "arguments": arguments},
    }
