"""What a compaction asks for and what it returns: the messages, and the one report every
driver renders."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from typing import Any, Literal

from cleveragents.application.services.compaction.credential_redaction import (
    RedactedCredentials,
)
from cleveragents.application.services.compaction.tool_output_shrinking import ShrunkResult
from cleveragents.domain.compaction_summary import CompactionSummary, SummarySection
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


CompactionStatus = Literal["compacted", "not-needed", "failed"]


@dataclass(frozen=True, slots=True)
class CompactionOutcome:
    """The messages to send (compacted, or the originals unchanged) and what happened.

    `status` is ``compacted``, ``not-needed`` (under the threshold and not forced) or
    ``failed`` (then `reason` says why and `messages` are the originals). Whatever the
    status, `messages` hold no credential unless `keep_credentials` was asked for: they are
    redacted in every field, and the token figures count them as returned."""

    messages: tuple[Message, ...]
    status: CompactionStatus
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

    def report(self, settings: CompactionSettings) -> CompactionReport:
        """What happened, with the threshold and summary budget of the `settings` it ran
        with: the one report every driver renders."""
        summary = self.summary
        return CompactionReport(
            status=self.status,
            reason=self.reason,
            tokens_before=self.tokens_before,
            tokens_after=self.tokens_after,
            threshold=settings.threshold,
            folded_messages=self.folded_messages,
            kept_messages=self.kept_messages,
            summary_sha256=self.summary_sha256,
            summary_tokens=self.summary_tokens,
            summary_budget=settings.summary_tokens,
            split_turn=self.split_turn,
            redacted_secrets=self.redacted_secrets,
            redacted_in=self.redactions.as_dict(),
            keep_credentials=self.keep_credentials,
            shrunk_tool_results=self.shrunk_results,
            summary_omitted=_per_section(summary.omitted) if summary is not None else None,
            summary_sections=_per_section(summary.counts()) if summary is not None else None,
        )


def _per_section(counts: Mapping[SummarySection, int]) -> dict[str, int]:
    return {section.value: count for section, count in counts.items()}


@dataclass(frozen=True, slots=True)
class CompactionReport:
    """What a compaction did, in figures: the one report that `agents context compact`
    prints (`as_json` is its ``--json``), the MCP tool returns, the Python API's result is
    made of and the ``context_compacted`` event records (`event_payload`). The fields are in
    the order the JSON shows them."""

    status: CompactionStatus
    """``compacted``; ``not-needed`` (under the threshold, not forced); ``failed`` (`reason`
    says why; the messages are the originals)."""
    reason: str | None
    tokens_before: int
    tokens_after: int
    threshold: int
    """``context_window - reserve_tokens``: a compacted result is at most this."""
    folded_messages: int
    kept_messages: int
    summary_sha256: str | None
    summary_tokens: int
    summary_budget: int
    split_turn: bool
    """The kept messages start inside a turn (its request is quoted in the summary)."""
    redacted_secrets: int
    """Credentials redacted from the messages returned, wherever they were."""
    redacted_in: Mapping[str, int]
    """Where they were: ``system`` (the system prompt), ``folded`` (the messages folded into
    the summary, which holds none), ``kept`` (the messages kept verbatim; all of them when
    nothing was folded), ``request`` (the request's other fields)."""
    keep_credentials: bool
    """Asked to keep the credentials of the messages kept verbatim (the summary's never)."""
    shrunk_tool_results: tuple[ShrunkResult, ...]
    """Tool results of the kept messages shortened to fit: each one's call, tokens before
    and after, and the artifact holding its full output (or the full output itself, when no
    store keeps it)."""
    summary_omitted: Mapping[str, int] | None
    """Items per section left out to keep the summary within its budget."""
    summary_sections: Mapping[str, int] | None
    """Items per summary section (goals, files, tests, unfinished work, ...)."""

    @property
    def compacted(self) -> bool:
        return self.status == "compacted"

    def as_json(self) -> dict[str, Any]:
        """Every field as JSON-ready values, in order (a shrunk result without its full
        output): what ``agents context compact --json`` prints."""
        values = {field.name: getattr(self, field.name) for field in fields(CompactionReport)}
        values["redacted_in"] = dict(self.redacted_in)
        values["shrunk_tool_results"] = [shrunk.as_dict() for shrunk in self.shrunk_tool_results]
        for name in ("summary_omitted", "summary_sections"):
            counts = values[name]
            values[name] = None if counts is None else dict(counts)
        return values

    def event_payload(self, *, forced: bool) -> dict[str, Any]:
        """The ``context_compacted`` event's figures (the scope's labels go beside them):
        a delivery gate reads `summary_omitted` to tell a summary that dropped unfinished
        work."""
        values = self.as_json()
        return {
            **{name: values[name] for name in _COMPACTED_EVENT_FIGURES},
            "forced": forced,
            "summary_sections": values["summary_sections"],
            "summary_omitted": values["summary_omitted"],
        }

    def failure_payload(self) -> dict[str, Any]:
        """The ``context_compaction_failed`` event's figures."""
        return {
            "reason": self.reason,
            "tokens_before": self.tokens_before,
            "tokens_after": self.tokens_after,
            "threshold": self.threshold,
        }


_COMPACTED_EVENT_FIGURES = (
    "tokens_before",
    "tokens_after",
    "folded_messages",
    "kept_messages",
    "summary_sha256",
    "summary_tokens",
    "split_turn",
    "redacted_secrets",
    "redacted_in",
    "shrunk_tool_results",
    "threshold",
)
"""The report's fields a ``context_compacted`` event records, in its payload's order."""
