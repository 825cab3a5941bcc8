"""What went wrong with the tools: errors (and how a later call settled them), calls whose
effect is unknown, and tool uses the user refused.

A refusal or an interruption is the user's choice, not a tool error: a refusal is reported as
a refused permission (the call never ran), an interruption as an uncertain effect.
"""

from __future__ import annotations

from collections.abc import Sequence

from cleveragents.application.services.compaction.summary.command_resolution import (
    Settlements,
    core_command,
    has_effect,
)
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
    files_modified,
    is_read_only,
    shell_command,
)

_RESOLUTION_LIMIT = 100
_UNKNOWN_LABELS = {
    Outcome.MISSING: "no result",
    Outcome.INTERRUPTED: "interrupted",
    Outcome.FAILED: "failed",
}


def errors(activities: Sequence[ToolActivity], settled: Settlements) -> tuple[str, ...]:
    """``<tool> <short args>: <first error line>``, with how a later call settled it when one
    did (`settled`, from `command_resolution.settlements`): `` -> resolved by a later
    successful <tool>``,
    or `` -> resolved by `<command>` `` when the command that succeeded differs."""
    found: list[str] = []
    for position, activity in enumerate(activities):
        if activity.outcome is not Outcome.FAILED or activity.result is None:
            continue
        item = f"{describe(activity.call)}: {first_error_line(activity.result.content)}"
        fixer = settled.get(position)
        # The resolution is the point of the item: the cap cuts the error, never it.
        resolution = _resolution(activity, fixer) if fixer is not None else ""
        found.append(clip(item, ITEM_LIMIT - len(resolution)) + resolution)
    return unique(found)


def uncertain_effects(activities: Sequence[ToolActivity], settled: Settlements) -> tuple[str, ...]:
    """``<tool> <short args>: <no result|interrupted|failed> — effect unknown`` for the calls
    whose outcome the agent never learnt or never acted on, and that could change something:
    no result, interrupted, or failed with effects (a failed edit of the harness changed
    nothing; a command that only reads or checks changes nothing whatever came of it). A
    later success of the same action settles it (a failure then shows under errors with its
    resolution)."""
    found: list[str] = []
    for position, activity in enumerate(activities):
        if not _effect_unknown(activity):
            continue
        if position in settled:
            continue
        label = _UNKNOWN_LABELS[activity.outcome]
        found.append(clip(f"{describe(activity.call)}: {label} — effect unknown"))
    return unique(found)


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


def _effect_unknown(activity: ToolActivity) -> bool:
    if activity.outcome in (Outcome.OK, Outcome.REFUSED) or is_read_only(activity.call):
        return False
    command = shell_command(activity.call)
    if command is not None:
        return has_effect(command)  # a search or a test run changes nothing, whatever came of it
    # No result, or interrupted: it may have run in part. A failed edit of the harness is all
    # or nothing, so it changed nothing; another tool's failure may have done anything.
    return activity.outcome is not Outcome.FAILED or not files_modified(activity.call)


def _resolution(failed: ToolActivity, fixer: ToolActivity) -> str:
    command, again = shell_command(failed.call), shell_command(fixer.call)
    if command is not None and again is not None and core_command(command) != core_command(again):
        return f" -> resolved by `{clip(again, _RESOLUTION_LIMIT)}`"
    return f" -> resolved by a later successful {fixer.call.name}"
