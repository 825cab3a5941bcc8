"""The SQL store: one engine per process, the schema brought to head before first use."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager

from sqlalchemy import Engine
from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError, DBAPIError, SQLAlchemyError
from sqlalchemy.orm import Session, sessionmaker

from cleveragents.adapters.persistence import migrations
from cleveragents.adapters.persistence.database import (
    make_engine,
    make_session_factory,
    opens_read_only,
    sqlite_file_path,
)
from cleveragents.adapters.persistence.errors import (
    StoreUnavailableError,
    one_line,
    operational_error,
)


class SqlStore:
    def __init__(self, url: str, auto_migrate: bool = True) -> None:
        self.url = url
        self._auto_migrate = auto_migrate
        self._engine: Engine | None = None
        self._sessions: sessionmaker[Session] | None = None
        self._lock = threading.Lock()

    @property
    def engine(self) -> Engine:
        with self._lock, _operational_errors(self.url):
            if self._engine is None:
                self._engine = make_engine(self.url)
            return self._engine

    @property
    def sessions(self) -> sessionmaker[Session]:
        """The session factory; the first call upgrades the schema to head if it is behind."""
        engine = self.engine
        with self._lock, _operational_errors(self.url):
            if self._sessions is None:
                if self._auto_migrate and self.read_only:
                    self._check_at_head(engine)
                elif self._auto_migrate:
                    migrations.ensure_at_head(engine)
                self._sessions = make_session_factory(engine)
            return self._sessions

    @property
    def read_only(self) -> bool:
        """The database is opened read-only (a file this process may not write, or a URL
        with ``?mode=ro``): reads work, every write fails with `StoreUnavailableError`."""
        return opens_read_only(self.url)

    def _check_at_head(self, engine: Engine) -> None:
        current = migrations.current_revision(engine)
        head = migrations.head_revision_of_code()
        if current != head:
            raise StoreUnavailableError(
                f"the database {self.display_url()} is read-only and its schema is at "
                f"{current or 'none (empty database)'}, not {head}: it cannot be upgraded; "
                "make it writable and run `agents db upgrade`"
            )

    def display_url(self) -> str:
        """The URL with any password hidden."""
        return make_url(self.url).render_as_string(hide_password=True)

    def current_revision(self) -> str | None:
        """The schema revision; None for an empty database, or a SQLite file not yet created
        (which this does not create)."""
        sqlite_file = sqlite_file_path(self.url)
        if sqlite_file is not None and not sqlite_file.exists():
            return None
        with _operational_errors(self.url):
            return migrations.current_revision(self.engine)

    def head_revision(self) -> str | None:
        with _operational_errors(self.url):
            return migrations.head_revision_of_code()

    def upgrade(self) -> str | None:
        """Bring the schema to head; return the revision it is now at."""
        with _operational_errors(self.url):
            migrations.ensure_at_head(self.engine)
            return migrations.current_revision(self.engine)

    def dispose(self) -> None:
        with self._lock:
            if self._engine is not None:
                self._engine.dispose()
            self._engine = None
            self._sessions = None


@contextmanager
def _operational_errors(url: str) -> Iterator[None]:
    """Failures to reach, open or migrate the store become `StoreUnavailableError` (exit 1), in
    one line naming the database with its password hidden."""
    try:
        yield
    except ModuleNotFoundError as error:
        raise StoreUnavailableError(
            f"the database driver {error.name!r} for this URL is not installed"
        ) from error
    except DBAPIError as error:  # even a broken constraint: the schema's, not the input's
        failed = f"cannot open the database {_display(url)}"
        raise operational_error(error, failed) from error
    except (OSError, SQLAlchemyError) as error:
        raise StoreUnavailableError(
            f"cannot open the database {_display(url)}: {one_line(error)}"
        ) from error


def _display(url: str) -> str:
    try:
        return make_url(url).render_as_string(hide_password=True)
    except ArgumentError:
        return repr(url)
