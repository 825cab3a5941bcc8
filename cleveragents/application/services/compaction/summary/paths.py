"""File paths in a summary, relative to the workspace the agent worked in.

An agent session reads and edits hundreds of files under one directory, and every absolute
path pays for that prefix again (``/home/me/projects/shop/`` is a dozen tokens). The summary
names the workspace once and lists the files under it relative to it. A summary is merged
with absolute paths (an earlier one's are made absolute again first), so two compactions in
different workspaces never mix their relative paths.
"""

from __future__ import annotations

from cleveragents.application.services.compaction.summary.extract_text import unique
from cleveragents.domain.compaction_summary import CompactionSummary, SummarySection

FILE_SECTIONS = (SummarySection.FILES_READ, SummarySection.FILES_MODIFIED)
LAST_EDITED = "last edited: "
"""The current-work item naming the file last edited (its path follows the same rule)."""


def relative_paths(summary: CompactionSummary, workspace: str | None) -> CompactionSummary:
    """`summary` with its files under `workspace` relative to it (and the workspace named);
    unchanged without a workspace or when no file is under it."""
    root = (workspace or "").rstrip("/")
    if not root.startswith("/") or root == "":
        return summary
    prefix = root + "/"
    if not any(item.startswith(prefix) for s in FILE_SECTIONS for item in summary.items(s)):
        return summary
    sections = dict(summary.sections)
    for section in FILE_SECTIONS:
        # One file named both ways (absolute and relative) is listed once.
        sections[section] = unique(
            item[len(prefix) :] if item.startswith(prefix) and len(item) > len(prefix) else item
            for item in summary.items(section)
        )
    edited = LAST_EDITED + prefix
    sections[SummarySection.CURRENT_WORK] = tuple(
        LAST_EDITED + item[len(edited) :] if item.startswith(edited) else item
        for item in summary.items(SummarySection.CURRENT_WORK)
    )
    return _with(summary, sections, root)


def absolute_paths(summary: CompactionSummary) -> CompactionSummary:
    """`summary` with its relative files made absolute again under its workspace."""
    if summary.workspace is None:
        return summary
    prefix = summary.workspace.rstrip("/") + "/"
    sections = dict(summary.sections)
    for section in FILE_SECTIONS:
        sections[section] = unique(
            item if item.startswith("/") else prefix + item for item in summary.items(section)
        )
    sections[SummarySection.CURRENT_WORK] = tuple(
        LAST_EDITED + prefix + item[len(LAST_EDITED) :]
        if item.startswith(LAST_EDITED) and not item.startswith(LAST_EDITED + "/")
        else item
        for item in summary.items(SummarySection.CURRENT_WORK)
    )
    return _with(summary, sections, None)


def _with(
    summary: CompactionSummary,
    sections: dict[SummarySection, tuple[str, ...]],
    workspace: str | None,
) -> CompactionSummary:
    return CompactionSummary(
        latest_request=summary.latest_request,
        workspace=workspace,
        sections=sections,
        omitted=summary.omitted,
    )
