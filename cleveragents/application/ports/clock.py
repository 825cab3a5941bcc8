"""The clock port: time comes from outside, so expiry and retention can be tested."""

from __future__ import annotations

from abc import ABC, abstractmethod
from datetime import datetime


class Clock(ABC):
    @abstractmethod
    def now(self) -> datetime:
        """The current time, timezone-aware (UTC)."""
