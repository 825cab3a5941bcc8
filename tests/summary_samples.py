"""A summary with long tails of commands and files, and the counter that measures it, for the
unit and property tests of the summary's budget."""

from __future__ import annotations

from cleveragents.domain.compaction_summary import CompactionSummary, SummarySection
from tests.fakes import FakeTokenCounter

COUNTER = FakeTokenCounter()


def count(text: str) -> int:
    return COUNTER.count(text)


def busy_summary() -> CompactionSummary:
    return CompactionSummary(
        latest_request="make the importer resumable",
        sections={
            SummarySection.GOALS: ("make the importer resumable", "and keep the CLI stable"),
            SummarySection.COMMANDS: tuple(f"pytest tests/test_{i}.py: passed" for i in range(200)),
            SummarySection.FILES_READ: tuple(f"src/module_{i}.py" for i in range(200)),
            SummarySection.FILES_MODIFIED: ("src/importer.py", "tests/test_importer.py"),
            SummarySection.ERRORS: ("pytest tests/test_7.py: AssertionError resume offset",),
            SummarySection.DECISIONS: ("store the offset in the ledger, not in a file",),
            SummarySection.NEXT_STEPS: ("run the full suite",),
        },
    )
