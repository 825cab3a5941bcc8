"""Serialization failures and deadlocks (SQLSTATE 40001, 40P01) are retried by the unit of work:
the whole transaction again, from a fresh session, a few times with jittered backoff.

Injected failures (the driver's real error types, on a real SQLite store) check the policy; two
transactions that lock two plans in opposite orders on PostgreSQL check it on a real deadlock.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import psycopg.errors
import pytest
from sqlalchemy.exc import OperationalError

from cleveragents.adapters.persistence.errors import TransientStoreError
from cleveragents.adapters.persistence.store import SqlStore
from cleveragents.adapters.persistence.unit_of_work import (
    BACKOFF_BASE_SECONDS,
    TRANSACTION_ATTEMPTS,
    SqlaUnitOfWork,
)
from cleveragents.domain.errors import StoreUnavailableError
from cleveragents.domain.plan import Plan
from cleveragents.domain.project import Project
from tests.postgres_databases import empty_database, server_url


def _database_refusal(error: type[psycopg.Error], message: str) -> OperationalError:
    """What SQLAlchemy raises when PostgreSQL rolls the transaction back with `error`."""
    return OperationalError("UPDATE plans SET ...", {}, error(message))


@pytest.fixture
def sqlite_store(tmp_path: Path) -> Iterator[SqlStore]:
    store = SqlStore(f"sqlite:///{tmp_path / 'retries.db'}")
    yield store
    store.dispose()


def _failing_then_storing(
    failures: list[OperationalError], name: str
) -> Callable[[SqlaUnitOfWork], str]:
    """Work that adds a project, after raising each of `failures` in turn (one per attempt)."""
    remaining = list(failures)

    def work(uow: SqlaUnitOfWork) -> str:
        project = Project(name=name)
        uow.projects.add(project)
        if remaining:
            raise remaining.pop(0)
        uow.commit()
        return project.id

    return work


@pytest.mark.parametrize(
    ("error", "message"),
    [
        (psycopg.errors.SerializationFailure, "could not serialize access"),
        (psycopg.errors.DeadlockDetected, "deadlock detected"),
    ],
)
def test_a_transient_failure_is_retried_until_the_work_succeeds(
    sqlite_store: SqlStore, error: type[psycopg.Error], message: str
) -> None:
    pauses: list[float] = []
    uow = SqlaUnitOfWork(sqlite_store.sessions, pause=pauses.append)
    failures = [_database_refusal(error, message) for _ in range(TRANSACTION_ATTEMPTS - 1)]

    project_id = uow.run(_failing_then_storing(failures, "kept"))

    with uow:  # the failed attempts left nothing behind: one project, the last attempt's
        assert [project.id for project in uow.projects.list()] == [project_id]
    assert len(pauses) == TRANSACTION_ATTEMPTS - 1
    for attempt, pause in enumerate(pauses, start=1):
        assert 0 <= pause <= BACKOFF_BASE_SECONDS * 2 ** (attempt - 1)


def test_after_the_last_attempt_the_failure_is_one_line_saying_so(sqlite_store: SqlStore) -> None:
    pauses: list[float] = []
    uow = SqlaUnitOfWork(sqlite_store.sessions, pause=pauses.append)
    failures = [
        _database_refusal(psycopg.errors.DeadlockDetected, "deadlock detected\nDETAIL: ...")
        for _ in range(TRANSACTION_ATTEMPTS)
    ]

    with pytest.raises(TransientStoreError) as raised:
        uow.run(_failing_then_storing(failures, "lost"))

    assert str(raised.value) == (
        f"database error: deadlock detected DETAIL: ... "
        f"(the transaction was tried {TRANSACTION_ATTEMPTS} times)"
    )
    assert isinstance(raised.value, StoreUnavailableError)  # operational: exit 1
    assert len(pauses) == TRANSACTION_ATTEMPTS - 1
    with uow:
        assert uow.projects.list() == []


def test_other_failures_are_not_retried(sqlite_store: SqlStore) -> None:
    pauses: list[float] = []
    uow = SqlaUnitOfWork(sqlite_store.sessions, pause=pauses.append)
    failures = [_database_refusal(psycopg.errors.DiskFull, "could not extend file")]

    with pytest.raises(StoreUnavailableError, match="could not extend file") as raised:
        uow.run(_failing_then_storing(failures, "lost"))

    assert not isinstance(raised.value, TransientStoreError)
    assert pauses == []


@pytest.fixture
def postgres_store() -> Iterator[SqlStore]:
    with empty_database(server_url()) as url:
        store = SqlStore(url)
        yield store
        store.dispose()


def test_a_real_deadlock_is_retried_and_both_transactions_commit(
    postgres_store: SqlStore,
) -> None:
    project = Project(name="deadlock")
    first, second = Plan(project_id=project.id, title="a"), Plan(project_id=project.id, title="b")
    with SqlaUnitOfWork(postgres_store.sessions) as uow:
        uow.projects.add(project)
        uow.plans.add(first)
        uow.plans.add(second)
        uow.commit()
    # Each transaction locks one plan, waits until the other has locked the other one, then
    # asks for it: PostgreSQL finds the cycle and rolls one of them back.
    both_hold_one = threading.Barrier(2)
    attempts = {"forward": 0, "backward": 0}

    def lock_both(direction: str, order: tuple[Plan, Plan]) -> Callable[[SqlaUnitOfWork], str]:
        def work(uow: SqlaUnitOfWork) -> str:
            attempts[direction] += 1
            assert uow.plans.lock_exists(order[0].id)
            if attempts[direction] == 1:
                both_hold_one.wait(timeout=60)
            assert uow.plans.lock_exists(order[1].id)
            uow.commit()
            return direction

        return work

    works = [lock_both("forward", (first, second)), lock_both("backward", (second, first))]
    with ThreadPoolExecutor(max_workers=2) as pool:
        futures = [
            pool.submit(SqlaUnitOfWork(postgres_store.sessions, pause=lambda _: None).run, work)
            for work in works
        ]
        finished = sorted(future.result() for future in futures)

    assert finished == ["backward", "forward"]
    # The deadlock's victim ran again. On a loaded machine a lock timeout may roll back the
    # other one too, or the victim twice: what must hold is that a retry happened and both
    # transactions committed.
    assert max(attempts.values()) >= 2
    assert min(attempts.values()) >= 1
