"""What a delivery gate reports: which stop condition, about what, and why, on one line."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any


class StopCondition(StrEnum):
    """The five conditions that stop delivery, in report order."""

    WORKSPACE_ESCAPE = "workspace-escape"
    SECRET = "secret"
    MISSING_TAIL = "missing-tail"
    UNFINISHED_WORK = "unfinished-work"
    CACHE_METRIC = "cache-metric"


@dataclass(frozen=True, slots=True, order=True)
class Violation:
    """One reason to stop delivery. `subject` names what is wrong (``artifact <id>``,
    ``message 3``, ``usage record <id>``); `detail` says what, never the secret itself."""

    condition: StopCondition
    subject: str
    detail: str

    @property
    def line(self) -> str:
        """The violation as one line: ``<condition>: <subject>: <detail>``."""
        return " ".join(f"{self.condition.value}: {self.subject}: {self.detail}".split())

    def as_dict(self) -> dict[str, Any]:
        return {"condition": self.condition.value, "subject": self.subject, "detail": self.detail}


def ordered(violations: list[Violation]) -> tuple[Violation, ...]:
    """By stop condition (in the order above), then as found: the same store gives the same
    report."""
    rank = {condition: index for index, condition in enumerate(StopCondition)}
    return tuple(sorted(violations, key=lambda violation: rank[violation.condition]))
