"""A summary kept within its own token budget by ranking what it keeps.

A summary that grows with the session defeats compaction: an agent session of hundreds of tool
calls yields hundreds of commands and files. The budget is spent in rounds: each round takes
the next most important items of every section (a few of the busy sections, one of the
others), so that every kind of fact is represented before any section gets its long tail.
Before the rounds, the sections a resumed agent acts on first (current work, unfinished work,
next steps, uncertain effects, errors, decisions) take their share.
The latest request is always kept verbatim. Within a section the newest items come first,
except for requests, constraints and permissions, where the first ones set the task. Items
are rendered in their original order, and the sections left short say how many items they
lost (`CompactionSummary.omitted`).
"""

from __future__ import annotations

from collections.abc import Callable

from cleveragents.domain.compaction_summary import (
    CompactionSummary,
    SummarySection,
    render_summary,
)

Count = Callable[[str], int]
"""Tokens of a summary message's text (the text as the message costs it)."""

ITEM_CHARS = 400
"""An item longer than this is cut (a heredoc command, a long error): its start identifies it."""

_FIRST_SHARE: tuple[tuple[SummarySection, int], ...] = (
    (SummarySection.CURRENT_WORK, 6),
    (SummarySection.UNFINISHED, 12),
    (SummarySection.NEXT_STEPS, 3),
    (SummarySection.UNCERTAIN_EFFECTS, 6),
    (SummarySection.ERRORS, 4),
    (SummarySection.DECISIONS, 4),
)
"""What a resumed agent acts on first, and how many items of each are ranked before any round:
a session's hundreds of files and commands never crowd out the work in progress, the open
items, the next step, the effects in doubt, the errors and the decisions."""

_ROUNDS: tuple[tuple[SummarySection, int], ...] = (
    (SummarySection.CURRENT_WORK, 2),
    (SummarySection.UNFINISHED, 3),
    (SummarySection.NEXT_STEPS, 2),
    (SummarySection.GOALS, 2),
    (SummarySection.EARLIER, 3),
    (SummarySection.ERRORS, 2),
    (SummarySection.FILES_MODIFIED, 3),
    (SummarySection.DECISIONS, 3),
    (SummarySection.COMMANDS, 3),
    (SummarySection.CONSTRAINTS, 1),
    (SummarySection.PERMISSIONS, 1),
    (SummarySection.UNCERTAIN_EFFECTS, 1),
    (SummarySection.FILES_READ, 3),
    (SummarySection.COMPLETED, 1),
)
"""Sections in order of importance, and how many items each takes per round."""

_OLDEST_FIRST = frozenset(
    {
        SummarySection.GOALS,
        SummarySection.EARLIER,
        SummarySection.CONSTRAINTS,
        SummarySection.PERMISSIONS,
    }
)


def clipped(item: str) -> str:
    return item if len(item) <= ITEM_CHARS else item[: ITEM_CHARS - 1] + "…"


def fit_summary(summary: CompactionSummary, budget: int, count: Count) -> CompactionSummary:
    """`summary` with as many items as fit in `budget` tokens, chosen by rank; the latest
    request is never cut (a summary holding only it may exceed a tiny budget)."""
    sections = {s: tuple(clipped(item) for item in summary.items(s)) for s in SummarySection}
    full = CompactionSummary(
        latest_request=summary.latest_request,
        workspace=summary.workspace,
        sections=sections,
        omitted=summary.omitted,
    )
    if count(render_summary(full)) <= budget:
        return full
    # The note of what was left out is paid for first, at its longest (every section named).
    everything = {s: len(sections[s]) + summary.omitted.get(s, 0) for s in SummarySection}
    spent = count(render_summary(_bare(summary, everything)))
    ranked = _ranked(sections, count)
    chosen: dict[SummarySection, list[int]] = {section: [] for section in SummarySection}
    headings: dict[SummarySection, int] = {}
    for section, index, cost in ranked:
        if not chosen[section] and section not in headings:
            headings[section] = _heading_cost(section, count)
        heading = 0 if chosen[section] else headings[section]
        if spent + heading + cost > budget:
            continue  # a shorter item further down may still fit
        chosen[section].append(index)
        spent += heading + cost
    fitted = _selected(summary, sections, chosen)
    # The per-item estimate can be off by a token at the joins: drop the last choices until
    # the exact count fits.
    picked = [(s, i) for s, i, _ in ranked if i in chosen[s]]
    while count(render_summary(fitted)) > budget:
        if not picked:  # not even the note fits beside the request
            return _bare(summary)
        section, index = picked.pop()
        chosen[section].remove(index)
        fitted = _selected(summary, sections, chosen)
    return fitted


def _ranked(
    sections: dict[SummarySection, tuple[str, ...]], count: Count
) -> list[tuple[SummarySection, int, int]]:
    """(section, item index, estimated tokens) in the order the budget is spent."""
    queues: dict[SummarySection, list[int]] = {}
    for section, _ in _ROUNDS:
        indexes = list(range(len(sections[section])))
        queues[section] = indexes if section in _OLDEST_FIRST else indexes[::-1]
    ranked: list[tuple[SummarySection, int, int]] = []

    def take(section: SummarySection) -> None:
        index = queues[section].pop(0)
        item = sections[section][index]
        ranked.append((section, index, count("- " + item.replace("\n", "\n  ")) + 1))

    for section, share in _FIRST_SHARE:
        for _ in range(min(share, len(queues[section]))):
            take(section)
    while any(queues.values()):
        for section, per_round in _ROUNDS:
            for _ in range(per_round):
                if not queues[section]:
                    break
                take(section)
    return ranked


def _heading_cost(section: SummarySection, count: Count) -> int:
    empty = CompactionSummary()
    one = CompactionSummary(sections={section: ("x",)})
    return count(render_summary(one)) - count(render_summary(empty)) - count("- x")


def _selected(
    summary: CompactionSummary,
    sections: dict[SummarySection, tuple[str, ...]],
    chosen: dict[SummarySection, list[int]],
) -> CompactionSummary:
    kept = {s: tuple(sections[s][i] for i in sorted(chosen[s])) for s in SummarySection}
    # What an earlier compaction already left out stays counted.
    omitted = {
        s: len(sections[s]) - len(chosen[s]) + summary.omitted.get(s, 0) for s in SummarySection
    }
    return CompactionSummary(
        latest_request=summary.latest_request,
        workspace=summary.workspace,
        sections=kept,
        omitted=omitted,
    )


def _bare(
    summary: CompactionSummary, omitted: dict[SummarySection, int] | None = None
) -> CompactionSummary:
    """The summary with its request (and workspace) only, and `omitted` as its note."""
    return CompactionSummary(
        latest_request=summary.latest_request, workspace=summary.workspace, omitted=omitted or {}
    )
