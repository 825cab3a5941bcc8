"""The persistence adapter's errors: callers never see SQLAlchemy's.

The errors themselves are the domain's: `StoreUnavailableError` (an operational failure, exit 1),
importable from here too, where the adapter's modules have always found it, and `ConflictError`
(bad input, exit 2).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from sqlalchemy.exc import DBAPIError, IntegrityError
from sqlalchemy.exc import TimeoutError as PoolTimeoutError

from cleveragents.domain.errors import ConflictError, StoreUnavailableError

__all__ = ["StoreUnavailableError", "database_errors_translated"]


@contextmanager
def database_errors_translated(
    conflict: str = "the change conflicts with stored data",
) -> Iterator[None]:
    """A constraint the change breaks becomes `ConflictError` (`conflict`, then the database's
    words); any other error the database reports (a missing table, a locked or damaged file, a
    lost connection) becomes `StoreUnavailableError`. SQLAlchemy's other errors are bugs in a
    query, and pass through."""
    try:
        yield
    except IntegrityError as error:
        raise ConflictError(f"{conflict}: {error.orig}") from error
    except DBAPIError as error:
        raise StoreUnavailableError(f"database error: {error.orig}") from error
    except PoolTimeoutError as error:  # every connection busy for the pool's whole timeout
        raise StoreUnavailableError(f"database error: {error}") from error
