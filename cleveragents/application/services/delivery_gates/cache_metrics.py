"""Gate 5, a fabricated cache metric: a cache figure for a model the locked catalog gives no
price for that cache.

The metrics report such figures as unavailable, never as read; a recorded figure is still
evidence of a claim. Each kind apart, as the catalog prices each apart: cache-read tokens
need a cache-read price, cache-write tokens a cache-write price (either of the two write
prices), of the model's entry in force when the request was served. A model the catalog does
not list declares no cache price either. A figure of 0 claims no cache traffic at all and is
not a violation: OpenAI reports ``cached_tokens: 0`` for models that have no prompt cache.
"""

from __future__ import annotations

from datetime import datetime

from cleveragents.application.ports.model_catalog import ModelCatalog
from cleveragents.application.services.delivery_gates.violations import StopCondition, Violation
from cleveragents.domain.usage import TokenUsage


def cache_claims(
    usage: TokenUsage,
    model: str,
    at: datetime,
    catalog: ModelCatalog,
    subject: str,
    *,
    verb: str = "recorded",
) -> list[Violation]:
    """The cache figures of one request that its model's catalog entry does not price
    (`verb` says how the figures came: ``recorded`` in the ledger, ``claimed`` in flight)."""
    read, written = usage.cache_read_tokens or 0, usage.cache_write_tokens or 0
    if read <= 0 and written <= 0:
        return []  # no claim: the catalog is not even consulted
    entry = catalog.entry(model, usage.provider, at, usage.service_tier)
    unpriced = []
    if read > 0 and (entry is None or entry.pricing.cache_read is None):
        unpriced.append(f"{read} cache-read tokens")
    has_write_price = entry is not None and (
        entry.pricing.cache_write is not None or entry.pricing.cache_write_1h is not None
    )
    if written > 0 and not has_write_price:
        unpriced.append(f"{written} cache-write tokens")
    if not unpriced:
        return []
    why = (
        f"{model} ({usage.provider}) is not in the locked catalog"
        if entry is None
        else f"the locked catalog declares no price for that cache for {entry.model_id}"
    )
    return [
        Violation(
            StopCondition.CACHE_METRIC,
            subject,
            f"{' and '.join(unpriced)} {verb}, but {why}: cache support unavailable",
        )
    ]
