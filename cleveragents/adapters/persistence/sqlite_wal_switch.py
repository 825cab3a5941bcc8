"""Switching a SQLite file to WAL, patient with the locks of other processes' first uses.

Most lock waits in SQLite go through the busy handler (the busy timeout), but some do not:
where waiting could deadlock, SQLite answers BUSY ("database is locked") at once. Switching the
journal mode meets such places when several processes open a new database together: another
connection may be switching the same file to WAL, or recovering its WAL index, at that moment.
The switch is then tried again, after short growing pauses, until the patience is spent.
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Callable

FIRST_PAUSE_SECONDS = 0.001
LONGEST_PAUSE_SECONDS = 0.1

__all__ = ["FIRST_PAUSE_SECONDS", "LONGEST_PAUSE_SECONDS", "switch_to_wal"]


def switch_to_wal(
    connection: sqlite3.Connection,
    *,
    patience_seconds: float,
    pause: Callable[[float], None] = time.sleep,
    clock: Callable[[], float] = time.monotonic,
) -> None:
    """Run ``PRAGMA journal_mode=WAL`` on `connection`, again while SQLite answers BUSY.

    BUSY returned without calling the busy handler lasts only as long as the other connection's
    switch or recovery, so waiting it out is safe. Pauses start at `FIRST_PAUSE_SECONDS` and
    double up to `LONGEST_PAUSE_SECONDS`; once `patience_seconds` (measured by `clock`) have
    passed, the last BUSY error goes up. Any other error (a file that is not a database, a disk
    that is full) goes up at once: waiting would not cure it.
    """
    started = clock()
    next_pause = FIRST_PAUSE_SECONDS
    while True:
        try:
            connection.execute("PRAGMA journal_mode=WAL").close()
            return
        except sqlite3.OperationalError as error:
            remaining = patience_seconds - (clock() - started)
            if not _is_busy(error) or remaining <= 0:
                raise
        pause(min(next_pause, remaining))
        next_pause = min(next_pause * 2, LONGEST_PAUSE_SECONDS)


def _is_busy(error: sqlite3.OperationalError) -> bool:
    # The code is SQLite's extended one (SQLITE_BUSY_RECOVERY, SQLITE_BUSY_SNAPSHOT, ...): its
    # low byte is the primary code.
    code = getattr(error, "sqlite_errorcode", None)
    return isinstance(code, int) and code & 0xFF == sqlite3.SQLITE_BUSY
