"""The persistence adapter's own errors: callers never see SQLAlchemy's."""

from __future__ import annotations


class StoreUnavailableError(RuntimeError):
    """The database could not be reached, migrated or written (an operational failure, exit 1)."""
