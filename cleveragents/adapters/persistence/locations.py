"""Where the store lives: the home directory and the database URL, decided without SQLAlchemy.

Kept apart from `database.py` (engines and sessions) because a command that opens no database,
or has not opened it yet, must not pay for importing SQLAlchemy to learn a path.
"""

from __future__ import annotations

import os
from pathlib import Path

DATABASE_FILENAME = "cleveragents.db"
HOME_ENV = "CLEVERAGENTS_HOME"
DATABASE_URL_ENV = "CLEVERAGENTS_DATABASE_URL"


def default_home() -> Path:
    """``$CLEVERAGENTS_HOME``, else ``~/.cleveragents``."""
    configured = os.environ.get(HOME_ENV)
    return Path(configured).expanduser() if configured else Path.home() / ".cleveragents"


def explicit_database_url(explicit: str | None = None) -> str | None:
    """The database named by the user: ``--db``, else ``$CLEVERAGENTS_DATABASE_URL``; None
    when the store is the home's."""
    return explicit or os.environ.get(DATABASE_URL_ENV) or None


def home_database_url(home: Path | None = None) -> str:
    """The SQLite file under the home directory (`home`, else `default_home()`)."""
    return f"sqlite:///{(home or default_home()) / DATABASE_FILENAME}"


def resolve_database_url(explicit: str | None = None, home: Path | None = None) -> str:
    """``--db`` > ``$CLEVERAGENTS_DATABASE_URL`` > the SQLite file under the home directory
    (`home`, else ``$CLEVERAGENTS_HOME``, else ``~/.cleveragents``)."""
    return explicit_database_url(explicit) or home_database_url(home)
