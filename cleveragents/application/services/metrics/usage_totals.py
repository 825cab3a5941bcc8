"""Sums of usage records: per provider and model, and over all models of a report."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from cleveragents.application.services.metrics.metrics_report import (
    TOKEN_FIGURES,
    ModelUsage,
    UsageSummary,
)
from cleveragents.domain.model_catalog import CostBreakdown
from cleveragents.domain.usage import FigureSum, TokenFigure, UsageRecord, UsageTotals


def totals_of(records: Iterable[UsageRecord]) -> list[UsageTotals]:
    """What `UsageLedger.totals` gives for these records, computed in memory."""
    groups: dict[tuple[str, str], list[UsageRecord]] = {}
    for record in records:
        groups.setdefault((record.provider, record.model), []).append(record)

    def figure(group: list[UsageRecord], name: str) -> FigureSum:
        values = [getattr(record.usage, name) for record in group]
        known = [value for value in values if value is not None]
        return FigureSum(total=sum(known), reported=len(known))

    return [
        UsageTotals(
            provider=provider,
            model=model,
            requests=len(group),
            input_tokens=figure(group, "input_tokens"),
            total_input_tokens=figure(group, "total_input_tokens"),
            cache_read_tokens=figure(group, "cache_read_tokens"),
            cache_write_tokens=figure(group, "cache_write_tokens"),
            output_tokens=sum(record.usage.output_tokens for record in group),
            reasoning_tokens=figure(group, "reasoning_tokens"),
        )
        for (provider, model), group in sorted(groups.items())
    ]


def sum_costs(costs: Iterable[CostBreakdown]) -> CostBreakdown:
    """The sum; no request at all costs a true 0."""
    total: CostBreakdown | None = None
    for cost in costs:
        total = cost if total is None else total.plus(cost)
    return total or CostBreakdown.zero()


def overall_summary(models: Sequence[ModelUsage]) -> UsageSummary:
    """The summary over all models: a figure one model does not know is not known overall,
    with that model's reason."""
    tokens: dict[str, TokenFigure] = {}
    for name in TOKEN_FIGURES:
        figures = [(model, model.summary.tokens[name]) for model in models]
        missing = [(model, figure) for model, figure in figures if figure.value is None]
        if missing:
            model, figure = missing[0]
            reason = f"{model.model}: {figure.unavailable}"
            tokens[name] = TokenFigure.missing(reason)
        else:
            tokens[name] = TokenFigure.of(sum(figure.value or 0 for _, figure in figures))
    return UsageSummary(
        requests=sum(model.summary.requests for model in models),
        tokens=tokens,
        cost=sum_costs(model.summary.cost for model in models),
    )
