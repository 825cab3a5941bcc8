"""Hand-built Claude Code messages and record fields, for the unit and property tests of the
Claude Code writer."""

from __future__ import annotations

from typing import Any

from cleveragents.domain.transcript import SUMMARY_MARKER, SUMMARY_OF, Message, Role, TextBlock


def user(text: str, **fields: Any) -> Message:
    extra = {"claude_code": {"record": fields}} if fields else {}
    return Message(role=Role.USER, content=(TextBlock(text=text),), extra=extra)


def summary(replaced: Message | None = None, **extra: Any) -> Message:
    if replaced is not None:
        extra[SUMMARY_OF] = replaced.extra
    text = f"{SUMMARY_MARKER}\n## Goals\n- ship it"
    return Message(role=Role.USER, content=(TextBlock(text=text),), extra=extra)


CONTEXT = {
    "isSidechain": False,
    "userType": "external",
    "cwd": "/work/app",
    "sessionId": "s-1",
    "version": "2.1.39",
    "gitBranch": "main",
    "slug": "quiet-river",
}


def stamped(uuid: str, second: int) -> dict[str, Any]:
    return {**CONTEXT, "uuid": uuid, "timestamp": f"2026-02-11T21:00:{second:02d}.000Z"}
