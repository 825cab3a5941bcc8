"""What a compaction asks for and what it returns."""

from __future__ import annotations

from dataclasses import dataclass

from cleveragents.domain.compaction_summary import CompactionSummary
from cleveragents.domain.policy import ContextPolicy
from cleveragents.domain.transcript import Message


@dataclass(frozen=True, slots=True)
class CompactionSettings:
    """The effective window settings (SPEC C1): compact when a request's tokens exceed
    `context_window - reserve_tokens`; keep up to `keep_recent_tokens` of recent turns."""

    context_window: int
    reserve_tokens: int
    keep_recent_tokens: int

    @classmethod
    def from_policy(cls, policy: ContextPolicy) -> CompactionSettings:
        return cls(
            context_window=policy.effective_context_window,
            reserve_tokens=policy.effective_reserve_tokens,
            keep_recent_tokens=policy.effective_keep_recent_tokens,
        )

    @property
    def threshold(self) -> int:
        return self.context_window - self.reserve_tokens


@dataclass(frozen=True, slots=True)
class CompactionOutcome:
    """The messages to send (compacted, or the originals unchanged) and what happened.

    `status` is ``compacted``, ``not-needed`` (under the threshold and not forced) or
    ``failed`` (then `reason` says why and `messages` are the originals)."""

    messages: tuple[Message, ...]
    status: str
    tokens_before: int
    tokens_after: int
    kept_messages: int = 0
    folded_messages: int = 0
    summary: CompactionSummary | None = None
    summary_sha256: str | None = None
    reason: str | None = None

    @property
    def compacted(self) -> bool:
        return self.status == "compacted"
