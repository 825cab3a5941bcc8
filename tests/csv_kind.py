"""A kind that does not ship, for tests: comma-separated tables (``.csv``, or lines that all
hold the same number of commas). Registered by the tests that need it, never by the product:
it shows that a kind declared in one module reaches detection, the CLI, the MCP schema and the
Python API through the registry alone."""

from __future__ import annotations

from typing import cast

from cleveragents.application.services.artifact_compression.kinds.kind_compressor import (
    KindCompressor,
    LinePlan,
    Priority,
)
from cleveragents.application.services.artifact_compression.kinds.kind_declaration import (
    KindDeclaration,
    Sniffed,
)
from cleveragents.application.services.artifact_compression.task_terms import TaskTerms
from cleveragents.domain.vocabulary import ArtifactKind

CSV = "csv"
HEADER_MARK = "# csv header kept"
"""What the CSV compressor's Tier 2 writes first: a test sees that it, not another kind's
compressor, did the work."""


class CsvCompressor(KindCompressor):
    """Keeps the header row and the rows that name a term of the task."""

    kind = cast("ArtifactKind", CSV)  # an added kind travels as its name

    def tier2(self, text: str, terms: TaskTerms) -> str:
        header, *rows = text.splitlines()
        kept = [row for row in rows if terms.matches(row)]
        return "\n".join([HEADER_MARK, header, *kept]) + "\n"

    def line_plan(self, lines: list[str], terms: TaskTerms) -> LinePlan:
        ranks = [Priority.CRITICAL if terms.matches(line) else Priority.CONTEXT for line in lines]
        return LinePlan([Priority.ESSENTIAL, *ranks[1:]] if ranks else [])


def looks_like_csv(sniffed: Sniffed) -> bool:
    """Two lines or more, each with the same number (at least one) of commas."""
    counts = {line.count(",") for line in sniffed.lines}
    return len(sniffed.lines) >= 2 and len(counts) == 1 and counts != {0}


CSV_KIND = KindDeclaration(CsvCompressor, recognises=looks_like_csv, suffixes=(".csv",))
