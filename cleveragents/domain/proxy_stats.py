"""What the proxy did, per conversation and in total: `agents proxy stats`.

The transform's figures (tokens received from the client and forwarded, tool outputs stored,
credentials redacted, compactions) are the proxy's own, counted with its tokenizer. The cache
and usage figures are the provider's, as its responses reported them, never inferred: a
figure no response reported stays None.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, replace


def _plus(first: int | None, second: int | None) -> int | None:
    if first is None:
        return second
    return first if second is None else first + second


@dataclass(frozen=True, slots=True)
class ConversationStats:
    """One conversation's figures (or the total, with `conversation` ``"total"``)."""

    conversation: str
    api: str
    model: str | None = None
    requests: int = 0
    tokens_received: int = 0
    tokens_forwarded: int = 0
    tool_outputs_stored: int = 0
    credentials_redacted: int = 0
    compactions: int = 0
    responses_with_usage: int = 0
    input_tokens: int | None = None
    """Provider-reported input neither read from nor written to the cache."""
    cache_read_tokens: int | None = None
    cache_write_tokens: int | None = None
    output_tokens: int | None = None

    def plus(self, other: ConversationStats) -> ConversationStats:
        """These figures and `other`'s added (the model and API of the later)."""
        return replace(
            self,
            api=other.api or self.api,
            model=other.model or self.model,
            requests=self.requests + other.requests,
            tokens_received=self.tokens_received + other.tokens_received,
            tokens_forwarded=self.tokens_forwarded + other.tokens_forwarded,
            tool_outputs_stored=self.tool_outputs_stored + other.tool_outputs_stored,
            credentials_redacted=self.credentials_redacted + other.credentials_redacted,
            compactions=self.compactions + other.compactions,
            responses_with_usage=self.responses_with_usage + other.responses_with_usage,
            input_tokens=_plus(self.input_tokens, other.input_tokens),
            cache_read_tokens=_plus(self.cache_read_tokens, other.cache_read_tokens),
            cache_write_tokens=_plus(self.cache_write_tokens, other.cache_write_tokens),
            output_tokens=_plus(self.output_tokens, other.output_tokens),
        )

    def as_dict(self) -> dict[str, object]:
        return asdict(self)


@dataclass(frozen=True, slots=True)
class ProxyStats:
    """Every conversation's figures, busiest first, and their total."""

    conversations: tuple[ConversationStats, ...]
    total: ConversationStats

    def as_dict(self) -> dict[str, object]:
        return {
            "conversations": [stats.as_dict() for stats in self.conversations],
            "total": self.total.as_dict(),
        }
