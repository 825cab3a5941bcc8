"""Where the work stands: completed and unfinished items, and the next steps.

The agent's own plan is the best record: the last TodoWrite call (Claude Code; ``update_plan``
with ``plan``/``step`` for Codex-style agents) lists every item with its status. Without one,
the only sign of unfinished work is the shape of the turn, so this is a best effort: the latest
request counts as unfinished when no assistant text follows the last tool activity (the agent
was still working, or stopped without reporting). A turn that ended with assistant text is not
claimed completed, as nothing says it succeeded.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from cleveragents.application.services.compaction.summary.extract_assistant import (
    announced_next_steps,
)
from cleveragents.application.services.compaction.summary.extract_outcomes import (
    Outcome,
    ToolActivity,
)
from cleveragents.application.services.compaction.summary.extract_requests import UserRequest
from cleveragents.application.services.compaction.summary.extract_text import clip, unique
from cleveragents.application.services.compaction.summary.extract_tools import is_todo_update
from cleveragents.domain.transcript import Message, Role

_OPEN = ("in_progress", "pending")
_NOT_APPLIED = (Outcome.FAILED, Outcome.REFUSED, Outcome.INTERRUPTED)


@dataclass(frozen=True, slots=True)
class Progress:
    unfinished: tuple[str, ...]
    completed: tuple[str, ...]
    next_steps: tuple[str, ...]


def progress(
    messages: Sequence[Message],
    activities: Sequence[ToolActivity],
    latest: UserRequest | None,
) -> Progress:
    current_turn = messages[latest.index + 1 :] if latest is not None else messages
    announced = announced_next_steps(current_turn)
    todos = _last_todo_list(activities)
    if todos is None:
        if latest is not None and _turn_open(messages, latest):
            return Progress((clip(latest.text),), (), announced)
        return Progress((), (), announced)
    completed = unique(content for content, status in todos if status == "completed")
    unfinished = unique(content for content, status in todos if status in _OPEN)
    in_progress = [content for content, status in todos if status == "in_progress"]
    pending = [content for content, status in todos if status == "pending"][:1]
    return Progress(unfinished, completed, unique([*in_progress, *pending, *announced]))


def _last_todo_list(activities: Sequence[ToolActivity]) -> list[tuple[str, str]] | None:
    """(content, status) of each item of the last plan update that was not rejected."""
    for activity in reversed(activities):
        if is_todo_update(activity.call) and activity.outcome not in _NOT_APPLIED:
            return _todo_items(activity.call.input)
    return None


def _todo_items(arguments: dict[str, Any]) -> list[tuple[str, str]]:
    entries = arguments.get("todos", arguments.get("plan"))
    items: list[tuple[str, str]] = []
    for entry in entries if isinstance(entries, list) else []:
        if not isinstance(entry, dict):
            continue
        content, status = entry.get("content", entry.get("step")), entry.get("status")
        if isinstance(content, str) and content.strip() and isinstance(status, str):
            items.append((clip(content), status))
    return items


def _turn_open(messages: Sequence[Message], latest: UserRequest) -> bool:
    last_tool = max(
        (i for i, message in enumerate(messages) if message.tool_calls or message.tool_results),
        default=-1,
    )
    start = max(latest.index, last_tool)
    return not any(
        message.role is Role.ASSISTANT and message.text.strip() for message in messages[start + 1 :]
    )
