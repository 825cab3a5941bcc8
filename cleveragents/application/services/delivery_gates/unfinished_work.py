"""Gate 4, a compaction summary that omits unfinished work present in what it summarises.

Unfinished work is the pending and in-progress items of the last todo list the agent wrote
before the summary (the recovery measurement's rule, `compaction.recovery_facts`), and an
item counts as kept when the summary holds it as written or by most of its key terms (the
same rule as the measurement: a summary may paraphrase). Which summaries: ours (the message
that starts with ``[cleveragents context summary v1]``) and Claude Code's continuation
summaries (``isCompactSummary``). Its source is every message before it, so the check needs
both in one transcript: a Claude Code session log keeps the records its summary replaced; a
transcript our compaction wrote does not (the folded messages are gone), and then only our
summary's own note is checkable: a summary whose budget left out unfinished items says so
("Left out to keep this summary within its budget: unfinished 2"), and that stops delivery.

In the store the summaries' text is not kept: a ``context_compacted`` event records the
summary's fingerprint and figures. When its payload records the items the summary's budget
left out (``summary_omitted``), unfinished ones stop delivery; stored artifacts that are
transcripts get the message check above.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from cleveragents.application.services.compaction.recall.claude_code import (
    claude_code_compaction_points,
)
from cleveragents.application.services.compaction.recall.decisions import last_todos
from cleveragents.application.services.compaction.recall.model import FactCategory
from cleveragents.application.services.compaction.recall.presence import is_recovered
from cleveragents.application.services.compaction.recall.text import (
    prose_fact,
    searchable_text,
    shorten,
    term_frequencies,
)
from cleveragents.application.services.delivery_gates.violations import StopCondition, Violation
from cleveragents.domain.compaction_summary import SummarySection, parse_summary
from cleveragents.domain.transcript import Message, Role

_OPEN = ("pending", "in_progress")
_SHOWN_ITEMS = 3  # a violation names this many missing items, then counts the rest


def summary_positions(messages: Sequence[Message]) -> tuple[int, ...]:
    """The indexes of the compaction summaries in `messages`, ours and Claude Code's."""
    ours = {index for index, message in enumerate(messages) if message.is_summary}
    return tuple(sorted(ours | set(claude_code_compaction_points(messages))))


def unfinished_omissions(messages: Sequence[Message], subject: str = "") -> list[Violation]:
    """Each summary in `messages` against the unfinished work of the messages before it.
    `subject` prefixes the summary's place (``"artifact <id>, "``)."""
    violations = []
    for index in summary_positions(messages):
        summary = messages[index]
        where = f"{subject}the summary in message {index}"
        parsed = parse_summary(summary.text) if summary.is_summary else None
        left_out = parsed.omitted.get(SummarySection.UNFINISHED, 0) if parsed else 0
        if left_out:
            violations.append(
                Violation(
                    StopCondition.UNFINISHED_WORK,
                    where,
                    f"its budget left out {left_out} unfinished item(s)",
                )
            )
        missing = _missing_unfinished(messages[:index], summary.text)
        if missing:
            shown = "; ".join(repr(shorten(item)) for item in missing[:_SHOWN_ITEMS])
            more = len(missing) - _SHOWN_ITEMS
            violations.append(
                Violation(
                    StopCondition.UNFINISHED_WORK,
                    where,
                    f"it omits {len(missing)} unfinished item(s) of the messages it "
                    f"summarises: {shown}" + (f" and {more} more" if more > 0 else ""),
                )
            )
    return violations


def _missing_unfinished(source: Sequence[Message], summary_text: str) -> list[str]:
    calls = [
        call for message in source if message.role is Role.ASSISTANT for call in message.tool_calls
    ]
    unfinished = [content for content, status in last_todos(calls) if status in _OPEN]
    if not unfinished:
        return []
    frequencies = term_frequencies(searchable_text(source))
    haystack = searchable_text(summary_text)
    return [
        content
        for content in unfinished
        if not is_recovered(
            prose_fact(FactCategory.UNFINISHED, content, content, frequencies), haystack
        )
    ]


def recorded_omissions(event_id: str, payload: Mapping[str, Any]) -> list[Violation]:
    """A ``context_compacted`` event whose payload says its summary's budget left out
    unfinished items."""
    omitted = payload.get("summary_omitted")
    count = omitted.get(SummarySection.UNFINISHED.value) if isinstance(omitted, Mapping) else None
    if not isinstance(count, int) or isinstance(count, bool) or count <= 0:
        return []
    return [
        Violation(
            StopCondition.UNFINISHED_WORK,
            f"compaction event {event_id}",
            f"its summary's budget left out {count} unfinished item(s)",
        )
    ]
