"""The summary a compaction writes in place of the messages it folds: fixed sections, each a
list of items extracted from the conversation (never invented), in a fixed order.

`render_summary` writes it as the text of one user message that starts with `SUMMARY_MARKER`;
`parse_summary` reads that text back, so a later compaction merges into it instead of
summarising a summary.
"""

from __future__ import annotations

from enum import StrEnum

from pydantic import BaseModel, ConfigDict, Field, field_validator

from cleveragents.domain.transcript import SUMMARY_MARKER


class SummarySection(StrEnum):
    """The sections, in the order they are rendered."""

    GOALS = "goals"  # the user's requests, oldest first; the latest also verbatim
    EARLIER = "earlier"  # a harness's own summary of what came before, when nothing else does
    CONSTRAINTS = "constraints"  # constraints and preferences, negative ones included
    PERMISSIONS = "permissions"  # granted or refused
    FILES_READ = "files_read"
    FILES_MODIFIED = "files_modified"
    COMMANDS = "commands"  # tests and commands run, with their outcome
    DECISIONS = "decisions"
    ERRORS = "errors"  # errors and how they were resolved
    UNFINISHED = "unfinished"  # open items: tasks not closed, tests failing, pushes unconfirmed
    COMPLETED = "completed"  # work finished (moved out of "unfinished")
    CURRENT_WORK = "current_work"  # the work in progress at the cut
    NEXT_STEPS = "next_steps"
    UNCERTAIN_EFFECTS = "uncertain_effects"  # calls with effects whose outcome is not known


SECTION_TITLES: dict[SummarySection, str] = {
    SummarySection.GOALS: "Goals",
    SummarySection.EARLIER: "Earlier summary (the harness's, of messages not in this transcript)",
    SummarySection.CONSTRAINTS: "Constraints and preferences",
    SummarySection.PERMISSIONS: "Permissions",
    SummarySection.FILES_READ: "Files read",
    SummarySection.FILES_MODIFIED: "Files modified",
    SummarySection.COMMANDS: "Tests and commands run",
    SummarySection.DECISIONS: "Decisions",
    SummarySection.ERRORS: "Errors and resolutions",
    SummarySection.UNFINISHED: "Unfinished work",
    SummarySection.COMPLETED: "Completed work",
    SummarySection.CURRENT_WORK: "Current work (at the cut)",
    SummarySection.NEXT_STEPS: "Next steps",
    SummarySection.UNCERTAIN_EFFECTS: "Uncertain effects",
}


class CompactionSummary(BaseModel):
    """What a resumed agent needs from the folded part of a conversation."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    latest_request: str | None = None
    """The user's latest request, verbatim."""
    sections: dict[SummarySection, tuple[str, ...]] = Field(default_factory=dict)
    workspace: str | None = None
    """The directory the agent worked in: file paths under it are written relative to it
    (a summary of a long session lists hundreds of them, each paying for the prefix)."""
    omitted: dict[SummarySection, int] = Field(default_factory=dict)
    """Items per section left out to keep the summary within its token budget (said in the
    summary, so the resumed agent knows the list is not complete)."""

    @field_validator("omitted")
    @classmethod
    def _canonical_omitted(cls, omitted: dict[SummarySection, int]) -> dict[SummarySection, int]:
        return {section: omitted[section] for section in SummarySection if omitted.get(section)}

    @field_validator("sections")
    @classmethod
    def _canonical_sections(
        cls, sections: dict[SummarySection, tuple[str, ...]]
    ) -> dict[SummarySection, tuple[str, ...]]:
        # One shape per content: an empty section is the same as an absent one (the rendering
        # cannot tell them apart), and keys follow the rendering order so dumps are stable.
        return {section: sections[section] for section in SummarySection if sections.get(section)}

    def items(self, section: SummarySection) -> tuple[str, ...]:
        return self.sections.get(section, ())

    def counts(self) -> dict[SummarySection, int]:
        """Items per section, every section present, in rendering order."""
        return {section: len(self.items(section)) for section in SummarySection}


_INTRO = "This summary replaces the earlier messages of this conversation."
_REQUEST_HEADING = "Latest request (verbatim):"
_NO_REQUEST = "Latest request: none recorded."
_QUOTE = "> "
_HEADING = "## "
_ITEM = "- "
_CONTINUATION = "  "
_OMITTED = "Left out to keep this summary within its budget: "
_WORKSPACE = "File paths are relative to the workspace "
_SECTIONS_BY_TITLE = {title: section for section, title in SECTION_TITLES.items()}


def render_summary(summary: CompactionSummary) -> str:
    """The text of the summary message: `SUMMARY_MARKER`, a line saying what it replaces, the
    latest request quoted line by line (``> ``), then one ``## <title>`` heading per non-empty
    section with ``- item`` lines (further lines of an item indented by two spaces).

    The prefixes make every line's role unambiguous whatever the items contain, so
    `parse_summary` gives the summary back exactly.
    """
    lines = [SUMMARY_MARKER, _INTRO]
    if summary.workspace is not None:
        lines.append(_WORKSPACE + summary.workspace)
    lines.append("")
    if summary.latest_request is None:
        lines.append(_NO_REQUEST)
    else:
        lines.append(_REQUEST_HEADING)
        lines.extend(_QUOTE + line for line in summary.latest_request.split("\n"))
    for section in SummarySection:
        items = summary.items(section)
        if not items:
            continue
        lines += ["", _HEADING + SECTION_TITLES[section]]
        for item in items:
            first, *rest = item.split("\n")
            lines.append(_ITEM + first)
            lines.extend(_CONTINUATION + line for line in rest)
    if summary.omitted:
        counts = ", ".join(f"{section.value} {count}" for section, count in summary.omitted.items())
        lines += ["", _OMITTED + counts]
    return "\n".join(lines)


def parse_summary(text: str) -> CompactionSummary | None:
    """The summary `render_summary` wrote as `text`; None when `text` does not start with
    `SUMMARY_MARKER`. Lines it does not recognise (an unknown heading and its items, stray
    prose) are skipped rather than guessed at."""
    if not text.startswith(SUMMARY_MARKER):
        return None
    request: list[str] = []
    has_request = quoting = False
    sections: dict[SummarySection, list[str]] = {}
    omitted: dict[SummarySection, int] = {}
    workspace: str | None = None
    items: list[str] | None = None  # the items of the section being read; None outside one
    for line in text.split("\n")[1:]:
        if workspace is None and not sections and not has_request and line.startswith(_WORKSPACE):
            workspace = line[len(_WORKSPACE) :]
            continue
        if line.startswith(_OMITTED):
            omitted = _omitted_counts(line[len(_OMITTED) :])
            items = None
            continue
        if quoting and line.startswith(">"):
            request.append(line[len(_QUOTE) :] if line.startswith(_QUOTE) else line[1:])
            continue
        quoting = False
        if line == _REQUEST_HEADING:
            request, has_request, quoting, items = [], True, True, None
        elif line.startswith(_HEADING):
            section = _SECTIONS_BY_TITLE.get(line[len(_HEADING) :])
            items = None if section is None else sections.setdefault(section, [])
        elif items is None:
            continue
        elif line.startswith(_ITEM):
            items.append(line[len(_ITEM) :])
        elif line.startswith(_CONTINUATION) and items:
            items[-1] += "\n" + line[len(_CONTINUATION) :]
    return CompactionSummary(
        latest_request="\n".join(request) if has_request else None,
        sections={section: tuple(found) for section, found in sections.items()},
        workspace=workspace,
        omitted=omitted,
    )


def _omitted_counts(text: str) -> dict[SummarySection, int]:
    counts: dict[SummarySection, int] = {}
    for part in text.split(", "):
        name, _, count = part.rpartition(" ")
        if name in SummarySection.__members__.values() and count.isdigit():
            counts[SummarySection(name)] = int(count)
    return counts
