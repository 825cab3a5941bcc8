"""The usage ledger port: provider requests' token usage, kept for truthful metrics."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence

from cleveragents.domain.usage import UsageRecord, UsageTotals


class UsageLedger(ABC):
    """Per-request usage, each request once (by its `request_key`), scoped by project and
    plan. Container name: ``usage_ledger``."""

    @abstractmethod
    def record(self, records: Sequence[UsageRecord]) -> list[UsageRecord]:
        """Store, in one transaction, the records whose request is not in the ledger yet;
        return those (in the given order). The others were recorded before and are left as
        they are."""

    @abstractmethod
    def totals(
        self, *, project_id: str | None = None, plan_id: str | None = None
    ) -> list[UsageTotals]:
        """Totals per provider and model (ordered by both) of one plan, one project or all."""

    @abstractmethod
    def records(
        self, *, project_id: str | None = None, plan_id: str | None = None
    ) -> list[UsageRecord]:
        """The records of one plan, one project or all, oldest first."""
