"""Conversation compaction that never loses the current task, orphans a tool result, or
claims a fit it does not have.

Before each provider request `compact` checks the request's tokens against
`context_window - reserve_tokens` (the threshold). Over it (or when forced):

1. **Cut.** The kept part starts at the earliest safe cut whose suffix is at most
   `keep_recent_tokens` (`cut_points`): a user request, or an assistant message inside a turn
   (an agent session is often one request and hundreds of tool calls), never between a tool
   call and its result. A cut inside a turn folds the turn's head; the summary quotes its
   request verbatim.
2. **Summary.** The folded messages become one summary message written by the `Summarizer`
   port (local and deterministic by default), merged into an earlier summary, with every
   credential redacted (`summary.redaction`) and kept within `summary_tokens` by ranking what
   it keeps (`summary.budget`).
3. **Honest fit.** The result is counted with the real tokenizer. When the kept part is over
   `keep_recent_tokens`, or the whole over the threshold, its oversized tool results are
   shrunk (`tool_output_shrinking`: compressed for their kind, the full output kept in the
   artifact store); then later cuts fold more. A result that still does not fit, that is not
   smaller than the input, or that breaks a provider rule is a failure: the original messages
   come back unchanged and `context_compaction_failed` is emitted, with the reason.

Credentials: every message is redacted in every field before anything is counted or cut
(`credential_redaction`), so whatever the status the messages returned hold none, and the
token figures count what is returned. `keep_credentials` keeps the messages returned
verbatim (system prompt, kept messages, the originals of a run that did not compact) as they
are; the summary is redacted all the same.

A success emits `context_compacted` with the token figures, the summary's SHA-256, how many
credentials were redacted and which tool results were shrunk. An event the store cannot take (a
read-only database, an unreachable one) does not cost the caller the result: the outcome is
returned and the caller is told the event was not recorded.
"""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from cleveragents.application.ports.events import EventSink
from cleveragents.application.ports.secret_scanner import SecretScanner
from cleveragents.application.ports.summarizer import Summarizer
from cleveragents.application.ports.token_counter import TokenCounter
from cleveragents.application.services.compaction.credential_redaction import (
    RedactedCredentials,
    RedactedMessages,
    redact_every_field,
)
from cleveragents.application.services.compaction.cut_points import (
    CutPoint,
    cut_candidates,
    safe_cut_points,
)
from cleveragents.application.services.compaction.message_tokens import message_tokens, rendered
from cleveragents.application.services.compaction.outcome import (
    CompactionOutcome,
    CompactionSettings,
    CompactionStatus,
)
from cleveragents.application.services.compaction.summary.budget import fit_summary
from cleveragents.application.services.compaction.summary.redaction import (
    Redactions,
    redact_messages,
    redact_summary,
)
from cleveragents.application.services.compaction.tool_output_shrinking import (
    MIN_SHRUNK_TOKENS,
    ShrinkCache,
    ShrunkResult,
    ToolOutputShrinker,
)
from cleveragents.application.services.counting.heuristic_counter import (
    HeuristicTokenCounter,
)
from cleveragents.domain.compaction_summary import CompactionSummary, parse_summary, render_summary
from cleveragents.domain.errors import TokenCountingError
from cleveragents.domain.event import CONTEXT_COMPACTED, CONTEXT_COMPACTION_FAILED
from cleveragents.domain.transcript import (
    SUMMARY_OF,
    SUMMARY_TOKENS_BEFORE,
    Message,
    Role,
    TextBlock,
)
from cleveragents.domain.transcript_rules import violations

Unrecorded = Callable[[str], None]
"""Told, in one line, that an event could not be recorded and why."""

_log = logging.getLogger(__name__)


class CompactionFailedError(Exception):
    """Why a compaction was abandoned (the original messages are used instead)."""


class ContextCompactor:
    """Compacts a conversation before a provider request; see the module docstring.

    `secret_scanner` redacts the messages returned and what the summary copies (the container
    always provides one; without it nothing is redacted); `shrinker` shrinks oversized kept
    tool results (without it, a kept part that does not fit fails the compaction)."""

    def __init__(
        self,
        token_counter: TokenCounter,
        summarizer: Summarizer,
        events: EventSink,
        secret_scanner: SecretScanner | None = None,
        shrinker: ToolOutputShrinker | None = None,
    ):
        self.counter = token_counter
        self.summarizer = summarizer
        self.scanner = secret_scanner
        self.shrinker = shrinker
        self._events = events

    def compact(
        self,
        messages: Sequence[Message],
        settings: CompactionSettings,
        *,
        force: bool = False,
        scope: Mapping[str, str] | None = None,
        project: str | None = None,
        unrecorded: Unrecorded | None = None,
        keep_credentials: bool = False,
    ) -> CompactionOutcome:
        """The messages to send: compacted when over the threshold (or `force`), else the
        originals. Never raises for a compaction that fails: that is reported in the outcome
        and as an event. `scope` (e.g. ``{"project_id": ..., "plan_id": ...}``) is added to
        the events' payloads, so metrics can count compactions per project and plan;
        `project` names the project whose artifact store keeps shrunk tool outputs. An event
        that cannot be recorded is reported to `unrecorded` (else logged as a warning) and the
        outcome is returned all the same. Every credential is redacted from the messages
        returned unless `keep_credentials` (the summary's are, always)."""
        labels = dict(scope or {})
        original = tuple(messages)
        redacted: RedactedMessages | None = None
        if self.scanner is not None and not keep_credentials:
            redacted = redact_every_field(original, self.scanner)
            original = redacted.messages
        verbatim = _Verbatim(redacted, _leading_system(original), keep_credentials)
        try:
            costs = message_tokens(original, self.counter)
        except TokenCountingError as error:
            # Without a count no fit can be promised: the originals, and the reason.
            estimate = HeuristicTokenCounter().count("\n".join(map(rendered, original)))
            reason = f"{error}; nothing was compacted (about {estimate:,} tokens, estimated)"
            return self._failed(
                original, estimate, _clipped(reason), labels, settings, unrecorded, verbatim
            )
        before = sum(costs)
        if not force and before <= settings.threshold:
            return verbatim.outcome(original, "not-needed", before)
        try:
            outcome = _Compaction(self, original, costs, settings, project, verbatim).run()
        except Exception as error:  # any failure keeps the original messages
            reason = str(error) if isinstance(error, CompactionFailedError) else repr(error)
            return self._failed(
                original, before, _clipped(reason), labels, settings, unrecorded, verbatim
            )
        payload = outcome.report(settings).event_payload(forced=force)
        self._record(CONTEXT_COMPACTED, {**labels, **payload}, unrecorded)
        return outcome

    def _failed(
        self,
        messages: tuple[Message, ...],
        before: int,
        reason: str,
        labels: dict[str, str],
        settings: CompactionSettings,
        unrecorded: Unrecorded | None,
        verbatim: _Verbatim,
    ) -> CompactionOutcome:
        outcome = verbatim.outcome(messages, "failed", before, reason=reason)
        payload = outcome.report(settings).failure_payload()
        self._record(CONTEXT_COMPACTION_FAILED, {**labels, **payload}, unrecorded)
        return outcome

    def _record(self, kind: str, payload: dict[str, Any], unrecorded: Unrecorded | None) -> None:
        try:
            self._events.emit(kind, payload)
        except Exception as error:  # the result matters more than its audit record
            note = f"the {kind} event was not recorded: {_first_line(error)}"
            if unrecorded is None:
                _log.warning(note)
            else:
                unrecorded(note)


@dataclass(frozen=True, slots=True)
class _Verbatim:
    """What was redacted from the messages before anything else (None: nothing was, the
    credentials are kept), and how many leading system messages they start with."""

    redacted: RedactedMessages | None
    head: int
    keep_credentials: bool

    def tally(self, folded: int = 0, in_summary: int = 0) -> RedactedCredentials:
        """Where the credentials redacted were, the body's first `folded` messages folded
        into a summary from which `in_summary` were redacted."""
        if self.redacted is None:
            return RedactedCredentials(folded=in_summary)
        return RedactedCredentials(
            system=self.redacted.count(0, self.head),
            folded=in_summary,
            kept=self.redacted.count(self.head + folded),
        )

    def outcome(
        self,
        messages: tuple[Message, ...],
        status: CompactionStatus,
        tokens: int,
        reason: str | None = None,
    ) -> CompactionOutcome:
        """The messages returned as they were given (credentials redacted unless kept)."""
        return CompactionOutcome(
            messages,
            status,
            tokens,
            tokens,
            reason=reason,
            redactions=self.tally(),
            keep_credentials=self.keep_credentials,
        )


class _Compaction:
    """One compaction's work: the cuts tried, the summary and shrinking of each."""

    def __init__(
        self,
        service: ContextCompactor,
        messages: tuple[Message, ...],
        costs: list[int],
        settings: CompactionSettings,
        project: str | None,
        verbatim: _Verbatim,
    ) -> None:
        self.service = service
        self.verbatim = verbatim
        self.messages = messages
        self.costs = costs
        self.settings = settings
        self.project = project
        self.head = _leading_system(messages)
        self.body = messages[self.head :]
        self.before = sum(costs)
        self.shrink_cache: ShrinkCache = {}
        self.redacted: tuple[list[Message], list[Redactions]] | None = None
        if verbatim.redacted is not None:  # every field is redacted already
            self.redacted = (list(self.body), list(verbatim.redacted.found[self.head :]))

    def run(self) -> CompactionOutcome:
        points = safe_cut_points(self.body, self._choosing_costs())
        if not points:
            raise CompactionFailedError(
                "nothing to fold: no cut leaves every tool call with its result"
            )
        late_system = next(
            (i for i, m in enumerate(self.body) if m.role is Role.SYSTEM), len(self.body)
        )
        problems: list[str] = []
        skip_to_kept: int | None = None
        for point in cut_candidates(points, self.settings.keep_recent_tokens):
            if skip_to_kept is not None and point.kept_tokens > skip_to_kept:
                continue  # folds too little to close the gap the last cut left
            if point.position > late_system:
                # An instruction given mid-conversation: a summary would drop it silently.
                problems.append("a system message after the conversation began cannot be folded")
                break
            outcome = self._fold(point)
            if outcome.tokens_after > self.settings.threshold:
                problems.append(
                    f"{outcome.tokens_after:,} tokens, over the threshold of "
                    f"{self.settings.threshold:,}, when keeping {outcome.kept_messages} messages"
                )
                skip_to_kept = point.kept_tokens - (outcome.tokens_after - self.settings.threshold)
                continue
            if outcome.tokens_after >= self.before:
                problems.append(
                    f"the result is not smaller ({outcome.tokens_after:,} tokens, "
                    f"{self.before:,} before)"
                )
                continue
            shrinker = self.service.shrinker
            if shrinker is not None and outcome.shrunk_results:
                stored = shrinker.store(outcome.shrunk_results)
                outcome = replace(outcome, shrunk_results=stored)
            return outcome
        raise CompactionFailedError(_failure_reason(problems))

    def _choosing_costs(self) -> list[int]:
        """The body's costs as the cut is chosen: a tool result over a quarter of
        `keep_recent_tokens` counts as a quarter, since it will be shrunk to make room. So one
        huge output does not push the cut past all the recent work before it."""
        cap = max(MIN_SHRUNK_TOKENS, self.settings.keep_recent_tokens // 4)
        costs = list(self.costs[self.head :])
        if self.service.shrinker is None:
            return costs
        counter = self.service.counter
        for index, message in enumerate(self.body):
            if costs[index] <= cap or not message.tool_results:
                continue
            for result in message.tool_results:
                costs[index] -= max(0, counter.count(result.content) - cap)
        return costs

    def _fold(self, point: CutPoint) -> CompactionOutcome:
        """The messages with the body before `point` folded into a summary; the kept part's
        tool results shrunk when it is over its budget or the result over the threshold."""
        cut = point.position
        summary_message, summary, redactions = self._summary_message(cut)
        summary_cost = message_tokens([summary_message], self.service.counter)[0]
        head_cost = sum(self.costs[: self.head])
        original = self.body[cut:]
        kept = list(original)
        kept_costs = self.costs[self.head + cut :]
        kept_cost = sum(kept_costs)
        shrunk: list[ShrunkResult] = []
        room = self.settings.threshold - head_cost - summary_cost
        target = min(self.settings.keep_recent_tokens, room)
        if kept_cost > target and self.service.shrinker is not None:
            kept, shrunk = self.service.shrinker.shrink_messages(
                kept, target, costs=kept_costs, project=self.project, done=self.shrink_cache
            )
            # Only the messages that changed are counted again.
            kept_cost = sum(
                cost if now is before else message_tokens([now], self.service.counter)[0]
                for now, before, cost in zip(kept, original, kept_costs, strict=True)
            )
        result = (*self.messages[: self.head], summary_message, *kept)
        broken = violations(result)
        if broken:
            raise CompactionFailedError(f"the result breaks a provider rule: {broken[0]}")
        text = summary_message.text
        return CompactionOutcome(
            messages=result,
            status="compacted",
            tokens_before=self.before,
            tokens_after=head_cost + summary_cost + kept_cost,
            kept_messages=len(kept),
            folded_messages=cut,
            summary=summary,
            # surrogatepass: a transcript may hold a lone surrogate (JSON allows "\ud800").
            summary_sha256=hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest(),
            summary_tokens=summary_cost,
            split_turn=point.splits_turn,
            redactions=self.verbatim.tally(cut, redactions.count),
            keep_credentials=self.verbatim.keep_credentials,
            shrunk_results=tuple(shrunk),
        )

    def _redacted_body(self) -> tuple[list[Message], list[Redactions]]:
        """The body with its credentials redacted, message by message (computed once)."""
        if self.redacted is None:
            scanner = self.service.scanner
            messages: list[Message] = []
            counts: list[Redactions] = []
            for message in self.body:
                found = Redactions()
                messages.extend(
                    redact_messages([message], scanner, found) if scanner else [message]
                )
                counts.append(found)
            self.redacted = (messages, counts)
        return self.redacted

    def _summary_message(self, cut: int) -> tuple[Message, CompactionSummary, Redactions]:
        """The summary of the body before `cut`, built from its redacted copy, so no item
        (even one cut short) can hold a credential."""
        bodies, counts = self._redacted_body()
        folded: Sequence[Message] = bodies[:cut]
        redactions = Redactions()
        for found in counts[:cut]:
            redactions.kinds.update(found.kinds)
        previous = None
        last = self.body[cut - 1] if cut else None  # what the summary's record links to
        if folded and folded[0].is_summary:
            previous = parse_summary(folded[0].text)
            if previous is not None:
                folded = folded[1:]
        summary = self.service.summarizer.summarize(folded, previous)
        if self.service.scanner is not None:  # a merged earlier summary, once more
            summary, redactions = redact_summary(summary, self.service.scanner, redactions)
        counter = self.service.counter

        def cost(text: str) -> int:
            return message_tokens([_summary(text, {})], counter)[0]

        summary = fit_summary(summary, self.settings.summary_tokens, cost)
        extra = {SUMMARY_OF: dict(last.extra), SUMMARY_TOKENS_BEFORE: self.before} if last else {}
        return _summary(render_summary(summary), extra), summary, redactions


def _summary(text: str, extra: dict[str, object]) -> Message:
    return Message(role=Role.USER, content=(TextBlock(text=text),), extra=extra)


def _failure_reason(problems: list[str]) -> str:
    if not problems:
        return "no cut could be tried"
    if len(problems) == 1:
        return problems[0]
    return f"no cut fits: {problems[0]}; the last tried: {problems[-1]}"


REASON_CHARS = 500


def _clipped(reason: str) -> str:
    """A failure's reason as recorded: an exception's text can be as long as a transcript."""
    return reason if len(reason) <= REASON_CHARS else reason[: REASON_CHARS - 1] + "…"


def _leading_system(messages: tuple[Message, ...]) -> int:
    count = 0
    while count < len(messages) and messages[count].role is Role.SYSTEM:
        count += 1
    return count


def _first_line(error: Exception) -> str:
    text = str(error).strip()
    return text.splitlines()[0] if text else type(error).__name__
