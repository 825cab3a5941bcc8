"""The interface every artifact type implements, and the priorities smart mode packs by."""

from __future__ import annotations

from abc import ABC, abstractmethod
from enum import IntEnum

from cleveragents.application.services.artifact_compression.task_terms import TaskTerms
from cleveragents.domain.artifact import ArtifactKind


class Priority(IntEnum):
    """How much a line matters when smart mode must drop lines (lower is kept first)."""

    ESSENTIAL = 0  # structure: file and hunk headers, headings, JSON keys
    CRITICAL = 1  # errors, fatal lines, tracebacks, signatures and declarations
    IMPORTANT = 2  # warnings; lines that name a term of the task
    USEFUL = 3  # changed lines of a diff, first lines of a log, tables
    CONTEXT = 4  # everything else


class MalformedCompressionError(ValueError):
    """A Tier 2 result that is not a valid artifact of its kind (e.g. JSON that does not parse).
    The seed then falls back to Tier 3."""


class ArtifactStrategy(ABC):
    """Per-type compression. Implementations are pure and deterministic: text in, text out."""

    kind: ArtifactKind
    strongest_level: int | None = None
    """The shrink level whose form is no longer than Tier 2's or any gentler level's, when the
    strategy guarantees one: smart mode then renders it first, and when it is over budget packs
    it without rendering the gentler forms. None: every form is rendered."""

    @abstractmethod
    def tier2(self, text: str, terms: TaskTerms) -> str:
        """The seed's Tier 2 strategy for this type. Raise `MalformedCompressionError` when the
        result would not be a valid artifact of the type."""

    @abstractmethod
    def priorities(self, lines: list[str], terms: TaskTerms) -> list[Priority]:
        """One priority per line of a (Tier 2-compressed) text, for smart mode's packer."""

    @abstractmethod
    def gap_marker(self, omitted_lines: int) -> str:
        """The line that stands for `omitted_lines` dropped lines, in the type's own syntax."""

    def shrink(self, text: str, terms: TaskTerms, level: int) -> str | None:
        """Smart mode's structure-preserving reduction at `level` (1 = gentle, higher =
        stronger), tried before dropping lines; None when the type has no further level.
        The default has none: lines are packed by priority."""
        return None
