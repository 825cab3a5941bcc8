"""Whether a Claude Code session log is one Claude Code can resume: `resume_problems`."""

from __future__ import annotations

import json

from cleveragents.adapters.transcripts.claude_code_fields import (
    CHAIN,
    COMPACT_BOUNDARY,
    SESSION,
    SOURCE,
    TIMESTAMP,
    UUID,
    split_lines,
)

_SESSION_RECORDS = ("user", "assistant", "system")


def resume_problems(text: str) -> list[str]:
    """What keeps Claude Code from resuming the session log `text`, one line per problem
    naming its line number; empty when there is none. Checked: every line is a JSON object;
    every record has a uuid, and no other record has the same one; every ``parentUuid`` and
    ``sourceToolAssistantUUID`` names a record earlier in the file; the only records without
    a parent are the first one and ``compact_boundary`` records; every user, assistant and
    system record has a sessionId and a timestamp."""
    problems: list[str] = []
    seen: dict[str, int] = {}  # uuid -> the line it is on
    records = 0
    for number, line in enumerate(split_lines(text), start=1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except (ValueError, RecursionError):
            problems.append(f"line {number}: not JSON")
            continue
        if not isinstance(record, dict):
            problems.append(f"line {number}: not a JSON object")
            continue
        records += 1
        problems.extend(_record_problems(number, record, seen, first=records == 1))
        own = record.get(UUID)
        if isinstance(own, str) and own:
            seen.setdefault(own, number)
    if not records:
        problems.append("the file holds no records")
    return problems


def _record_problems(
    number: int, record: dict[str, object], seen: dict[str, int], *, first: bool
) -> list[str]:
    problems: list[str] = []
    where = f"line {number}"
    own = record.get(UUID)
    if not isinstance(own, str) or not own:
        problems.append(f"{where}: no uuid")
    elif own in seen:
        problems.append(f"{where}: uuid {own} is also the uuid of line {seen[own]}")
    parent = record.get(CHAIN)
    if parent is None:
        boundary = record.get("type") == "system" and record.get("subtype") == COMPACT_BOUNDARY
        if not first and not boundary:
            problems.append(f"{where}: a second root (no parentUuid) that is no compact boundary")
    elif not isinstance(parent, str) or parent not in seen:
        problems.append(f"{where}: parentUuid {parent!r} names no earlier record")
    source = record.get(SOURCE)
    if source is not None and (not isinstance(source, str) or source not in seen):
        problems.append(f"{where}: sourceToolAssistantUUID {source!r} names no earlier record")
    if record.get("type") in _SESSION_RECORDS:
        for key in (SESSION, TIMESTAMP):
            value = record.get(key)
            if not isinstance(value, str) or not value:
                problems.append(f"{where}: no {key}")
    return problems
