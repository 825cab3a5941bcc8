"""Times read back from the database."""

from __future__ import annotations

from datetime import UTC, datetime


def utc(moment: datetime) -> datetime:
    """SQLite returns naive datetimes; every time stored here is UTC."""
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)
