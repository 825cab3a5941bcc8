"""In-memory fakes of the ports behind truthful metrics: the usage ledger and the model catalog.

Like the fakes in `tests/fakes.py`, they subclass the port ABCs and keep each port's contract.
`FakeUsageLedger` records a request once by its `request_key`, across calls and within one, as
the SQL ledger's unique key does, and sums figures the way its SQL does (None is unknown, not 0).
`FakeModelCatalog` lists only the entries a test gives it, each with the moment its prices
start and, optionally, the service tier they are for; it records every lookup, so a test can
check which moment and tier a request was priced at.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal

from cleveragents.application.ports.model_catalog import ModelCatalog
from cleveragents.application.ports.usage_ledger import UsageLedger
from cleveragents.domain.model_catalog import CatalogEntry, ModelPricing, Rate
from cleveragents.domain.usage import FigureSum, UsageRecord, UsageTotals

_SUMMED_FIGURES = (
    "input_tokens",
    "total_input_tokens",
    "cache_read_tokens",
    "cache_write_tokens",
    "reasoning_tokens",
)


class FakeUsageLedger(UsageLedger):
    """Usage records in a list. `record_calls` counts the calls to `record`."""

    def __init__(self) -> None:
        self.stored: list[UsageRecord] = []
        self.record_calls = 0

    def record(self, records: Sequence[UsageRecord]) -> list[UsageRecord]:
        self.record_calls += 1
        known = {record.request_key for record in self.stored}
        fresh: list[UsageRecord] = []
        for record in records:
            if record.request_key not in known:
                known.add(record.request_key)  # a key twice in one call is stored once
                fresh.append(record)
        self.stored += fresh
        return fresh

    def totals(
        self, *, project_id: str | None = None, plan_id: str | None = None
    ) -> list[UsageTotals]:
        groups: dict[tuple[str, str], list[UsageRecord]] = {}
        for record in self.records(project_id=project_id, plan_id=plan_id):
            groups.setdefault((record.provider, record.model), []).append(record)
        return [
            UsageTotals(
                provider=provider,
                model=model,
                requests=len(group),
                output_tokens=sum(record.usage.output_tokens for record in group),
                **{name: _figure_sum(group, name) for name in _SUMMED_FIGURES},
            )
            for (provider, model), group in sorted(groups.items())
        ]

    def records(
        self, *, project_id: str | None = None, plan_id: str | None = None
    ) -> list[UsageRecord]:
        chosen = [
            record
            for record in self.stored
            if (project_id is None or record.project_id == project_id)
            and (plan_id is None or record.plan_id == plan_id)
        ]
        return sorted(chosen, key=lambda record: (record.recorded_at, record.id))


def _figure_sum(records: Sequence[UsageRecord], name: str) -> FigureSum:
    known = [value for record in records if (value := getattr(record.usage, name)) is not None]
    return FigureSum(total=sum(known), reported=len(known))


@dataclass(frozen=True, slots=True)
class _Listing:
    entry: CatalogEntry
    since: datetime | None  # None: in force at every moment
    service_tier: str | None  # None: the standard prices


@dataclass(frozen=True, slots=True)
class CatalogLookup:
    model: str
    provider: str | None
    at: datetime
    service_tier: str | None


class FakeModelCatalog(ModelCatalog):
    """The entries it was given, and nothing else."""

    def __init__(
        self, entries: Iterable[CatalogEntry] = (), description: str = "fake catalog (in memory)"
    ) -> None:
        self._description = description
        self._listings: list[_Listing] = []
        self.lookups: list[CatalogLookup] = []
        for entry in entries:
            self.add(entry)

    @property
    def description(self) -> str:
        return self._description

    def add(
        self,
        entry: CatalogEntry,
        *,
        since: datetime | None = None,
        service_tier: str | None = None,
    ) -> None:
        """List `entry`, in force from `since` (always when None) for `service_tier`."""
        self._listings.append(_Listing(entry, since, service_tier))

    def entry(
        self,
        model: str,
        provider: str | None,
        at: datetime,
        service_tier: str | None = None,
    ) -> CatalogEntry | None:
        self.lookups.append(CatalogLookup(model, provider, at, service_tier))
        in_force = [
            listing
            for listing in self._listings
            if listing.entry.model_id == model
            and (provider is None or listing.entry.provider == provider)
            and (listing.since is None or listing.since <= at)
        ]
        # Tier prices when the catalog has them for that tier, else the standard ones.
        tiered = [listing for listing in in_force if listing.service_tier == service_tier]
        chosen = tiered or [listing for listing in in_force if listing.service_tier is None]
        if not chosen:
            return None
        # The latest price change in force; an undated listing is older than any dated one.
        latest = max(chosen, key=lambda listing: (listing.since is not None, listing.since or at))
        return latest.entry


def usd_per_mtok(value: str) -> Rate:
    """A flat price, USD per million tokens, from its exact decimal text."""
    return Rate(usd_per_mtok=Decimal(value))


def catalog_entry(
    provider: str,
    model: str,
    *,
    input_price: str = "1",
    output_price: str = "2",
    cache_read_price: str | None = None,
    cache_write_price: str | None = None,
    context_window: int | None = 100_000,
) -> CatalogEntry:
    """A catalog entry with flat prices; the cache prices are left undeclared unless given."""
    return CatalogEntry(
        provider=provider,
        model_id=model,
        context_window=context_window,
        pricing=ModelPricing(
            input=usd_per_mtok(input_price),
            output=usd_per_mtok(output_price),
            cache_read=usd_per_mtok(cache_read_price) if cache_read_price else None,
            cache_write=usd_per_mtok(cache_write_price) if cache_write_price else None,
        ),
    )
