"""Usage records priced from the locked model catalog, per model and in total.

Each request is priced with the catalog entry in force when it was served; cache figures are
shown only where the catalog prices that cache (a cache hit is never inferred).
"""

from __future__ import annotations

from collections.abc import Sequence

from cleveragents.application.ports.model_catalog import ModelCatalog
from cleveragents.application.services.metrics.metrics_report import (
    TOKEN_FIGURES,
    ModelUsage,
    UsageReport,
    UsageSummary,
)
from cleveragents.application.services.metrics.usage_totals import (
    overall_summary,
    sum_costs,
    totals_of,
)
from cleveragents.domain.model_catalog import (
    CacheSupport,
    CatalogEntry,
    CostBreakdown,
    request_cost,
)
from cleveragents.domain.usage import (
    UNKNOWN_MODEL,
    FigureSum,
    TokenFigure,
    UsageRecord,
    UsageTotals,
)


class UsagePricing:
    """The usage report of a set of records, priced from one catalog."""

    def __init__(self, catalog: ModelCatalog) -> None:
        self._catalog = catalog

    def report(self, records: Sequence[UsageRecord]) -> UsageReport:
        by_model: dict[tuple[str, str], list[UsageRecord]] = {}
        for record in records:
            by_model.setdefault((record.provider, record.model), []).append(record)
        models = tuple(
            self._model_usage(totals, by_model[totals.provider, totals.model])
            for totals in totals_of(records)
        )
        return UsageReport(models=models, totals=overall_summary(models))

    def _model_usage(self, totals: UsageTotals, records: Sequence[UsageRecord]) -> ModelUsage:
        # The entry as of the model's latest request (prices change; windows rarely).
        entry = self._entry(max(records, key=lambda record: (record.priced_at, record.id)))
        unpriced = self._unpriced_reason(totals.model, entry)
        return ModelUsage(
            provider=totals.provider,
            model=totals.model,
            catalog_model=entry.model_id if entry else None,
            context_window=(
                TokenFigure.of(entry.context_window)
                if entry and entry.context_window
                else TokenFigure.missing(unpriced or "the catalog gives no context window")
            ),
            cache_support=entry.cache_support if entry else CacheSupport.UNAVAILABLE,
            summary=UsageSummary(
                requests=totals.requests,
                tokens=_token_figures(totals, entry, unpriced),
                cost=sum_costs(self._request_cost(record) for record in records),
            ),
        )

    def _entry(self, record: UsageRecord) -> CatalogEntry | None:
        """The entry with the prices in force when the request was served."""
        if record.model == UNKNOWN_MODEL:
            return None
        return self._catalog.entry(
            record.model, record.provider, record.priced_at, record.usage.service_tier
        )

    def _request_cost(self, record: UsageRecord) -> CostBreakdown:
        entry = self._entry(record)
        if entry is None:
            reason = self._unpriced_reason(record.model, entry)
            assert reason is not None
            return CostBreakdown.unavailable(reason)
        return request_cost(record.usage, entry)

    def _unpriced_reason(self, model: str, entry: CatalogEntry | None) -> str | None:
        if model == UNKNOWN_MODEL:
            return "the source does not name the model"
        if entry is None:
            return f"model {model!r} is not in the locked catalog ({self._catalog.description})"
        return None


def _token_figures(
    totals: UsageTotals, entry: CatalogEntry | None, unpriced: str | None
) -> dict[str, TokenFigure]:
    figures: dict[str, TokenFigure] = {}
    for name in TOKEN_FIGURES:
        if name == "output_tokens":
            figures[name] = TokenFigure.of(totals.output_tokens)
            continue
        summed: FigureSum = getattr(totals, name)
        cache_price = {"cache_read_tokens": "cache-read", "cache_write_tokens": "cache-write"}
        if name in cache_price:
            # Cache figures only where the catalog prices that cache: never inferred.
            if unpriced is not None:
                figures[name] = TokenFigure.missing(f"{unpriced}: cache support unavailable")
                continue
            assert entry is not None
            price = getattr(entry.pricing, name.removesuffix("_tokens"))
            if price is None:
                figures[name] = TokenFigure.missing(
                    f"the locked catalog declares no {cache_price[name]} price for "
                    f"{entry.model_id}: cache support unavailable"
                )
                continue
        if summed.reported < totals.requests:
            figures[name] = TokenFigure.missing(
                f"not reported by {totals.requests - summed.reported} of {totals.requests} requests"
            )
        else:
            figures[name] = TokenFigure.of(summed.total)
    return figures
