"""The SQL adapter of the `EventSink` port."""

from __future__ import annotations

import json
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker

from cleveragents.adapters.persistence.errors import database_errors_translated
from cleveragents.adapters.persistence.rows import EventRow
from cleveragents.adapters.persistence.times import utc
from cleveragents.application.ports.clock import Clock
from cleveragents.application.ports.events import EventSink
from cleveragents.domain.event import RecordedEvent
from cleveragents.domain.ids import new_ulid


class SqlEventLog(EventSink):
    """Events in the `events` table, one short transaction each. The database's errors come
    out as the domain's (`StoreUnavailableError`: a missing table, a locked file)."""

    def __init__(self, session_factory: sessionmaker[Session], clock: Clock) -> None:
        self._sessions = session_factory
        self._clock = clock

    def emit(self, kind: str, payload: dict[str, Any]) -> RecordedEvent:
        event = RecordedEvent(
            id=new_ulid(), kind=kind, payload=payload, created_at=self._clock.now()
        )
        text = json.dumps(payload, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
        with database_errors_translated(), self._sessions.begin() as session:
            session.add(EventRow(id=event.id, kind=kind, payload=text, created_at=event.created_at))
        return event

    def recorded(self, kind: str | None = None, limit: int | None = None) -> list[RecordedEvent]:
        query = select(EventRow).order_by(EventRow.created_at.desc(), EventRow.id.desc())
        if kind is not None:
            query = query.where(EventRow.kind == kind)
        if limit is not None:
            query = query.limit(limit)
        with database_errors_translated(), self._sessions() as session:
            rows = session.scalars(query).all()
            return [_event(row) for row in reversed(rows)]


def _event(row: EventRow) -> RecordedEvent:
    return RecordedEvent(
        id=row.id, kind=row.kind, payload=json.loads(row.payload), created_at=utc(row.created_at)
    )
