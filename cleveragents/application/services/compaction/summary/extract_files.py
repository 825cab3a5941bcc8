"""The files the folded messages read and modified, from tool-call arguments.

A file counts only when its call succeeded: a failed, refused or unanswered edit may have
changed nothing (or something), which the errors and uncertain effects say instead.
"""

from __future__ import annotations

from collections.abc import Sequence

from cleveragents.application.services.compaction.summary.extract_outcomes import (
    Outcome,
    ToolActivity,
)
from cleveragents.application.services.compaction.summary.extract_text import clip, unique
from cleveragents.application.services.compaction.summary.extract_tools import (
    files_modified,
    files_read,
)


def read_files(activities: Sequence[ToolActivity]) -> tuple[str, ...]:
    return unique(
        clip(path)
        for activity in activities
        if activity.outcome is Outcome.OK
        for path in files_read(activity.call)
    )


def modified_files(activities: Sequence[ToolActivity]) -> tuple[str, ...]:
    return unique(
        clip(path)
        for activity in activities
        if activity.outcome is Outcome.OK
        for path in files_modified(activity.call)
    )
