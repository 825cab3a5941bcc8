"""Events persisted in a real SQLite file."""

from __future__ import annotations

from datetime import timedelta

from cleveragents.adapters.persistence.event_log import SqlEventLog
from cleveragents.container import Container
from cleveragents.domain.event import CONTEXT_COMPACTED, CONTEXT_COMPACTION_FAILED
from tests.fakes import FixedClock


def test_events_are_kept_with_their_payload_in_order(container: Container) -> None:
    clock = FixedClock()
    log = SqlEventLog(container.store().sessions, clock)
    first = log.emit(CONTEXT_COMPACTED, {"tokens_before": 900, "tokens_after": 300, "é": "ü"})
    clock.current += timedelta(seconds=1)
    log.emit(CONTEXT_COMPACTION_FAILED, {"reason": "not smaller", "tokens_before": 10})
    clock.current += timedelta(seconds=1)
    log.emit(CONTEXT_COMPACTED, {"tokens_before": 5, "tokens_after": 1})

    again = SqlEventLog(container.store().sessions, clock)  # a new reader sees them
    everything = again.recorded()
    assert [e.kind for e in everything] == [
        CONTEXT_COMPACTED,
        CONTEXT_COMPACTION_FAILED,
        CONTEXT_COMPACTED,
    ]
    assert everything[0] == first
    assert everything[0].created_at.tzinfo is not None
    assert [e.payload for e in again.recorded(CONTEXT_COMPACTION_FAILED)] == [
        {"reason": "not smaller", "tokens_before": 10}
    ]
    assert [e.payload["tokens_before"] for e in again.recorded(CONTEXT_COMPACTED, limit=1)] == [5]
