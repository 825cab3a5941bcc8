"""The system clock (UTC)."""

from __future__ import annotations

import getpass
from datetime import UTC, datetime

from cleveragents.application.ports.clock import Clock


class SystemClock(Clock):
    def now(self) -> datetime:
        return datetime.now(UTC)


def current_user() -> str:
    """Who imports artifacts (recorded in audit rows); 'unknown' when the OS cannot say."""
    try:
        return getpass.getuser()
    except (KeyError, OSError):
        return "unknown"
