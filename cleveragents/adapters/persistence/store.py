"""The SQL store: one engine per process, the schema brought to head before first use."""

from __future__ import annotations

import threading

from sqlalchemy import Engine
from sqlalchemy.orm import Session, sessionmaker

from cleveragents.adapters.persistence import migrations
from cleveragents.adapters.persistence.database import make_engine, make_session_factory


class SqlStore:
    def __init__(self, url: str, auto_migrate: bool = True) -> None:
        self.url = url
        self._auto_migrate = auto_migrate
        self._engine: Engine | None = None
        self._sessions: sessionmaker[Session] | None = None
        self._lock = threading.Lock()

    @property
    def engine(self) -> Engine:
        with self._lock:
            if self._engine is None:
                self._engine = make_engine(self.url)
            return self._engine

    @property
    def sessions(self) -> sessionmaker[Session]:
        """The session factory; the first call upgrades the schema to head if it is behind."""
        engine = self.engine
        with self._lock:
            if self._sessions is None:
                if self._auto_migrate:
                    migrations.ensure_at_head(engine)
                self._sessions = make_session_factory(engine)
            return self._sessions

    def dispose(self) -> None:
        with self._lock:
            if self._engine is not None:
                self._engine.dispose()
            self._engine = None
            self._sessions = None
