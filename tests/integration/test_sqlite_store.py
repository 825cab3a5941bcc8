"""The embedded store's settings, checked on a real SQLite file."""

from __future__ import annotations

import multiprocessing
import sqlite3
from pathlib import Path

import pytest
from sqlalchemy import text

from cleveragents.adapters.persistence.database import (
    BUSY_TIMEOUT_MS,
    make_engine,
    resolve_database_url,
)
from cleveragents.container import Container, build_container


def test_connections_use_wal_foreign_keys_and_a_busy_timeout(tmp_path: Path) -> None:
    engine = make_engine(f"sqlite:///{tmp_path / 'p.db'}")
    try:
        with engine.connect() as connection:
            assert connection.execute(text("PRAGMA journal_mode")).scalar() == "wal"
            assert connection.execute(text("PRAGMA foreign_keys")).scalar() == 1
            assert connection.execute(text("PRAGMA busy_timeout")).scalar() == BUSY_TIMEOUT_MS
    finally:
        engine.dispose()


def test_a_transaction_takes_the_write_lock_at_begin(tmp_path: Path) -> None:
    """BEGIN IMMEDIATE: while a transaction is open, even before it writes, no other writer
    can begin; a deferred BEGIN would let both start and then deadlock."""
    path = tmp_path / "lock.db"
    engine = make_engine(f"sqlite:///{path}")
    try:
        with engine.begin() as connection:
            connection.execute(text("SELECT 1"))  # a read only
            other = sqlite3.connect(path, timeout=0, isolation_level=None)
            try:
                with pytest.raises(sqlite3.OperationalError, match="locked"):
                    other.execute("BEGIN IMMEDIATE")
            finally:
                other.close()
    finally:
        engine.dispose()


def test_foreign_keys_are_enforced(container: Container) -> None:
    from cleveragents.domain.errors import ConflictError
    from cleveragents.domain.ids import new_ulid
    from cleveragents.domain.plan import Plan

    def add_orphan() -> None:
        with container.unit_of_work() as uow:
            uow.plans.add(Plan(project_id=new_ulid(), title="orphan"))
            uow.commit()

    with pytest.raises(ConflictError, match=r"(?i)foreign key"):
        add_orphan()


def test_database_url_resolution_order(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("CLEVERAGENTS_HOME", str(tmp_path / "home"))
    monkeypatch.delenv("CLEVERAGENTS_DATABASE_URL", raising=False)
    assert resolve_database_url() == f"sqlite:///{tmp_path / 'home' / 'cleveragents.db'}"
    monkeypatch.setenv("CLEVERAGENTS_DATABASE_URL", "sqlite:///env.db")
    assert resolve_database_url() == "sqlite:///env.db"
    assert resolve_database_url("sqlite:///flag.db") == "sqlite:///flag.db"


def _record_decisions(url: str, home: str, plan_id: str, worker: int, count: int) -> None:
    container = build_container(url, home=Path(home))
    try:
        plans = container.plan_service()
        for index in range(count):
            plans.decide(
                plan_id,
                f"worker {worker} decision {index}",
                token_count=1,
                fragment_id=f"w{worker}-{index}",
            )
    finally:
        container.store().dispose()


@pytest.mark.slow
@pytest.mark.sqlite_only  # SQLite's BEGIN IMMEDIATE; test_backends_concurrency runs both backends
def test_concurrent_writers_from_several_processes_all_succeed(
    container: Container, database_url: str, home: Path
) -> None:
    """Each decision reads the plan's last position and then writes: with deferred BEGIN, two
    processes doing that at once fail with "database is locked"."""
    container.project_service().create("busy")
    plan = container.plan_service().create("busy", "shared plan")
    workers, per_worker = 4, 15
    context = multiprocessing.get_context("spawn")
    processes = [
        context.Process(
            target=_record_decisions, args=(database_url, str(home), plan.id, w, per_worker)
        )
        for w in range(workers)
    ]
    for process in processes:
        process.start()
    for process in processes:
        process.join(timeout=120)
    assert [p.exitcode for p in processes] == [0] * workers

    status = container.plan_service().status(plan.id)
    assert len(status.plan.fragments) == workers * per_worker
    assert len({f.fragment_id for f in status.plan.fragments}) == workers * per_worker
