"""Engines and sessions, with the SQLite settings that make an embedded store safe to share.

SQLite: WAL, foreign keys on, a busy timeout, and every transaction begins with
``BEGIN IMMEDIATE``. A deferred BEGIN takes the write lock only at the first write; two such
transactions that both read first then both write deadlock, and SQLite fails one at once with
"database is locked" whatever the busy timeout. Taking the lock at BEGIN makes the second writer
wait its turn instead. The price: transactions, reads included, run one at a time; they are
short, and the busy timeout makes the next one wait rather than fail.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from sqlalchemy import Engine, create_engine, event
from sqlalchemy.engine import URL, make_url
from sqlalchemy.exc import ArgumentError
from sqlalchemy.orm import Session, sessionmaker

from cleveragents.domain.errors import InvalidInputError

BUSY_TIMEOUT_MS = 30_000
DATABASE_FILENAME = "cleveragents.db"


def default_home() -> Path:
    """``$CLEVERAGENTS_HOME``, else ``~/.cleveragents``."""
    configured = os.environ.get("CLEVERAGENTS_HOME")
    return Path(configured).expanduser() if configured else Path.home() / ".cleveragents"


def resolve_database_url(explicit: str | None = None, home: Path | None = None) -> str:
    """``--db`` > ``$CLEVERAGENTS_DATABASE_URL`` > the SQLite file under the home directory
    (`home`, else ``$CLEVERAGENTS_HOME``, else ``~/.cleveragents``)."""
    if explicit:
        return explicit
    configured = os.environ.get("CLEVERAGENTS_DATABASE_URL")
    if configured:
        return configured
    return f"sqlite:///{(home or default_home()) / DATABASE_FILENAME}"


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


def make_engine(url: str) -> Engine:
    parsed = _parse(url)
    if parsed.get_backend_name() != "sqlite":
        return create_engine(parsed, pool_pre_ping=True)

    sqlite_file = sqlite_file_path(url)
    if sqlite_file is not None:
        sqlite_file.parent.mkdir(parents=True, exist_ok=True)
    engine = create_engine(parsed, connect_args={"timeout": BUSY_TIMEOUT_MS / 1000})
    _configure_sqlite(engine)
    return engine


def _configure_sqlite(engine: Engine) -> None:
    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: Any) -> None:
        # Let SQLAlchemy's "begin" event below emit BEGIN itself, instead of the sqlite3 module's
        # implicit, deferred BEGIN.
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
        cursor.execute("PRAGMA synchronous=NORMAL")
        cursor.close()

    @event.listens_for(engine, "begin")
    def _on_begin(connection: Any) -> None:
        connection.exec_driver_sql("BEGIN IMMEDIATE")


def make_session_factory(engine: Engine) -> sessionmaker[Session]:
    return sessionmaker(bind=engine, expire_on_commit=False, autoflush=False)
