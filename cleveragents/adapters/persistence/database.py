"""Engines and sessions, with the SQLite settings that make an embedded store safe to share.

SQLite: WAL, foreign keys on, a busy timeout, and every transaction begins with
``BEGIN IMMEDIATE``. A deferred BEGIN takes the write lock only at the first write; two such
transactions that both read first then both write deadlock, and SQLite fails one at once with
"database is locked" whatever the busy timeout. Taking the lock at BEGIN makes the second writer
wait its turn instead. The price: transactions, reads included, run one at a time; they are
short, and the busy timeout makes the next one wait rather than fail. The switch to WAL is
tried again while SQLite answers BUSY without waiting, as it may when several processes open a
new database at once (`sqlite_wal_switch`).

A SQLite file that this process may not write (``os.access``), or a URL that asks for it with
``?mode=ro``, is opened read-only (SQLite's ``mode=ro``): reading commands work on it, and every
write fails with "attempt to write a readonly database" instead of the file being changed. (Root
passes every ``os.access`` check; ``?mode=ro`` is how root reads a store without writing it.)

Where the file lives: the directory of the default database (``$CLEVERAGENTS_HOME``, else
``~/.cleveragents``) is created, 0700; the directory of a database named explicitly (``--db``,
``$CLEVERAGENTS_DATABASE_URL``) must exist, since a typo there would otherwise silently start an
empty store. A new database file is created 0600 (SQLite gives its ``-wal`` and ``-shm`` files
the database's mode). Existing directories and files keep their modes.

PostgreSQL (the psycopg 3 driver, its timeouts) is `postgres`' to open.
"""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path
from typing import Any
from urllib.parse import quote

from sqlalchemy import Engine, create_engine, event
from sqlalchemy.engine import URL, make_url
from sqlalchemy.exc import ArgumentError
from sqlalchemy.orm import Session, sessionmaker

from cleveragents.adapters.files.private_directories import make_private_directory
from cleveragents.adapters.persistence.locations import (
    DATABASE_FILENAME,
    default_home,
    resolve_database_url,
)
from cleveragents.adapters.persistence.postgres import is_postgres_url, make_postgres_engine
from cleveragents.adapters.persistence.sqlite_wal_switch import switch_to_wal
from cleveragents.domain.errors import InvalidInputError

BUSY_TIMEOUT_MS = 30_000

__all__ = [  # where the store lives is decided in `locations`; named here too for callers
    "BUSY_TIMEOUT_MS",
    "DATABASE_FILENAME",
    "default_home",
    "make_engine",
    "make_session_factory",
    "opens_read_only",
    "resolve_database_url",
    "sqlite_file_path",
]


def _parse(url: str) -> URL:
    try:
        return make_url(url)
    except ArgumentError as exc:
        raise InvalidInputError(f"invalid database URL {url!r}: {exc}") from exc


def sqlite_file_path(url: str) -> Path | None:
    """The file of a file-backed SQLite URL, else None (servers, ``:memory:``, ``file:`` URIs)."""
    parsed = _parse(url)
    database = parsed.database
    if parsed.get_backend_name() != "sqlite" or not database or database == ":memory:":
        return None
    if database.startswith("file:"):
        return None
    return Path(database).expanduser()


def opens_read_only(url: str) -> bool:
    """Whether `make_engine` opens this SQLite database read-only (see the module docstring)."""
    parsed = _parse(url)
    if parsed.get_backend_name() != "sqlite":
        return False
    if parsed.query.get("mode") == "ro":
        return True
    sqlite_file = sqlite_file_path(url)
    return sqlite_file is not None and sqlite_file.exists() and not os.access(sqlite_file, os.W_OK)


def make_engine(url: str) -> Engine:
    parsed = _parse(url)
    if is_postgres_url(parsed):
        return make_postgres_engine(parsed)
    if parsed.get_backend_name() != "sqlite":
        return create_engine(parsed, pool_pre_ping=True)

    read_only = opens_read_only(url)
    sqlite_file = sqlite_file_path(url)
    connect_args: dict[str, Any] = {"timeout": BUSY_TIMEOUT_MS / 1000}
    if sqlite_file is None:
        engine = create_engine(parsed, connect_args=connect_args)
    elif read_only:
        # SQLAlchemy passes `mode` on only in its `file:` URI form; the plain form is opened
        # here, as the URI SQLite reads `mode=ro` from.
        uri = f"file:{quote(str(sqlite_file.absolute()))}?mode=ro"
        engine = create_engine(
            parsed.difference_update_query(["mode"]),
            creator=lambda: sqlite3.connect(uri, uri=True, check_same_thread=False, **connect_args),
        )
    else:
        _prepare_sqlite_file(url, sqlite_file)
        engine = create_engine(parsed, connect_args=connect_args)
    _configure_sqlite(engine, read_only=read_only)
    return engine


def _prepare_sqlite_file(url: str, sqlite_file: Path) -> None:
    """The default database's directory is made (private); an explicit one must exist. A new
    file is created 0600 before SQLite opens it (SQLite would create it 0644)."""
    directory = sqlite_file.parent
    if not directory.exists():
        if sqlite_file.absolute() != (default_home() / DATABASE_FILENAME).absolute():
            raise InvalidInputError(
                f"the database directory {directory} does not exist (database URL "
                f"{_display(url)}); create it first or choose another --db"
            )
        make_private_directory(directory)
    # (A directory that is a file fails below, as the machine refusing: exit 1.)
    try:
        fd = os.open(sqlite_file, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o600)
    except FileExistsError:
        return  # an existing database keeps its mode
    os.close(fd)  # an empty file is an empty SQLite database


def _display(url: str) -> str:
    return _parse(url).render_as_string(hide_password=True)


def _configure_sqlite(engine: Engine, *, read_only: bool) -> None:
    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: Any) -> None:
        # Let SQLAlchemy's "begin" event below emit BEGIN itself, instead of the sqlite3 module's
        # implicit, deferred BEGIN.
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        # The busy timeout first, so that the WAL switch's ordinary lock waits use it however
        # the connection was made (the driver's `timeout` sets it too, on both paths above).
        cursor.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
        if not read_only:  # a read-only file keeps the journal mode it has
            switch_to_wal(dbapi_connection, patience_seconds=BUSY_TIMEOUT_MS / 1000)
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute("PRAGMA synchronous=NORMAL")
        cursor.close()

    # A read-only connection cannot take the write lock: its transactions begin deferred.
    begin = "BEGIN" if read_only else "BEGIN IMMEDIATE"

    @event.listens_for(engine, "begin")
    def _on_begin(connection: Any) -> None:
        connection.exec_driver_sql(begin)


def make_session_factory(engine: Engine) -> sessionmaker[Session]:
    return sessionmaker(bind=engine, expire_on_commit=False, autoflush=False)
