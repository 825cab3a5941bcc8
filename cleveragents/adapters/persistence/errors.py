"""The persistence adapter's errors: callers never see SQLAlchemy's.

The errors are the domain's, each with a one-line message (a driver's message may span lines:
PostgreSQL adds DETAIL and HINT lines):

* a broken constraint (IntegrityError) is `ConflictError`, bad input (exit 2);
* a value the database refuses (DataError: a NUL byte in text, a number out of its column's
  range) is `InvalidInputError`, bad input (exit 2);
* a privilege the database role lacks (PostgreSQL's "permission denied") is
  `DatabasePrivilegeError`, bad input (exit 2), naming the privilege (see `privileges`);
* every other error the database reports (a lost connection, a lock or statement timeout, a
  missing table, a locked or damaged file) is `StoreUnavailableError`, operational (exit 1);
  a serialization failure or a deadlock is its subclass `TransientStoreError`, which the unit
  of work retries.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from sqlalchemy.exc import DataError, DBAPIError, IntegrityError
from sqlalchemy.exc import TimeoutError as PoolTimeoutError

from cleveragents.adapters.persistence.postgres import LOCK_TIMEOUT_ENV, STATEMENT_TIMEOUT_ENV
from cleveragents.adapters.persistence.privileges import DatabasePrivilegeError, privilege_error
from cleveragents.domain.errors import (
    CleverAgentsError,
    ConflictError,
    InvalidInputError,
    StoreUnavailableError,
)

__all__ = [
    "LOCK_NOT_AVAILABLE",
    "DatabasePrivilegeError",
    "StoreUnavailableError",
    "TransientStoreError",
    "database_errors_translated",
    "one_line",
    "operational_error",
    "sqlstate",
    "translated",
]

DEFAULT_CONFLICT = "the change conflicts with stored data"

# SQLSTATEs after which the same transaction, run again, may well succeed.
_TRANSIENT_STATES = frozenset({"40001", "40P01"})  # serialization_failure, deadlock_detected
LOCK_NOT_AVAILABLE = "55P03"
_QUERY_CANCELED = "57014"

_READ_ONLY_HINT = (
    " (it is opened read-only: a file this process may not write, or a URL with ?mode=ro; "
    "reading commands work, changes need a writable database)"
)
_LOCK_TIMEOUT_HINT = (
    " (another transaction held the lock longer than the lock timeout; it may be done now: "
    f"try again, or wait longer with ${LOCK_TIMEOUT_ENV} or the URL's ?lock_timeout=)"
)
_STATEMENT_TIMEOUT_HINT = (
    f" (allow longer with ${STATEMENT_TIMEOUT_ENV} or the URL's ?statement_timeout=)"
)


class TransientStoreError(StoreUnavailableError):
    """A serialization failure or a deadlock: the transaction was rolled back, and running it
    again may succeed."""


def one_line(message: object) -> str:
    return " ".join(str(message).split())


def sqlstate(error: DBAPIError) -> str | None:
    """The SQLSTATE the server gave (psycopg 3 and psycopg2 name it differently); None on
    SQLite, whose driver has none."""
    code = getattr(error.orig, "sqlstate", None) or getattr(error.orig, "pgcode", None)
    return code if isinstance(code, str) else None


def translated(
    error: BaseException, conflict: str = DEFAULT_CONFLICT, failed: str = "database error"
) -> CleverAgentsError | None:
    """The domain's error for a database error; None for anything else (a bug in a query, or
    an error that is already the domain's). An operational error's message starts with
    `failed`."""
    if isinstance(error, IntegrityError):
        return ConflictError(f"{conflict}: {one_line(error.orig)}")
    if isinstance(error, DataError):
        return InvalidInputError(f"the database refused a value: {one_line(error.orig)}")
    if isinstance(error, DBAPIError):
        return privilege_error(error, sqlstate(error), failed) or operational_error(error, failed)
    if isinstance(error, PoolTimeoutError):  # every connection busy for the pool's whole timeout
        return StoreUnavailableError(f"{failed}: {one_line(error)}")
    return None


def operational_error(
    error: DBAPIError, failed: str = "database error"
) -> StoreUnavailableError | DatabasePrivilegeError:
    """`StoreUnavailableError` (or `TransientStoreError`), whatever the error: where the
    database fails while being opened or migrated, not the input's fault; except a privilege
    the role lacks, which is the configuration's (`DatabasePrivilegeError`)."""
    state = sqlstate(error)
    refused = privilege_error(error, state, failed)
    if refused is not None:
        return refused
    message = f"{failed}: {one_line(error.orig)}"
    if state in _TRANSIENT_STATES:
        return TransientStoreError(message)
    if state == LOCK_NOT_AVAILABLE:
        return StoreUnavailableError(message + _LOCK_TIMEOUT_HINT)
    if state == _QUERY_CANCELED and "statement timeout" in message:
        return StoreUnavailableError(message + _STATEMENT_TIMEOUT_HINT)
    if "readonly database" in message:
        return StoreUnavailableError(message + _READ_ONLY_HINT)
    return StoreUnavailableError(message)


@contextmanager
def database_errors_translated(conflict: str = DEFAULT_CONFLICT) -> Iterator[None]:
    """Database errors raised inside become the domain's (see the module docstring), a broken
    constraint saying `conflict` before the database's words. SQLAlchemy's other errors are
    bugs in a query, and pass through."""
    try:
        yield
    except Exception as error:
        domain_error = translated(error, conflict)
        if domain_error is None:
            raise
        raise domain_error from error
