"""A `Transcript` written as a Claude Code session log that Claude Code can resume.

One record per message, in Claude Code's compact JSON, each chained by ``parentUuid`` to the
record written before it (the first one is the root). What makes the file resumable:

* Every record has a ``uuid``. A record read from Claude Code keeps its own; a message that
  never had one (a queued prompt, a message from another format) gets one derived from the
  sessionId, its position and a hash of its content, so the same transcript is always written
  byte for byte the same. Such a message also takes ``sessionId``, ``timestamp``, ``cwd``,
  ... from the nearest message that has them (the one before it first); with none anywhere,
  the sessionId is derived from the whole conversation and the timestamp is the Unix epoch.
  The supplied fields are listed in ``cleveragentsDerived`` and dropped again on reading.
* ``sourceToolAssistantUUID`` is kept only while it names a record written before it.
* A compaction summary made by cleveragents (a summary message without stored record fields)
  is written the way Claude Code writes its own: a ``compact_boundary`` system record, a new
  root whose ``logicalParentUuid`` names the last record the summary replaces, then the
  summary as a user record marked ``isCompactSummary``. Both take the session fields and the
  timestamp of that replaced record (`SUMMARY_OF`), else of the first message after them.
  A boundary read from a session is written back before its message as it was.
"""

from __future__ import annotations

import hashlib
import json
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field

from cleveragents.adapters.transcripts.anthropic_messages import Json, write_content
from cleveragents.adapters.transcripts.claude_code_fields import (
    API_MESSAGE,
    BOUNDARY,
    CHAIN,
    CLAUDE_CODE,
    COMPACT_BOUNDARY,
    COMPACT_SUMMARY,
    CONTEXT_FIELDS,
    DERIVED,
    IS_META,
    LEADING_FIELDS,
    LOGICAL_PARENT,
    RECORD,
    SESSION,
    SKILL_PREFIX,
    SOURCE,
    TIMESTAMP,
    TOKENS_BEFORE,
    UUID,
)
from cleveragents.domain.errors import InvalidInputError
from cleveragents.domain.transcript import (
    RESULTS_SHORTENED,
    SUMMARY_OF,
    Message,
    Role,
    TextBlock,
    Transcript,
)

_NAMESPACE = uuid.UUID("7f1c9a52-3b0e-5d47-9c61-2e8a4f0b6d13")
"""Fixed, so derived uuids depend on nothing but the transcript."""
_EPOCH = "1970-01-01T00:00:00.000Z"
_DEFAULTS: Json = {"isSidechain": False, "userType": "external"}
_SESSION_FIELDS = (*CONTEXT_FIELDS, TIMESTAMP)
_NOT_STORED = frozenset(("type", "message", CHAIN, DERIVED))
TOOL_USE_RESULT = "toolUseResult"
"""A record field holding a tool's full structured output, beside the message content."""
_NONE = object()


@dataclass(slots=True)
class _Planned:
    """One message about to be written: its stored record fields, the API message body, and
    the fields the writer supplies."""

    index: int
    role: str
    fields: Json
    body: Json
    boundary: Json | None
    fold_of: Json | None = None
    """For a new compaction summary: the record fields of the last message it replaces."""
    tokens_before: int | None = None
    fills: Json = field(default_factory=dict)

    @property
    def known(self) -> Json:
        """The session fields a neighbour may borrow (before anything was supplied)."""
        return self.fields if self.fold_of is None else self.fold_of


def write_claude_code(transcript: Transcript) -> str:
    """The transcript as a resumable session log (see the module docstring)."""
    plans = [_plan(index, message) for index, message in enumerate(transcript.messages)]
    _supply(plans, _lazy_session(plans))
    lines: list[str] = []
    written: set[str] = set()
    parent: str | None = None
    for plan in plans:
        for record in _records(plan, parent, written):
            parent = record[UUID]
            written.add(record[UUID])
            lines.append(json.dumps(record, ensure_ascii=False, separators=(",", ":")))
    return "".join(f"{line}\n" for line in lines)


def _plan(index: int, message: Message) -> _Planned:
    if message.role is Role.SYSTEM:
        raise InvalidInputError(f"message {index}: a Claude Code session has no system messages")
    stored = _object(message.extra.get(CLAUDE_CODE))
    fields = {
        key: value for key, value in _object(stored.get(RECORD)).items() if key not in _NOT_STORED
    }
    if message.extra.get(RESULTS_SHORTENED):
        fields.pop(TOOL_USE_RESULT, None)  # the full output a compaction shortened
    body = _object(stored.get(API_MESSAGE))
    body.update(role=message.role.value, content=write_content(message))
    if message.usage is not None:
        body["usage"] = message.usage
    boundary = stored.get(BOUNDARY)
    plan = _Planned(
        index=index,
        role=message.role.value,
        fields=fields,
        body=body,
        boundary={key: value for key, value in boundary.items() if key != CHAIN}
        if isinstance(boundary, dict)
        else None,
    )
    if plan.boundary is None and not fields and message.is_summary:
        source = _object(_object(message.extra.get(SUMMARY_OF)).get(CLAUDE_CODE)).get(RECORD)
        plan.fold_of = _object(source)
        tokens = message.extra.get(TOKENS_BEFORE)
        plan.tokens_before = tokens if isinstance(tokens, int) and tokens is not True else None
        if len(message.content) == 1 and isinstance(message.content[0], TextBlock):
            body["content"] = message.text
    elif message.meta and IS_META not in fields and not message.text.startswith(SKILL_PREFIX):
        plan.fills[IS_META] = True
    return plan


def _object(value: object) -> Json:
    return dict(value) if isinstance(value, dict) else {}


def _lazy_session(plans: list[_Planned]) -> Callable[[], str]:
    """A sessionId for a transcript none of whose messages has one: derived from them all."""
    found: list[str] = []

    def session() -> str:
        if not found:
            digest = hashlib.sha256()
            for plan in plans:
                digest.update(_digest(plan.body).encode())
            found.append(str(uuid.uuid5(_NAMESPACE, f"session\n{digest.hexdigest()}")))
        return found[0]

    return session


def _supply(plans: list[_Planned], session: Callable[[], str]) -> None:
    """Supply the session fields records lack, from their neighbours (see the module): the
    nearest earlier message first, or for a new summary the nearest later one."""
    known = [dict(plan.known) for plan in plans]  # before anything is supplied
    for key in _SESSION_FIELDS:
        earlier = _nearest(known, key, range(len(plans)))
        later = _nearest(known, key, range(len(plans) - 1, -1, -1))
        for position, plan in enumerate(plans):
            if key in known[position]:
                continue
            if plan.fold_of is not None:
                found = later[position] if later[position] is not _NONE else earlier[position]
                target = plan.fold_of
            else:
                has_uuid = isinstance(plan.fields.get(UUID), str) and bool(plan.fields[UUID])
                if has_uuid and key not in (SESSION, TIMESTAMP):
                    continue  # a record of Claude Code's own: only what resuming needs
                found = earlier[position] if earlier[position] is not _NONE else later[position]
                target = plan.fills
            if found is not _NONE:
                target[key] = found
            elif key in _DEFAULTS:
                target[key] = _DEFAULTS[key]
            elif key == SESSION:
                target[key] = session()
            elif key == TIMESTAMP:
                target[key] = _EPOCH


def _nearest(known: list[Json], key: str, positions: range) -> list[object]:
    """For each position, the value of `key` at the closest position before it in the order of
    `positions` that has one, or `_NONE`."""
    found: list[object] = [_NONE] * len(known)
    last: object = _NONE
    for position in positions:
        found[position] = last
        if key in known[position]:
            last = known[position][key]
    return found


def _records(plan: _Planned, parent: str | None, written: set[str]) -> list[Json]:
    """The plan's records (its boundary first, when it has one), chained from `parent`."""
    if plan.fold_of is not None:
        return _fold(plan, written)
    records: list[Json] = []
    if plan.boundary is not None:
        boundary = {CHAIN: None, **plan.boundary}
        if not isinstance(boundary.get(UUID), str) or boundary[UUID] in written:
            boundary[UUID] = _derive(plan, COMPACT_BOUNDARY, written)
        records.append(boundary)
        parent = boundary[UUID]
        written = written | {boundary[UUID]}
    own = plan.fields.get(UUID)
    if not isinstance(own, str) or not own or own in written:
        plan.fills[UUID] = _derive(plan, plan.role, written)
    records.append(_ordered(plan, parent, written))
    return records


def _fold(plan: _Planned, written: set[str]) -> list[Json]:
    assert plan.fold_of is not None
    source = plan.fold_of
    context = {key: source[key] for key in CONTEXT_FIELDS if key in source}
    metadata: Json = {"trigger": "manual"}
    if plan.tokens_before is not None:
        metadata["preTokens"] = plan.tokens_before
    logical = source.get(UUID)
    boundary_uuid = _derive(plan, COMPACT_BOUNDARY, written)
    boundary: Json = {
        CHAIN: None,
        LOGICAL_PARENT: logical if isinstance(logical, str) else None,
        **context,
        "type": "system",
        "subtype": COMPACT_BOUNDARY,
        "content": "Conversation compacted",
        "isMeta": False,
        TIMESTAMP: source[TIMESTAMP],
        UUID: boundary_uuid,
        "level": "info",
        "compactMetadata": metadata,
    }
    summary: Json = {
        CHAIN: boundary_uuid,
        **context,
        "type": "user",
        "message": plan.body,
        "isVisibleInTranscriptOnly": True,
        COMPACT_SUMMARY: True,
        UUID: _derive(plan, "user", written | {boundary_uuid}),
        TIMESTAMP: source[TIMESTAMP],
    }
    return [boundary, summary]


def _ordered(plan: _Planned, parent: str | None, written: set[str]) -> Json:
    """The record in Claude Code's field order: chain link, session fields, type, message,
    the rest; supplied fields last but for session fields, then the list of them."""
    keys = list(plan.fields)
    lead = 0
    while lead < len(keys) and keys[lead] in LEADING_FIELDS:
        lead += 1
    record: Json = {CHAIN: parent}
    record.update((key, plan.fields[key]) for key in keys[:lead])
    record.update((key, plan.fills[key]) for key in CONTEXT_FIELDS if key in plan.fills)
    record.update(type=plan.role, message=plan.body)
    for key in keys[lead:]:
        value = plan.fills.get(key, plan.fields[key])  # a repeated uuid was replaced
        if key == SOURCE and (not isinstance(value, str) or value not in written):
            continue  # the tool call's record is not in this file
        record[key] = value
    record.update((key, value) for key, value in plan.fills.items() if key not in record)
    if plan.fills:
        record[DERIVED] = list(plan.fills)
    return record


def _derive(plan: _Planned, kind: str, taken: set[str]) -> str:
    """A uuid from the record's sessionId, position, kind and content: never random."""
    session = plan.fields.get(SESSION, plan.fills.get(SESSION))
    if plan.fold_of is not None:
        session = plan.fold_of.get(SESSION)
    uuid_name = f"{session}\n{plan.index}\n{kind}\n{_digest(plan.body)}"
    derived = str(uuid.uuid5(_NAMESPACE, uuid_name))
    attempt = 0
    while derived in taken:  # only when the transcript repeats a uuid it already holds
        attempt += 1
        derived = str(uuid.uuid5(_NAMESPACE, f"{uuid_name}\n{attempt}"))
    return derived


def _digest(body: Json) -> str:
    text = json.dumps(body, sort_keys=True, ensure_ascii=True, separators=(",", ":"))
    return hashlib.sha256(text.encode("ascii")).hexdigest()
