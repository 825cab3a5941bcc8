"""Token usage of provider requests, each kind of token counted separately.

Providers count differently. Anthropic's ``input_tokens`` leaves out the tokens read from and
written to the prompt cache (they come as ``cache_read_input_tokens`` and
``cache_creation_input_tokens``); OpenAI's ``prompt_tokens`` (Chat Completions) and
``input_tokens`` (Responses) include the cached tokens, and OpenAI reports no cache-write figure
at all. `TokenUsage` is one meaning for all of them:

* ``input_tokens``: input neither read from the cache nor reported as written to it;
* ``cache_read_tokens`` and ``cache_write_tokens``: what the provider reported, apart;
* ``total_input_tokens``: everything the request sent;
* ``output_tokens``, with ``reasoning_tokens`` as a detail inside it.

A figure the payload does not give is None: unknown, never 0.
"""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum
from typing import Any, Self

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    ValidationInfo,
    field_validator,
    model_validator,
)

from cleveragents.domain.ids import new_ulid
from cleveragents.domain.stored_text import (
    MODEL_NAME_LENGTH,
    PROVIDER_ID_LENGTH,
    REQUEST_KEY_LENGTH,
    SERVICE_TIER_LENGTH,
    check_optional_text,
    check_stored_text,
)
from cleveragents.domain.tokens import MAX_TOKEN_COUNT

UNKNOWN_MODEL = "unknown"
"""The model of a request whose record does not name one (it cannot be priced)."""


class UsageFormat(StrEnum):
    """The shape of a usage payload: which API reported it."""

    ANTHROPIC_MESSAGES = "anthropic-messages"
    OPENAI_CHAT = "openai-chat"
    OPENAI_RESPONSES = "openai-responses"

    @property
    def provider(self) -> str:
        return "anthropic" if self is UsageFormat.ANTHROPIC_MESSAGES else "openai"

    @property
    def reports_cache_writes(self) -> bool:
        """Anthropic reports cache writes apart from the input; OpenAI has no such figure (its
        input count holds whatever was written to the cache)."""
        return self is UsageFormat.ANTHROPIC_MESSAGES


Tokens = int | None


class TokenUsage(BaseModel):
    """One provider request's tokens, normalized; see the module docstring."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    usage_format: UsageFormat
    input_tokens: Tokens = Field(default=None, ge=0, le=MAX_TOKEN_COUNT)
    cache_read_tokens: Tokens = Field(default=None, ge=0, le=MAX_TOKEN_COUNT)
    cache_write_tokens: Tokens = Field(default=None, ge=0, le=MAX_TOKEN_COUNT)
    cache_write_5m_tokens: Tokens = Field(default=None, ge=0, le=MAX_TOKEN_COUNT)
    cache_write_1h_tokens: Tokens = Field(default=None, ge=0, le=MAX_TOKEN_COUNT)
    total_input_tokens: Tokens = Field(default=None, ge=0, le=MAX_TOKEN_COUNT)
    output_tokens: int = Field(ge=0, le=MAX_TOKEN_COUNT)
    reasoning_tokens: Tokens = Field(default=None, ge=0, le=MAX_TOKEN_COUNT)
    service_tier: str | None = None

    @field_validator("service_tier")
    @classmethod
    def _tier_stored_as_is(cls, value: str | None) -> str | None:
        return check_optional_text(value, "service_tier", SERVICE_TIER_LENGTH)

    @property
    def provider(self) -> str:
        return self.usage_format.provider

    @model_validator(mode="after")
    def _consistent(self) -> Self:
        parts = [self.input_tokens, self.cache_read_tokens]
        if self.usage_format.reports_cache_writes:
            parts.append(self.cache_write_tokens)
        elif self.cache_write_tokens is not None:
            raise ValueError(f"{self.usage_format.value} usage has no cache-write figure")
        known = [part for part in parts if part is not None]
        if len(known) == len(parts) and self.total_input_tokens != sum(known):
            raise ValueError("the input parts do not add up to the total input")
        return self


class UsageRecord(BaseModel):
    """The usage of one provider request, as kept in the ledger.

    ``request_key`` identifies the request across imports (its message id, else its request
    id, else a fingerprint of the message): recording it again changes nothing."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    id: str = Field(default_factory=new_ulid)
    project_id: str
    plan_id: str | None = None
    model: str = Field(min_length=1)
    usage: TokenUsage
    request_key: str = Field(min_length=1)
    message_id: str | None = None
    request_id: str | None = None
    requested_at: datetime | None = None  # when the provider served it, if the source says
    recorded_at: datetime
    source: str
    raw_usage: dict[str, Any] = Field(default_factory=dict)  # the payload as the source gave it

    @field_validator("model")
    @classmethod
    def _model_stored_as_is(cls, value: str) -> str:
        return check_stored_text(value, "model", MODEL_NAME_LENGTH)

    @field_validator("request_key")
    @classmethod
    def _key_stored_as_is(cls, value: str) -> str:
        return check_stored_text(value, "request_key", REQUEST_KEY_LENGTH)

    @field_validator("message_id", "request_id")
    @classmethod
    def _ids_stored_as_is(cls, value: str | None, info: ValidationInfo) -> str | None:
        return check_optional_text(value, str(info.field_name), PROVIDER_ID_LENGTH)

    @field_validator("source")
    @classmethod
    def _source_without_nul(cls, value: str) -> str:
        return check_stored_text(value, "source")

    @property
    def provider(self) -> str:
        return self.usage.provider

    @property
    def priced_at(self) -> datetime:
        """The moment whose prices apply: when the request was served, else when recorded."""
        return self.requested_at or self.recorded_at


class FigureSum(BaseModel):
    """A token figure summed over the requests that reported it."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    total: int = Field(ge=0)
    reported: int = Field(ge=0)  # how many requests gave the figure


class UsageTotals(BaseModel):
    """The ledger's totals for one provider and model within a scope."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    provider: str
    model: str
    requests: int = Field(ge=0)
    input_tokens: FigureSum
    total_input_tokens: FigureSum
    cache_read_tokens: FigureSum
    cache_write_tokens: FigureSum
    output_tokens: int = Field(ge=0)
    reasoning_tokens: FigureSum


class TokenFigure(BaseModel):
    """A token count, or the reason there is none. Unavailable is never shown as 0."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    value: int | None = None
    unavailable: str | None = None

    @model_validator(mode="after")
    def _one_of(self) -> Self:
        if (self.value is None) == (self.unavailable is None):
            raise ValueError("a figure has a value or a reason it is unavailable, not both")
        return self

    @classmethod
    def of(cls, value: int) -> TokenFigure:
        return cls(value=value)

    @classmethod
    def missing(cls, reason: str) -> TokenFigure:
        return cls(unavailable=reason)
