"""The switch to WAL waits out BUSY answers, on real SQLite files and a second real connection.

The connection under test has no busy timeout, so a lock held by the second connection fails its
switch at once, as SQLite's BUSY-without-waiting does when several processes open a new database
together. The pause and the clock are injected: the pause is where the test releases the lock or
lets time pass, so no real time passes and nothing depends on timing.
"""

from __future__ import annotations

import random
import sqlite3
from collections.abc import Callable, Iterator
from contextlib import closing
from pathlib import Path

import pytest

from cleveragents.adapters.persistence.database import make_engine
from cleveragents.adapters.persistence.sqlite_wal_switch import (
    FIRST_PAUSE_SECONDS,
    LONGEST_PAUSE_SECONDS,
    switch_to_wal,
)


def _journal_mode(path: Path) -> str:
    with closing(sqlite3.connect(path)) as connection:
        mode: str = connection.execute("PRAGMA journal_mode").fetchone()[0]
        return mode


@pytest.fixture
def rollback_database(tmp_path: Path) -> Path:
    """A database with one table, in SQLite's default rollback-journal mode."""
    path = tmp_path / "store.db"
    with closing(sqlite3.connect(path)) as connection:
        connection.execute("CREATE TABLE notes (body TEXT)")
        connection.commit()
    assert _journal_mode(path) == "delete"
    return path


@pytest.fixture
def lock_holder(rollback_database: Path) -> Iterator[sqlite3.Connection]:
    """A second connection holding the file's exclusive lock until the test commits."""
    with closing(sqlite3.connect(rollback_database, isolation_level=None)) as holder:
        holder.execute("BEGIN EXCLUSIVE")
        yield holder
        if holder.in_transaction:
            holder.execute("ROLLBACK")


def _impatient_connection(path: Path, *, uri: bool = False) -> sqlite3.Connection:
    # timeout=0: no busy handler, so each attempt meets the held lock at once.
    return sqlite3.connect(path, timeout=0, isolation_level=None, uri=uri)


class _FakeTime:
    """A clock that moves only when paused, recording each pause."""

    def __init__(self) -> None:
        self.now = 1000.0
        self.pauses: list[float] = []

    def clock(self) -> float:
        return self.now

    def pause(self, seconds: float) -> None:
        # A switch that never gives up fails here instead of hanging the test run.
        assert len(self.pauses) < 10_000, "still pausing after 10,000 pauses"
        self.pauses.append(seconds)
        self.now += seconds


def test_the_switch_succeeds_once_the_other_connection_lets_go(
    rollback_database: Path, lock_holder: sqlite3.Connection
) -> None:
    time = _FakeTime()

    def pause_then_release_on_the_second(seconds: float) -> None:
        time.pause(seconds)
        if len(time.pauses) == 2:
            lock_holder.execute("COMMIT")

    with closing(_impatient_connection(rollback_database)) as connection:
        switch_to_wal(
            connection,
            patience_seconds=30.0,
            pause=pause_then_release_on_the_second,
            clock=time.clock,
        )
        assert connection.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert time.pauses == [FIRST_PAUSE_SECONDS, 2 * FIRST_PAUSE_SECONDS]  # short, growing
    assert _journal_mode(rollback_database) == "wal"  # the file itself, seen afresh


def test_a_lock_never_let_go_raises_the_busy_error_once_the_patience_is_spent(
    rollback_database: Path, lock_holder: sqlite3.Connection
) -> None:
    time = _FakeTime()
    patience = 1.5
    with (
        closing(_impatient_connection(rollback_database)) as connection,
        pytest.raises(sqlite3.OperationalError, match="database is locked") as raised,
    ):
        switch_to_wal(connection, patience_seconds=patience, pause=time.pause, clock=time.clock)
    assert raised.value.sqlite_errorcode == sqlite3.SQLITE_BUSY
    # It waited exactly its patience, in pauses that grow to the longest and never beyond it.
    assert sum(time.pauses) == pytest.approx(patience)
    growing = time.pauses[:-1]  # the last is cut to what is left of the patience
    assert growing[0] == FIRST_PAUSE_SECONDS
    assert growing == sorted(growing)
    assert max(time.pauses) == LONGEST_PAUSE_SECONDS
    assert lock_holder.in_transaction
    lock_holder.execute("ROLLBACK")
    assert _journal_mode(rollback_database) == "delete"


def _not_a_database(tmp_path: Path) -> tuple[Path, bool]:
    path = tmp_path / "noise.db"
    path.write_bytes(random.Random(7).randbytes(8192))
    return path, False


def _read_only_database(tmp_path: Path) -> tuple[Path, bool]:
    path = tmp_path / "shelf.db"
    with closing(sqlite3.connect(path)) as connection:
        connection.execute("CREATE TABLE notes (body TEXT)")
        connection.commit()
    return Path(f"file:{path}?mode=ro"), True


@pytest.mark.parametrize(
    ("make_file", "expected"),
    [
        (_not_a_database, "file is not a database"),
        (_read_only_database, "attempt to write a readonly database"),
    ],
    ids=["not-a-database", "read-only"],
)
def test_errors_other_than_busy_go_up_at_once_never_retried(
    tmp_path: Path,
    make_file: Callable[[Path], tuple[Path, bool]],
    expected: str,
) -> None:
    time = _FakeTime()
    path, uri = make_file(tmp_path)
    with (
        closing(_impatient_connection(path, uri=uri)) as connection,
        pytest.raises(sqlite3.DatabaseError, match=expected),
    ):
        switch_to_wal(connection, patience_seconds=30.0, pause=time.pause, clock=time.clock)
    assert time.pauses == []


def test_an_engine_opens_a_new_database_in_wal_with_its_busy_timeout(tmp_path: Path) -> None:
    path = tmp_path / "fresh.db"
    engine = make_engine(f"sqlite:///{path}")
    try:
        with engine.connect() as connection:
            assert connection.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
            assert connection.exec_driver_sql("PRAGMA busy_timeout").scalar() == 30_000
            assert connection.exec_driver_sql("PRAGMA foreign_keys").scalar() == 1
    finally:
        engine.dispose()
    assert _journal_mode(path) == "wal"
