"""Compaction and stable-prefix figures: the events of one kind in scope and their fingerprints."""

from __future__ import annotations

from cleveragents.application.ports.events import EventSink
from cleveragents.application.services.metrics.metrics_report import Fingerprints, Scope
from cleveragents.application.services.metrics.metrics_scope import EventFilter


def event_fingerprints(
    events: EventSink, kind: str, key: str, scope: Scope, in_scope: EventFilter
) -> Fingerprints:
    """The events of `kind` in scope, and the distinct non-empty string values of their
    payload's `key`, oldest first."""
    verdicts = [(event, in_scope(event)) for event in events.recorded(kind)]
    chosen = [event for event, verdict in verdicts if verdict]
    seen: dict[str, None] = {}
    for event in chosen:
        value = event.payload.get(key)
        if isinstance(value, str) and value:
            seen.setdefault(value, None)
    unattributed = sum(1 for _, verdict in verdicts if verdict is None)
    return Fingerprints(
        kind=kind,
        count=len(chosen),
        fingerprints=tuple(seen),
        unattributed=None if scope.kind == "all" else unattributed,
    )
