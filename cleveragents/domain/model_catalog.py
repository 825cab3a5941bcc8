"""The locked model catalog's entries and the cost of a request priced from one.

Prices are USD per million tokens. A price the catalog does not declare is None; what depends on
it is reported unavailable with the reason, never as 0. In particular a model whose entry
declares no cache price has no cache support: its cache figures and savings are unavailable,
whatever the provider may offer (SOP 5: never infer a cache hit from possible support).

Cost rules, as the catalog defines them: input not read from or written to the cache is billed
at the input price; cache reads at the cache-read price; cache writes at the cache-write price
(Anthropic's one-hour writes at their own price when the catalog has one); output at the output
price. Tokens of a cache kind the catalog does not price are billed as input. A tiered price
applies one rate to all tokens of the request, chosen by the request's total input.
"""

from __future__ import annotations

from decimal import Decimal
from enum import StrEnum
from typing import Self

from pydantic import BaseModel, ConfigDict, Field, model_validator

from cleveragents.domain.usage import TokenUsage

MILLION = Decimal(1_000_000)


class RateTier(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    start: int = Field(ge=0)  # applies when the request's total input is above this
    usd_per_mtok: Decimal = Field(ge=0)


class Rate(BaseModel):
    """A price per million tokens, possibly tiered by the request's total input."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    usd_per_mtok: Decimal = Field(ge=0)
    tiers: tuple[RateTier, ...] = ()

    def at(self, total_input: int | None) -> Decimal | None:
        """The rate for a request with `total_input` tokens in; None when tiered and the total
        is unknown."""
        if not self.tiers:
            return self.usd_per_mtok
        if total_input is None:
            return None
        rate = self.usd_per_mtok
        for tier in sorted(self.tiers, key=lambda tier: tier.start):
            if total_input > tier.start:
                rate = tier.usd_per_mtok
        return rate


class ModelPricing(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    input: Rate | None = None
    output: Rate | None = None
    cache_read: Rate | None = None
    cache_write: Rate | None = None
    cache_write_1h: Rate | None = None

    @property
    def declares_cache_pricing(self) -> bool:
        return self.cache_read is not None or self.cache_write is not None


class CacheSupport(StrEnum):
    AVAILABLE = "available"
    UNAVAILABLE = "unavailable"


class CatalogEntry(BaseModel):
    """A model as the locked catalog describes it."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    provider: str
    model_id: str
    name: str | None = None
    context_window: int | None = Field(default=None, ge=1)
    pricing: ModelPricing

    @property
    def cache_support(self) -> CacheSupport:
        if self.pricing.declares_cache_pricing:
            return CacheSupport.AVAILABLE
        return CacheSupport.UNAVAILABLE


class CostFigure(BaseModel):
    """An amount in USD, or the reason there is none. Unavailable is never shown as 0."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    usd: Decimal | None = None
    unavailable: str | None = None

    @model_validator(mode="after")
    def _one_of(self) -> Self:
        if (self.usd is None) == (self.unavailable is None):
            raise ValueError("a cost has an amount or a reason it is unavailable, not both")
        return self

    def plus(self, other: CostFigure) -> CostFigure:
        """The sum; unavailable when either is (the first reason is kept)."""
        if self.usd is None:
            return self
        if other.usd is None:
            return other
        return CostFigure(usd=self.usd + other.usd)


def _usd(tokens: int, rate: Decimal) -> CostFigure:
    return CostFigure(usd=Decimal(tokens) * rate / MILLION)


def _missing(reason: str) -> CostFigure:
    return CostFigure(unavailable=reason)


COMPONENTS = ("input", "cache_read", "cache_write", "output")
_FIGURES = (*COMPONENTS, "cache_read_savings", "cache_write_premium")


class CostBreakdown(BaseModel):
    """What requests cost, part by part, with what the cache saved and what writing it cost
    over the input price.

    A part is unavailable when it is for any of the requests summed. `total` adds up what
    each request's available parts cost, so a part one request cannot price does not drop the
    others' amounts; `total_excludes` names the parts some request left out of it."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    input: CostFigure
    cache_read: CostFigure
    cache_write: CostFigure
    output: CostFigure
    cache_read_savings: CostFigure  # reads at the input price minus what they cost
    cache_write_premium: CostFigure  # writes at their price minus the same tokens as input
    total: CostFigure
    total_excludes: tuple[str, ...] = ()

    @classmethod
    def of_request(cls, **parts: CostFigure) -> CostBreakdown:
        """One request's breakdown; its total is the sum of its available parts."""
        priced = [parts[name] for name in COMPONENTS]
        known = [part.usd for part in priced if part.usd is not None]
        total = (
            CostFigure(usd=sum(known, Decimal(0)))
            if known
            else _missing(next(part.unavailable for part in priced if part.unavailable))
        )
        excludes = tuple(name for name in COMPONENTS if parts[name].usd is None)
        return cls(**parts, total=total, total_excludes=excludes)

    @classmethod
    def unavailable(cls, reason: str) -> CostBreakdown:
        return cls.of_request(**dict.fromkeys(_FIGURES, _missing(reason)))

    @classmethod
    def zero(cls) -> CostBreakdown:
        """The cost of no request at all: a true 0."""
        return cls.of_request(**dict.fromkeys(_FIGURES, CostFigure(usd=Decimal(0))))

    def plus(self, other: CostBreakdown) -> CostBreakdown:
        parts = {name: getattr(self, name).plus(getattr(other, name)) for name in _FIGURES}
        if self.total.usd is None or other.total.usd is None:
            total = other.total if self.total.usd is None else self.total
        else:
            total = CostFigure(usd=self.total.usd + other.total.usd)
        excludes = set(self.total_excludes) | set(other.total_excludes)
        return CostBreakdown(
            **parts,
            total=total,
            total_excludes=tuple(name for name in COMPONENTS if name in excludes),
        )


def request_cost(usage: TokenUsage, entry: CatalogEntry) -> CostBreakdown:
    """The cost of one request under `entry`'s prices; see the module docstring."""
    pricing = entry.pricing
    total_input = usage.total_input_tokens

    def rate(price: Rate | None, what: str) -> Decimal | str:
        if price is None:
            return f"the locked catalog declares no {what} price for {entry.model_id}"
        found = price.at(total_input)
        if found is None:
            return f"the {what} price of {entry.model_id} is tiered and the total input is unknown"
        return found

    input_rate = rate(pricing.input, "input")
    read_rate = rate(pricing.cache_read, "cache-read")
    write_rate = rate(pricing.cache_write, "cache-write")
    one_hour_rate = rate(pricing.cache_write_1h, "one-hour cache-write")
    output_rate = rate(pricing.output, "output")

    input_cost = _input_cost(usage, pricing, input_rate)
    read_cost = _cache_read_cost(usage, read_rate)
    write_cost = _cache_write_cost(usage, write_rate, one_hour_rate)
    output_cost = (
        _missing(output_rate)
        if isinstance(output_rate, str)
        else _usd(usage.output_tokens, output_rate)
    )
    return CostBreakdown.of_request(
        input=input_cost,
        cache_read=read_cost,
        cache_write=write_cost,
        output=output_cost,
        cache_read_savings=_savings(usage.cache_read_tokens, input_rate, read_cost),
        cache_write_premium=_premium(usage, input_rate, write_cost),
    )


def _input_cost(usage: TokenUsage, pricing: ModelPricing, rate: Decimal | str) -> CostFigure:
    if isinstance(rate, str):
        return _missing(rate)
    # Tokens of a cache kind without a price of its own are billed as input.
    parts: list[int | None] = [usage.input_tokens]
    if pricing.cache_read is None:
        parts.append(usage.cache_read_tokens)
    if pricing.cache_write is None and usage.usage_format.reports_cache_writes:
        parts.append(usage.cache_write_tokens)
    if None in parts and pricing.cache_read is None and pricing.cache_write is None:
        # No cache price at all (say OpenAI-style usage without a cached-token figure): every
        # input token is billed at the input price.
        parts = [usage.total_input_tokens]
    if None in parts:
        return _missing("the usage does not say how much of the input came from the cache")
    return _usd(sum(part for part in parts if part is not None), rate)


def _cache_read_cost(usage: TokenUsage, rate: Decimal | str) -> CostFigure:
    if isinstance(rate, str):
        return _missing(f"{rate}: cache support unavailable")
    if usage.cache_read_tokens is None:
        return _missing(f"{usage.usage_format.value} usage does not report cache reads")
    return _usd(usage.cache_read_tokens, rate)


def _cache_write_cost(
    usage: TokenUsage, rate: Decimal | str, one_hour_rate: Decimal | str
) -> CostFigure:
    if isinstance(rate, str):
        return _missing(f"{rate}: cache support unavailable")
    if usage.cache_write_tokens is None:
        return _missing(f"{usage.usage_format.value} usage does not report cache writes")
    one_hour = usage.cache_write_1h_tokens or 0
    if isinstance(one_hour_rate, str) or one_hour > usage.cache_write_tokens:
        return _usd(usage.cache_write_tokens, rate)
    return _usd(usage.cache_write_tokens - one_hour, rate).plus(_usd(one_hour, one_hour_rate))


def _savings(tokens: int | None, input_rate: Decimal | str, read_cost: CostFigure) -> CostFigure:
    if read_cost.usd is None:
        return read_cost
    if isinstance(input_rate, str):
        return _missing(input_rate)
    assert tokens is not None  # a read cost is known only when the reads are
    return CostFigure(usd=Decimal(tokens) * input_rate / MILLION - read_cost.usd)


def _premium(usage: TokenUsage, input_rate: Decimal | str, write_cost: CostFigure) -> CostFigure:
    if write_cost.usd is None:
        return write_cost
    if isinstance(input_rate, str):
        return _missing(input_rate)
    assert usage.cache_write_tokens is not None
    return CostFigure(usd=write_cost.usd - Decimal(usage.cache_write_tokens) * input_rate / MILLION)
