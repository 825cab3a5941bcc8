"""What went wrong with the tools: errors (and whether a later call fixed them), calls whose
effect is unknown, and tool uses the user refused.

A refusal or an interruption is the user's choice, not a tool error: it is reported as a
refused permission or an uncertain effect, not among the errors.
"""

from __future__ import annotations

from collections.abc import Sequence

from cleveragents.application.services.compaction.summary.extract_outcomes import (
    Outcome,
    ToolActivity,
    first_error_line,
    refusal_reason,
)
from cleveragents.application.services.compaction.summary.extract_text import (
    ITEM_LIMIT,
    clip,
    unique,
)
from cleveragents.application.services.compaction.summary.extract_tools import (
    describe,
    is_read_only,
    target,
    tool_name,
)


def errors(activities: Sequence[ToolActivity]) -> tuple[str, ...]:
    """``<tool> <short args>: <first error line>``, with `` -> resolved by a later successful
    <tool>`` when a later call of the same tool on the same command or file succeeded."""
    found: list[str] = []
    for position, activity in enumerate(activities):
        if activity.outcome is not Outcome.FAILED or activity.result is None:
            continue
        item = f"{describe(activity.call)}: {first_error_line(activity.result.content)}"
        fixer = _later_success(activity, activities[position + 1 :])
        # The resolution is the point of the item: the cap cuts the error, never it.
        resolution = f" -> resolved by a later successful {fixer.call.name}" if fixer else ""
        found.append(clip(item, ITEM_LIMIT - len(resolution)) + resolution)
    return unique(found)


def uncertain_effects(activities: Sequence[ToolActivity]) -> tuple[str, ...]:
    """``<tool> <short args>: <missing result|failed|interrupted|refused> — effect unknown``
    for every call that could change something and did not plainly succeed."""
    return unique(
        clip(f"{describe(activity.call)}: {activity.outcome.value} — effect unknown")
        for activity in activities
        if activity.outcome is not Outcome.OK and not is_read_only(activity.call)
    )


def refused_tool_uses(activities: Sequence[ToolActivity]) -> list[tuple[int, str]]:
    """``refused: <tool> <short args>`` (and what the user said, when they said something),
    with the position of the call's message."""
    found: list[tuple[int, str]] = []
    for activity in activities:
        if activity.outcome is not Outcome.REFUSED or activity.result is None:
            continue
        item = f"refused: {describe(activity.call)}"
        reason = refusal_reason(activity.result.content)
        found.append((activity.index, clip(f"{item} (user said: {reason})" if reason else item)))
    return found


def _later_success(failed: ToolActivity, later: Sequence[ToolActivity]) -> ToolActivity | None:
    name, aim = tool_name(failed.call), target(failed.call)
    return next(
        (
            activity
            for activity in later
            if activity.outcome is Outcome.OK
            and tool_name(activity.call) == name
            and target(activity.call) == aim
        ),
        None,
    )
