"""The summarizer port: folds older messages into a structured summary."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence

from cleveragents.domain.compaction_summary import CompactionSummary
from cleveragents.domain.transcript import Message


class Summarizer(ABC):
    """Summarises the messages a compaction folds. The default is local and deterministic (no
    model call); an LLM summarizer can implement the same port."""

    @abstractmethod
    def summarize(
        self, folded: Sequence[Message], previous: CompactionSummary | None
    ) -> CompactionSummary:
        """The summary of `folded` merged into `previous` (the summary an earlier compaction
        wrote, when the transcript started with one): nothing of `previous` is dropped unless
        it was completed, and completed work moves out of "unfinished"."""
