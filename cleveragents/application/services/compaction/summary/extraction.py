"""The summary of a run of messages, every item extracted from them (none invented).

Each section comes from one extractor module (``extract_*.py``); this module reads the
messages once into requests and tool activities and hands them round. The result depends on
the messages alone, so the same messages always give the same summary.
"""

from __future__ import annotations

from collections.abc import Sequence

from cleveragents.application.services.compaction.summary.command_resolution import settlements
from cleveragents.application.services.compaction.summary.extract_assistant import decisions
from cleveragents.application.services.compaction.summary.extract_commands import commands
from cleveragents.application.services.compaction.summary.extract_errors import (
    errors,
    refused_tool_uses,
    uncertain_effects,
)
from cleveragents.application.services.compaction.summary.extract_files import (
    modified_files,
    read_files,
)
from cleveragents.application.services.compaction.summary.extract_outcomes import tool_activities
from cleveragents.application.services.compaction.summary.extract_progress import progress
from cleveragents.application.services.compaction.summary.extract_requests import (
    constraints,
    goals,
    permissions_in_words,
    user_requests,
)
from cleveragents.application.services.compaction.summary.extract_text import unique
from cleveragents.domain.compaction_summary import CompactionSummary, SummarySection
from cleveragents.domain.transcript import CONTINUATION_PREFIX, Message


def extract_summary(messages: Sequence[Message]) -> CompactionSummary:
    """The summary of `messages` alone (a summary message among them is not read: the
    summarizer merges it instead)."""
    messages = [message for message in messages if not message.is_summary]
    earlier = _earlier_summary(messages)
    requests = user_requests(messages)
    latest = requests[-1] if requests else None
    activities = tool_activities(messages)
    settled = settlements(activities)
    work = progress(messages, activities, latest, settled)
    # Permissions come from two sources; sorting by message position keeps them in the order
    # they were given (the sort is stable for several in one message).
    permissions = sorted(
        [*permissions_in_words(requests), *refused_tool_uses(activities)], key=lambda p: p[0]
    )
    return CompactionSummary(
        latest_request=latest.text if latest is not None else None,
        sections={
            SummarySection.GOALS: goals(requests),
            SummarySection.EARLIER: earlier,
            SummarySection.CONSTRAINTS: constraints(requests),
            SummarySection.PERMISSIONS: unique(item for _, item in permissions),
            SummarySection.FILES_READ: read_files(activities),
            SummarySection.FILES_MODIFIED: modified_files(activities),
            SummarySection.COMMANDS: commands(activities),
            SummarySection.DECISIONS: decisions(messages),
            SummarySection.ERRORS: errors(activities, settled),
            SummarySection.UNFINISHED: work.unfinished,
            SummarySection.COMPLETED: work.completed,
            SummarySection.CURRENT_WORK: work.current_work,
            SummarySection.NEXT_STEPS: work.next_steps,
            SummarySection.UNCERTAIN_EFFECTS: uncertain_effects(activities, settled),
        },
    )


def _earlier_summary(messages: Sequence[Message]) -> tuple[str, ...]:
    """The lines of a harness's own summary that opens the messages (Claude Code's
    continuation summary of a resumed session): the messages it replaced are not here, so it
    is the only record of them. One found later, after the messages it replaced, says less
    than they do and is left out."""
    if not messages or not messages[0].text.lstrip().startswith(CONTINUATION_PREFIX):
        return ()
    lines = [line.strip() for line in messages[0].text.strip().split("\n")[1:]]
    return unique(line for line in lines if line)
