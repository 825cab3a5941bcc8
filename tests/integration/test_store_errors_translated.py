"""The SQL adapters raise the domain's errors, never SQLAlchemy's: a database whose table was
dropped fails as `StoreUnavailableError`, and the CLI prints one line and exits 1."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy import create_engine, text

from cleveragents.adapters.persistence.event_log import SqlEventLog
from cleveragents.adapters.persistence.usage_repository import SqlUsageLedger
from cleveragents.container import Container
from cleveragents.domain.errors import StoreUnavailableError
from cleveragents.domain.event import CONTEXT_COMPACTED
from tests.e2e.cli_runner import run
from tests.fakes import FixedClock


def _drop(database_url: str, table: str) -> None:
    engine = create_engine(database_url)  # a plain engine: the store's own would migrate
    try:
        with engine.begin() as connection:
            connection.execute(text(f"DROP TABLE {table}"))
    finally:
        engine.dispose()


def _missing(table: str) -> str:
    """The error each backend reports for a table that is not there."""
    return f'no such table: {table}|relation "{table}" does not exist'


def test_the_event_log_without_its_table(container: Container, database_url: str) -> None:
    log = SqlEventLog(container.store().sessions, FixedClock())
    _drop(database_url, "events")
    with pytest.raises(StoreUnavailableError, match=_missing("events")):
        log.emit(CONTEXT_COMPACTED, {"tokens_before": 2, "tokens_after": 1})
    with pytest.raises(StoreUnavailableError, match=_missing("events")):
        log.recorded()


def test_the_usage_ledger_without_its_table(container: Container, database_url: str) -> None:
    ledger = SqlUsageLedger(container.store().sessions)
    _drop(database_url, "usage_records")
    with pytest.raises(StoreUnavailableError, match=_missing("usage_records")):
        ledger.totals()
    with pytest.raises(StoreUnavailableError, match=_missing("usage_records")):
        ledger.records()


def test_the_cli_on_a_missing_events_table_prints_one_line_and_exits_1(
    capsys: pytest.CaptureFixture[str], home: Path, tmp_path: Path
) -> None:
    database_url = f"sqlite:///{tmp_path / 'no-events.db'}"
    assert run(capsys, "--db", database_url, "db", "upgrade").exit_code == 0
    _drop(database_url, "events")

    result = run(capsys, "--db", database_url, "metrics", "show")

    assert result.exit_code == 1, result
    assert result.stderr == "error: database error: no such table: events\n"
    assert result.stdout == ""


def test_any_error_the_database_reports_in_a_unit_of_work_is_translated(
    container: Container,
) -> None:
    # A missing table is a ProgrammingError on PostgreSQL, not an OperationalError as on
    # SQLite: every error the database reports leaves the unit of work as the domain's.
    from sqlalchemy.exc import ProgrammingError

    with pytest.raises(StoreUnavailableError, match="relation missing"), container.unit_of_work():
        raise ProgrammingError("SELECT * FROM missing", {}, Exception("relation missing"))
