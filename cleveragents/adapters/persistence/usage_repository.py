"""The SQL adapter of the `UsageLedger` port: the ``usage_records`` table."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from sqlalchemy import Select, func, select
from sqlalchemy.orm import Session, sessionmaker

from cleveragents.adapters.persistence.errors import database_errors_translated
from cleveragents.adapters.persistence.rows import UsageRecordRow
from cleveragents.adapters.persistence.times import utc
from cleveragents.application.ports.usage_ledger import UsageLedger
from cleveragents.domain.errors import ConflictError
from cleveragents.domain.usage import (
    FigureSum,
    TokenUsage,
    UsageFormat,
    UsageRecord,
    UsageTotals,
)

# Keys looked up per query: well under every database's limit on bound parameters.
_KEY_BATCH = 500
_RECORD_ATTEMPTS = 3
_CONFLICT = "the usage conflicts with stored data"
_NULLABLE_FIGURES = (
    "input_tokens",
    "total_input_tokens",
    "cache_read_tokens",
    "cache_write_tokens",
    "reasoning_tokens",
)


class SqlUsageLedger(UsageLedger):
    """Usage records in SQL, one short transaction per call."""

    def __init__(self, session_factory: sessionmaker[Session]) -> None:
        self._sessions = session_factory

    def record(self, records: Sequence[UsageRecord]) -> list[UsageRecord]:
        """Stores the records whose request is not stored yet. An import running at the same
        time can store some of them between the lookup and the insert (the unique key then
        refuses the batch): the lookup is made again, `_RECORD_ATTEMPTS` times in all."""
        if not records:
            return []
        for _ in range(_RECORD_ATTEMPTS - 1):
            try:
                with database_errors_translated():
                    return self._record_new(records)
            except ConflictError:
                continue  # another import stored some of them meanwhile: look up again
        with database_errors_translated(_CONFLICT):
            return self._record_new(records)

    def _record_new(self, records: Sequence[UsageRecord]) -> list[UsageRecord]:
        with self._sessions.begin() as session:
            known = self._known_keys(session, [record.request_key for record in records])
            fresh: list[UsageRecord] = []
            for record in records:
                if record.request_key not in known:
                    known.add(record.request_key)  # a key twice in one call is stored once
                    fresh.append(record)
            session.add_all(_row(record) for record in fresh)
        return fresh

    def totals(
        self, *, project_id: str | None = None, plan_id: str | None = None
    ) -> list[UsageTotals]:
        row = UsageRecordRow
        figures = [
            expression
            for name in _NULLABLE_FIGURES
            for expression in (func.sum(getattr(row, name)), func.count(getattr(row, name)))
        ]
        query: Select[Any] = (
            select(row.provider, row.model, func.count(), func.sum(row.output_tokens), *figures)
            .group_by(row.provider, row.model)
            .order_by(row.provider, row.model)
        )
        query = _scoped(query, project_id, plan_id)
        with database_errors_translated(), self._sessions() as session:
            return [_totals(tuple(result)) for result in session.execute(query)]

    def records(
        self, *, project_id: str | None = None, plan_id: str | None = None
    ) -> list[UsageRecord]:
        query: Select[Any] = select(UsageRecordRow).order_by(
            UsageRecordRow.recorded_at, UsageRecordRow.id
        )
        query = _scoped(query, project_id, plan_id)
        with database_errors_translated(), self._sessions() as session:
            return [_record(row) for row in session.scalars(query)]

    @staticmethod
    def _known_keys(session: Session, keys: list[str]) -> set[str]:
        known: set[str] = set()
        for start in range(0, len(keys), _KEY_BATCH):
            batch = keys[start : start + _KEY_BATCH]
            known.update(
                session.scalars(
                    select(UsageRecordRow.request_key).where(UsageRecordRow.request_key.in_(batch))
                )
            )
        return known


def _scoped(query: Select[Any], project_id: str | None, plan_id: str | None) -> Select[Any]:
    if project_id is not None:
        query = query.where(UsageRecordRow.project_id == project_id)
    if plan_id is not None:
        query = query.where(UsageRecordRow.plan_id == plan_id)
    return query


def _row(record: UsageRecord) -> UsageRecordRow:
    usage = record.usage
    return UsageRecordRow(
        id=record.id,
        project_id=record.project_id,
        plan_id=record.plan_id,
        request_key=record.request_key,
        provider=usage.provider,
        usage_format=usage.usage_format.value,
        model=record.model,
        message_id=record.message_id,
        request_id=record.request_id,
        input_tokens=usage.input_tokens,
        cache_read_tokens=usage.cache_read_tokens,
        cache_write_tokens=usage.cache_write_tokens,
        cache_write_5m_tokens=usage.cache_write_5m_tokens,
        cache_write_1h_tokens=usage.cache_write_1h_tokens,
        total_input_tokens=usage.total_input_tokens,
        output_tokens=usage.output_tokens,
        reasoning_tokens=usage.reasoning_tokens,
        service_tier=usage.service_tier,
        requested_at=record.requested_at,
        recorded_at=record.recorded_at,
        source=record.source,
        raw_usage=json.dumps(
            record.raw_usage, sort_keys=True, separators=(",", ":"), ensure_ascii=False
        ),
    )


def _record(row: UsageRecordRow) -> UsageRecord:
    return UsageRecord(
        id=row.id,
        project_id=row.project_id,
        plan_id=row.plan_id,
        model=row.model,
        usage=TokenUsage(
            usage_format=UsageFormat(row.usage_format),
            input_tokens=row.input_tokens,
            cache_read_tokens=row.cache_read_tokens,
            cache_write_tokens=row.cache_write_tokens,
            cache_write_5m_tokens=row.cache_write_5m_tokens,
            cache_write_1h_tokens=row.cache_write_1h_tokens,
            total_input_tokens=row.total_input_tokens,
            output_tokens=row.output_tokens,
            reasoning_tokens=row.reasoning_tokens,
            service_tier=row.service_tier,
        ),
        request_key=row.request_key,
        message_id=row.message_id,
        request_id=row.request_id,
        requested_at=None if row.requested_at is None else utc(row.requested_at),
        recorded_at=utc(row.recorded_at),
        source=row.source,
        raw_usage=json.loads(row.raw_usage),
    )


def _totals(result: tuple[Any, ...]) -> UsageTotals:
    provider, model, requests, output, *figures = result
    # SUM is NULL over no values, and a Decimal on servers (PostgreSQL's SUM of BIGINT).
    sums = {
        name: FigureSum(total=int(figures[2 * index] or 0), reported=int(figures[2 * index + 1]))
        for index, name in enumerate(_NULLABLE_FIGURES)
    }
    return UsageTotals(
        provider=provider,
        model=model,
        requests=int(requests),
        output_tokens=int(output or 0),
        **sums,
    )
