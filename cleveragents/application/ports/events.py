"""The event port: what happened, recorded for audit and metrics."""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Any

from cleveragents.domain.event import RecordedEvent


class EventSink(ABC):
    """Records events such as `context_compacted` and `context_compaction_failed`, each in its
    own transaction (an event is kept even when the caller's work is not)."""

    @abstractmethod
    def emit(self, kind: str, payload: dict[str, Any]) -> RecordedEvent:
        """Record an event of `kind` with a JSON-serialisable `payload`."""

    @abstractmethod
    def recorded(self, kind: str | None = None, limit: int | None = None) -> list[RecordedEvent]:
        """Recorded events, oldest first; only `kind` when given; the newest `limit` when given."""
