"""Claude Code session logs (JSONL) to and from the neutral `Transcript`.

A session file holds one JSON record per line. Only ``user`` and ``assistant`` records with a
``message`` are conversation, and so are prompts delivered from the input queue (see
`_PromptQueue`); every other record (progress, system, file-history-snapshot, summary, ...) is
interface state and is skipped. The quirks:

* Claude Code writes ONE RECORD PER CONTENT BLOCK of an assistant API message, each repeating
  ``message.id`` and the usage so far. They are merged back into one `Message` whose usage is
  the last record's. Tools run while the message still streams, so the tool_result records of
  its first calls can sit between its block records; user records holding only tool results do
  not end the merge and stay after the merged message, which is the order the API saw.
* ``parentUuid`` chains the records, skipped ones included, so it is not kept: writing chains
  each record to the one written before it. ``sourceToolAssistantUUID`` names the record of
  one tool_use block; it is pointed at the merged message's record (the first one's uuid).
* The other record fields (uuid, sessionId, timestamp, isMeta, isSidechain, isCompactSummary,
  toolUseResult, ...) ride in ``extra["claude_code"]["record"]``; an assistant message's
  model, id, stop_reason, ... in ``extra["claude_code"]["message"]``.
* When Claude Code compacts, it writes a ``compact_boundary`` system record (a new root of the
  chain) and then its summary as a user record. The messages before the boundary are read all
  the same; the boundary rides in ``extra["claude_code"]["boundary"]`` of the message after it,
  so writing puts it back.
* User records the harness injected (``isMeta``, a skill's instructions) are read as
  ``Message(meta=True)``.

Blocks are Anthropic's and are mapped by `anthropic_messages`. Writing is `claude_code_writer`;
`resume_problems` checks that a written file is one Claude Code can resume.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass

from cleveragents.adapters.transcripts.anthropic_messages import (
    BLOCK_EXTRAS,
    CONTENT_FORM,
    Json,
    kind_of,
    read_content,
)
from cleveragents.adapters.transcripts.claude_code_fields import (
    API_MESSAGE,
    BOUNDARY,
    CHAIN,
    CLAUDE_CODE,
    COMPACT_BOUNDARY,
    DERIVED,
    IS_META,
    QUEUE_OPERATION,
    QUEUED,
    RECORD,
    SKILL_PREFIX,
    SOURCE,
    TOKENS_BEFORE,
    split_lines,
)
from cleveragents.adapters.transcripts.claude_code_resume import resume_problems
from cleveragents.adapters.transcripts.claude_code_writer import write_claude_code
from cleveragents.adapters.transcripts.strict_json import parse_json
from cleveragents.domain.errors import InvalidInputError
from cleveragents.domain.transcript import (
    ContentBlock,
    Message,
    Role,
    TextBlock,
    ToolResult,
    Transcript,
)

__all__ = [
    "CLAUDE_CODE",
    "QUEUED",
    "QUEUE_OPERATION",
    "TOKENS_BEFORE",
    "looks_like_claude_code",
    "read_claude_code",
    "resume_problems",
    "write_claude_code",
]

_ROLES = {"user": Role.USER, "assistant": Role.ASSISTANT}


def looks_like_claude_code(text: str) -> bool:
    """The first line is a record on its own (an object with a string ``type``) and some record
    belongs to a session (has a message, a sessionId or a uuid). Broken lines further down do
    not change the answer; reading reports them by line number."""
    lines = [line for line in split_lines(text) if line.strip()]
    if not lines:
        return False
    first = _json_or_none(lines[0])
    if not isinstance(first, dict) or not isinstance(first.get("type"), str):
        return False
    for line in lines:
        record = _json_or_none(line)
        if isinstance(record, dict) and {"message", "sessionId", "uuid"} & record.keys():
            return True
    return False


def _json_or_none(line: str) -> object:
    try:
        return json.loads(line)
    except (ValueError, RecursionError):
        return None


def _records(text: str) -> Iterator[tuple[int, Json]]:
    for number, line in enumerate(split_lines(text), start=1):
        if not line.strip():
            continue
        record = parse_json(line, f"transcript line {number}", one_line=True)
        if not isinstance(record, dict):
            raise InvalidInputError(f"transcript line {number}: a record must be a JSON object")
        if not isinstance(record.get("type"), str):
            raise InvalidInputError(
                f"transcript line {number}: not a Claude Code record (no string 'type')"
            )
        yield number, record


@dataclass(slots=True)
class _Draft:
    """A message being assembled from one or more records."""

    role: Role
    blocks: list[ContentBlock]
    extras: list[Json]
    record: Json
    message: Json
    usage: Json | None
    content_form: str | None = None
    boundary: Json | None = None
    meta: bool = False

    @property
    def uuid(self) -> str | None:
        uuid = self.record.get("uuid")
        return uuid if isinstance(uuid, str) else None

    @property
    def tool_results_only(self) -> bool:
        return (
            self.role is Role.USER
            and bool(self.blocks)
            and all(isinstance(block, ToolResult) for block in self.blocks)
        )


def read_claude_code(text: str) -> Transcript:
    """The conversation of a session log; `InvalidInputError` names the line that is wrong."""
    drafts: list[_Draft] = []
    merged_uuids: dict[str, str] = {}  # uuid of a merged block record -> the message's uuid
    queue = _PromptQueue()
    boundary: Json | None = None  # a compact_boundary not yet followed by a message
    for number, record in _records(text):
        if record.get("type") == QUEUE_OPERATION:
            queue.apply(record)
            continue
        if record.get("type") == "system" and record.get("subtype") == COMPACT_BOUNDARY:
            boundary = {key: value for key, value in record.items() if key != CHAIN}
            continue
        if record.get("type") not in ("user", "assistant") or "message" not in record:
            continue
        draft = _draft(record, f"transcript line {number}")
        target = _merge_target(drafts, draft)
        if target is None:
            arriving = [*queue.delivered(), draft] if draft.role is Role.ASSISTANT else [draft]
            arriving[0].boundary, boundary = boundary, None
            drafts.extend(arriving)
            continue
        target.blocks.extend(draft.blocks)
        target.extras.extend(draft.extras)
        target.message, target.usage = draft.message, draft.usage
        if target.uuid is not None and draft.uuid is not None:
            merged_uuids[draft.uuid] = target.uuid
    drafts.extend(queue.delivered())
    return Transcript(messages=tuple(_message(draft, merged_uuids) for draft in drafts))


class _PromptQueue:
    """Prompts the user typed while the agent was busy. Claude Code logs them only as
    ``queue-operation`` records: ``enqueue`` (with the text), then ``remove`` when the prompt is
    handed to the model with the next request. A delivered prompt becomes a user message just
    before the next assistant message (by then every tool call is answered), so the latest
    request is the one the model really worked on. Queued task notifications (``<task-
    notification>`` and other tagged system text) and prompts never delivered are left out."""

    def __init__(self) -> None:
        self._waiting: list[Json] = []
        self._ready: list[Json] = []

    def apply(self, record: Json) -> None:
        operation, content = record.get("operation"), record.get("content")
        # Task notifications are consumed without a `remove` of their own: only prompts queue.
        if operation == "enqueue" and isinstance(content, str) and _is_prompt(content):
            self._waiting.append(record)
        elif operation == "remove" and self._waiting:
            self._ready.append(self._waiting.pop(0))

    def delivered(self) -> list[_Draft]:
        ready, self._ready = self._ready, []
        return [_queued_prompt(record) for record in ready]


def _is_prompt(content: str) -> bool:
    return bool(content.strip()) and not content.lstrip().startswith("<")


def _queued_prompt(record: Json) -> _Draft:
    fields = {key: value for key, value in record.items() if key in ("timestamp", "sessionId")}
    return _Draft(
        role=Role.USER,
        blocks=[TextBlock(text=record["content"])],
        extras=[{}],
        record={**fields, QUEUED: True},
        message={},
        usage=None,
        content_form="string",
    )


def _draft(record: Json, where: str) -> _Draft:
    role = _ROLES[record["type"]]
    message = record["message"]
    if not isinstance(message, dict):
        raise InvalidInputError(f"{where}: 'message' must be an object, not {kind_of(message)}")
    if message.get("role", role.value) != role.value:
        raise InvalidInputError(
            f"{where}: a {role.value} record whose message role is {message.get('role')!r}"
        )
    if "content" not in message:
        raise InvalidInputError(f"{where}: message without content")
    content = read_content(message["content"], f"{where}: message.content")
    usage = message.get("usage")
    usage = usage if isinstance(usage, dict) else None
    used = {"role", "content"} | ({"usage"} if usage is not None else set())
    return _Draft(
        role=role,
        blocks=list(content.blocks),
        extras=content.extra.get(BLOCK_EXTRAS, [{} for _ in content.blocks]),
        record=_stored_fields(record),
        message={key: value for key, value in message.items() if key not in used},
        usage=usage,
        content_form=content.extra.get(CONTENT_FORM),
        meta=_injected(role, content.blocks, record),
    )


def _stored_fields(record: Json) -> Json:
    """The record's fields a message keeps: not its type, message or chain link, nor what the
    writer supplied (`DERIVED`)."""
    derived = record.get(DERIVED)
    dropped = {"type", "message", CHAIN, DERIVED}
    if isinstance(derived, list):
        dropped.update(name for name in derived if isinstance(name, str))
    return {key: value for key, value in record.items() if key not in dropped}


def _merge_target(drafts: list[_Draft], draft: _Draft) -> _Draft | None:
    """The earlier assistant message this block record belongs to, if any: the latest one,
    separated from it by nothing but tool-result-only user records, with the same message id."""
    message_id = draft.message.get("id")
    if draft.role is not Role.ASSISTANT or not isinstance(message_id, str):
        return None
    for earlier in reversed(drafts):
        if earlier.tool_results_only:
            continue
        if earlier.role is Role.ASSISTANT and earlier.message.get("id") == message_id:
            return earlier
        return None
    return None


def _message(draft: _Draft, merged_uuids: dict[str, str]) -> Message:
    record = dict(draft.record)
    source = record.get(SOURCE)
    if isinstance(source, str) and source in merged_uuids:
        record[SOURCE] = merged_uuids[source]
    claude_code: Json = {}
    if record:
        claude_code[RECORD] = record
    if draft.message:
        claude_code[API_MESSAGE] = draft.message
    if draft.boundary is not None:
        claude_code[BOUNDARY] = draft.boundary
    extra: Json = {CLAUDE_CODE: claude_code} if claude_code else {}
    if draft.content_form is not None:
        extra[CONTENT_FORM] = draft.content_form
    if any(draft.extras):
        extra[BLOCK_EXTRAS] = draft.extras
    return Message(
        role=draft.role,
        content=tuple(draft.blocks),
        usage=draft.usage,
        extra=extra,
        meta=draft.meta,
    )


def _injected(role: Role, blocks: tuple[ContentBlock, ...], record: Json) -> bool:
    """A user record the harness wrote (Claude Code marks most with ``isMeta``; a skill's
    instructions are recognised by their first words)."""
    if role is not Role.USER:
        return False
    text = "\n".join(block.text for block in blocks if isinstance(block, TextBlock))
    return record.get(IS_META) is True or text.startswith(SKILL_PREFIX)
