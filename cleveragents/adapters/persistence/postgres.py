"""PostgreSQL engines: the psycopg 3 driver, and timeouts so that no statement waits forever.

A plain ``postgresql://`` (or ``postgres://``) URL means psycopg 3, the driver the ``postgres``
extra installs (SQLAlchemy alone would pick psycopg2); a URL that names a driver
(``postgresql+psycopg2://``) keeps it.

Every connection is given a ``lock_timeout`` (how long a statement may wait for a lock another
transaction holds: a row being decided on, a table being migrated) and a ``statement_timeout``
(how long any statement may run). Each comes from the URL's query (``?lock_timeout=5s``, taken
out before the URL reaches the driver), else its environment variable, else its default; a
value is PostgreSQL's: milliseconds, or a number with ``ms``, ``s``, ``min`` or ``h``, ``0``
meaning no limit. They are set once per connection (``set_config``, committed), not as a startup
option, because connection poolers such as PgBouncer refuse startup options.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Engine, create_engine, event
from sqlalchemy.engine import URL

from cleveragents.domain.errors import InvalidInputError

LOCK_TIMEOUT_ENV = "CLEVERAGENTS_DB_LOCK_TIMEOUT"
STATEMENT_TIMEOUT_ENV = "CLEVERAGENTS_DB_STATEMENT_TIMEOUT"
DEFAULT_LOCK_TIMEOUT = "10s"
DEFAULT_STATEMENT_TIMEOUT = "60s"

INSTALL_HINT = (
    "pip install -e '.[postgres]' in a checkout, or "
    "'dist/cleveragents-VERSION-py3-none-any.whl[postgres]'"
)
_DEFAULT_DRIVER = "postgresql+psycopg"
_PLAIN_DRIVERS = frozenset({"postgresql", "postgres"})
_DURATION = re.compile(r"(\d+)\s*(ms|s|min|h)?")


@dataclass(frozen=True)
class Timeouts:
    """The per-connection limits, as PostgreSQL durations ("10s", "500ms", "0")."""

    lock: str
    statement: str


def is_postgres_url(url: URL) -> bool:
    return url.get_backend_name() in _PLAIN_DRIVERS


def driver_url(url: URL) -> URL:
    """The URL the driver is given: psycopg 3 unless one is named; our own query keys taken out."""
    if url.drivername in _PLAIN_DRIVERS:
        url = url.set(drivername=_DEFAULT_DRIVER)
    return url.difference_update_query(["lock_timeout", "statement_timeout"])


def timeouts_of(url: URL) -> Timeouts:
    """The URL's query, else the environment, else the defaults; a malformed value is refused."""
    return Timeouts(
        lock=_duration(url, "lock_timeout", LOCK_TIMEOUT_ENV, DEFAULT_LOCK_TIMEOUT),
        statement=_duration(
            url, "statement_timeout", STATEMENT_TIMEOUT_ENV, DEFAULT_STATEMENT_TIMEOUT
        ),
    )


def _duration(url: URL, key: str, variable: str, default: str) -> str:
    given = url.query.get(key)
    if isinstance(given, tuple):  # the key given twice: the last one counts, as in libpq
        given = given[-1]
    source = f"the URL's {key}"
    if given is None:
        given, source = os.environ.get(variable), f"${variable}"
    if not given:
        return default
    match = _DURATION.fullmatch(given.strip())
    if match is None:
        raise InvalidInputError(
            f"invalid {key} {given!r} (from {source}): give milliseconds or a number with "
            "ms, s, min or h, such as 10s; 0 means no limit"
        )
    number, unit = match.groups()
    return f"{int(number)}{unit or 'ms'}"


def make_postgres_engine(url: URL) -> Engine:
    """An engine for a PostgreSQL URL; a missing driver is one line naming the extra."""
    timeouts = timeouts_of(url)
    target = driver_url(url)
    try:
        engine = create_engine(target, pool_pre_ping=True)
    except ModuleNotFoundError as error:
        raise InvalidInputError(_missing_driver(target, error)) from error
    _set_timeouts_on_connect(engine, timeouts)
    return engine


def _missing_driver(url: URL, error: ModuleNotFoundError) -> str:
    if url.drivername == _DEFAULT_DRIVER:
        return f"the PostgreSQL driver psycopg is not installed: {INSTALL_HINT}"
    return (
        f"the PostgreSQL driver {error.name!r} named by {url.drivername}:// is not installed: "
        f"install it, or use a postgresql:// URL after {INSTALL_HINT}"
    )


def _set_timeouts_on_connect(engine: Engine, timeouts: Timeouts) -> None:
    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: Any) -> None:
        cursor = dbapi_connection.cursor()
        try:
            cursor.execute(
                "SELECT set_config('lock_timeout', %s, false),"
                " set_config('statement_timeout', %s, false)",
                (timeouts.lock, timeouts.statement),
            )
        finally:
            cursor.close()
        # The driver opened a transaction for the query: a rollback would undo the settings.
        dbapi_connection.commit()
