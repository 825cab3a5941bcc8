"""What a compaction asks for and what it returns."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from cleveragents.application.services.compaction.credential_redaction import (
    RedactedCredentials,
)
from cleveragents.application.services.compaction.tool_output_shrinking import ShrunkResult
from cleveragents.domain.compaction_summary import CompactionSummary
from cleveragents.domain.policy import DEFAULT_SUMMARY_TOKENS, ContextPolicy, ContextPolicyChanges
from cleveragents.domain.transcript import Message


@dataclass(frozen=True, slots=True)
class CompactionSettings:
    """The effective window settings: compact when a request's tokens exceed
    `context_window - reserve_tokens`; keep up to `keep_recent_tokens` of recent messages
    verbatim and write a summary of at most `summary_tokens`."""

    context_window: int
    reserve_tokens: int
    keep_recent_tokens: int
    summary_tokens: int = DEFAULT_SUMMARY_TOKENS

    @classmethod
    def from_policy(
        cls, policy: ContextPolicy, overrides: ContextPolicyChanges | None = None
    ) -> CompactionSettings:
        """The effective settings of `policy` with `overrides` (when given) over it;
        `InvalidPolicyError` when they leave no room (`ContextPolicy.check_coherent`)."""
        if overrides is not None:
            policy = policy.updated(overrides)
        policy.check_coherent()
        return cls(
            context_window=policy.effective_context_window,
            reserve_tokens=policy.effective_reserve_tokens,
            keep_recent_tokens=policy.effective_keep_recent_tokens,
            summary_tokens=policy.effective_summary_tokens,
        )

    @property
    def threshold(self) -> int:
        return self.context_window - self.reserve_tokens


@dataclass(frozen=True, slots=True)
class CompactionOutcome:
    """The messages to send (compacted, or the originals unchanged) and what happened.

    `status` is ``compacted``, ``not-needed`` (under the threshold and not forced) or
    ``failed`` (then `reason` says why and `messages` are the originals). Whatever the
    status, `messages` hold no credential unless `keep_credentials` was asked for: they are
    redacted in every field, and the token figures count them as returned."""

    messages: tuple[Message, ...]
    status: str
    tokens_before: int
    tokens_after: int
    kept_messages: int = 0
    folded_messages: int = 0
    summary: CompactionSummary | None = None
    summary_sha256: str | None = None
    reason: str | None = None
    summary_tokens: int = 0
    split_turn: bool = False
    """The kept part starts inside a turn (its request is quoted in the summary)."""
    redactions: RedactedCredentials = field(default_factory=RedactedCredentials)
    """Credentials redacted from the messages returned, by where they were (never values)."""
    keep_credentials: bool = False
    """Asked to keep the verbatim messages as they are (the summary is redacted all the same)."""
    shrunk_results: tuple[ShrunkResult, ...] = ()
    """Tool results of the kept part shrunk to fit, each with its full output's artifact."""

    @property
    def compacted(self) -> bool:
        return self.status == "compacted"

    @property
    def redacted_secrets(self) -> int:
        """How many credentials were redacted, wherever they were."""
        return self.redactions.total

    def report(self, settings: CompactionSettings) -> dict[str, Any]:
        """What happened, as JSON-ready values: the figures `agents context compact --json`
        prints, the MCP tool's report and the Python API's result are made of, with the
        threshold and summary budget of the `settings` it ran with."""
        summary = self.summary
        return {
            "status": self.status,
            "reason": self.reason,
            "tokens_before": self.tokens_before,
            "tokens_after": self.tokens_after,
            "threshold": settings.threshold,
            "folded_messages": self.folded_messages,
            "kept_messages": self.kept_messages,
            "summary_sha256": self.summary_sha256,
            "summary_tokens": self.summary_tokens,
            "summary_budget": settings.summary_tokens,
            "split_turn": self.split_turn,
            "redacted_secrets": self.redacted_secrets,
            "redacted_in": self.redactions.as_dict(),
            "keep_credentials": self.keep_credentials,
            "shrunk_tool_results": [shrunk.as_dict() for shrunk in self.shrunk_results],
            "summary_omitted": (
                {section.value: count for section, count in summary.omitted.items()}
                if summary is not None
                else None
            ),
            "summary_sections": (
                {section.value: count for section, count in summary.counts().items()}
                if summary is not None
                else None
            ),
        }
