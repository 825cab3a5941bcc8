"""The default summarizer: local and deterministic, no model call."""

from __future__ import annotations

import re
from collections.abc import Sequence

from cleveragents.application.ports.summarizer import Summarizer
from cleveragents.application.services.compaction.recall.claude_code import message_workspace
from cleveragents.application.services.compaction.summary.announced_steps import (
    step_reached,
    words_seen,
)
from cleveragents.application.services.compaction.summary.extract_progress import (
    FAILING_TEST,
    NOT_CONFIRMED,
)
from cleveragents.application.services.compaction.summary.extract_text import unique
from cleveragents.application.services.compaction.summary.extraction import extract_summary
from cleveragents.application.services.compaction.summary.paths import (
    absolute_paths,
    relative_paths,
)
from cleveragents.domain.compaction_summary import (
    CompactionSummary,
    SummarySection,
    parse_summary,
)
from cleveragents.domain.transcript import Message

# An unfinished item naming a command whose last run did not succeed.
_OPEN_COMMAND = re.compile(rf"^(?:{FAILING_TEST}|{NOT_CONFIRMED}): `(.+?)` -> ")
# Sections whose items stop being true once the work is done.
_OPEN_WORK = (SummarySection.UNFINISHED, SummarySection.NEXT_STEPS)
# Sections of a later summary whose items show an announced step was reached.
_EVIDENCE = (
    SummarySection.FILES_MODIFIED,
    SummarySection.FILES_READ,
    SummarySection.COMMANDS,
    SummarySection.COMPLETED,
)
# Sections that say where the work stood at the cut: a newer cut's say replaces an older one's.
_AT_THE_CUT = (SummarySection.CURRENT_WORK, SummarySection.NEXT_STEPS)


class DeterministicSummarizer(Summarizer):
    """Extracts the summary from the folded messages (see `summary_extraction`) and merges it
    into the previous summary and into any summary message among the folded ones, so facts
    survive any number of compactions.

    >>> DeterministicSummarizer().summarize([], None).latest_request is None
    True
    """

    def summarize(
        self, folded: Sequence[Message], previous: CompactionSummary | None
    ) -> CompactionSummary:
        merged = absolute_paths(previous) if previous is not None else None
        for message in folded:
            earlier = parse_summary(message.text) if message.is_summary else None
            if earlier is not None:
                earlier = absolute_paths(earlier)
                merged = earlier if merged is None else merge_summaries(merged, earlier)
        fresh = extract_summary(folded)
        result = fresh if merged is None else merge_summaries(merged, fresh)
        workspace = message_workspace(folded) or (previous.workspace if previous else None)
        return relative_paths(result, workspace)


def _settled_by(item: str, update: CompactionSummary) -> bool:
    """Whether an open command of `item` (a test failing, a push not confirmed) ran again and
    succeeded in `update`."""
    match = _OPEN_COMMAND.match(item)
    if match is None:
        return False
    ran_ok = f"`{match.group(1)}` -> ok"
    return any(command.startswith(ran_ok) for command in update.items(SummarySection.COMMANDS))


def merge_summaries(base: CompactionSummary, update: CompactionSummary) -> CompactionSummary:
    """`base` then `update`, section by section, each item once; nothing of `base` is dropped
    except unfinished work and next steps that `update` reports completed (or a command it
    ran again with success, for a failing test or an unconfirmed push, or a file or command
    it touched that an announced step names), and its current
    work and next steps when `update` names some (where the work stood at the newer cut).
    The latest request is `update`'s when it has one.

    An item `base` completed and `update` lists as unfinished again (reopened) is in both
    sections: the history and the current state."""
    done = set(update.items(SummarySection.COMPLETED))
    evidence = words_seen(item for section in _EVIDENCE for item in update.items(section))
    sections: dict[SummarySection, tuple[str, ...]] = {}
    for section in SummarySection:
        kept = base.items(section)
        if section in _AT_THE_CUT and update.items(section):
            kept = ()  # the newer cut's work in progress and next step replace the older ones
        if section in _OPEN_WORK:
            kept = tuple(item for item in kept if item not in done)
        if section is SummarySection.UNFINISHED:
            kept = tuple(item for item in kept if not _settled_by(item, update))
            kept = tuple(item for item in kept if not step_reached(item, evidence))
        sections[section] = unique([*kept, *update.items(section)])
    latest = update.latest_request if update.latest_request is not None else base.latest_request
    omitted = {
        section: base.omitted.get(section, 0) + update.omitted.get(section, 0)
        for section in SummarySection
    }
    return CompactionSummary(latest_request=latest, sections=sections, omitted=omitted)
