"""Where Claude Code's own LLM compaction cut a session, so that its summary can be measured
against the facts of exactly the messages it replaced.

Claude Code marks a compaction in the session log with a ``system`` record of subtype
``compact_boundary`` whose ``logicalParentUuid`` names the last record the summary covers,
followed by a user record flagged ``isCompactSummary`` whose text (starting "This session is
being continued from a previous conversation") is the summary the resumed agent read. The
summarising request itself is logged in the ``agent-acompact-*`` side transcript; its answer
is the summary text.

The message-level helpers work on parsed messages (whatever reader produced them); the
record-level one reads raw JSONL records, because a reader may drop the boundary record
(it carries no message).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from cleveragents.domain.transcript import CONTINUATION_PREFIX, Message, Role


def claude_code_compaction_points(messages: Sequence[Message]) -> tuple[int, ...]:
    """The indexes of Claude Code's continuation-summary messages, in order.

    `messages[:i]` are the messages replaced by the summary at index `i` (from the second
    compaction on, they include the previous summary, which stood for everything before it).
    """
    return tuple(
        index
        for index, message in enumerate(messages)
        if message.role is Role.USER
        and (
            message.extra.get("isCompactSummary") is True
            or message.text.lstrip().startswith(CONTINUATION_PREFIX)
        )
    )


def claude_code_compaction_point(messages: Sequence[Message]) -> int | None:
    """The index of the first continuation summary (how many messages it replaced), or None
    when Claude Code never compacted the session."""
    points = claude_code_compaction_points(messages)
    return points[0] if points else None


def claude_code_compaction_cuts(records: Sequence[Mapping[str, Any]]) -> tuple[int, ...]:
    """For each ``compact_boundary`` record in raw session records: how many leading records
    its summary covers (through the record named by ``logicalParentUuid``; up to the boundary
    itself when that record is not in `records`)."""
    index_of_uuid = {
        record["uuid"]: index
        for index, record in enumerate(records)
        if isinstance(record.get("uuid"), str)
    }
    cuts: list[int] = []
    for index, record in enumerate(records):
        if record.get("type") != "system" or record.get("subtype") != "compact_boundary":
            continue
        parent = record.get("logicalParentUuid")
        parent_index = index_of_uuid.get(parent) if isinstance(parent, str) else None
        cuts.append(parent_index + 1 if parent_index is not None else index)
    return tuple(cuts)


def claude_code_workspace(records: Sequence[Mapping[str, Any]]) -> str | None:
    """The session's working directory (the first record's ``cwd``), to recognise
    workspace-relative paths in a summary."""
    for record in records:
        cwd = record.get("cwd")
        if isinstance(cwd, str) and cwd:
            return cwd
    return None


def message_workspace(messages: Sequence[Message]) -> str | None:
    """The same from parsed messages: the ``cwd`` of the first Claude Code record kept in a
    message's extras (None for other formats)."""
    for message in messages:
        record = message.extra.get("claude_code", {}).get("record", {})
        cwd = record.get("cwd") if isinstance(record, dict) else None
        if isinstance(cwd, str) and cwd:
            return cwd
    return None


def llm_summary_text(compaction_messages: Sequence[Message]) -> str:
    """The summary an ``agent-acompact-*`` transcript produced: its last assistant text."""
    for message in reversed(compaction_messages):
        if message.role is Role.ASSISTANT and message.text.strip():
            return message.text
    return ""
