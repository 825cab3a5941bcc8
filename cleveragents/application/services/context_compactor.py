"""Conversation compaction (SPEC C6, SOP section 3) that never loses the current task or
orphans a tool result.

Before each provider request `compact` checks the request's tokens against
`context_window - reserve_tokens`. Over it (or when forced) the older turns are folded into one
summary message, written by the `Summarizer` port (local and deterministic by default), and the
most recent complete turns are kept verbatim: the cut is always at a user message that starts a
turn, never between a tool call and its result, and never drops the latest turn. The result must
pass the providers' structural rules and be smaller than the input; otherwise, and on any
exception, the original messages are returned unchanged and `context_compaction_failed` is
emitted. A success emits `context_compacted` with the token figures and the summary's SHA-256.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from itertools import accumulate

from cleveragents.application.ports.events import EventSink
from cleveragents.application.ports.summarizer import Summarizer
from cleveragents.application.ports.token_counter import TokenCounter
from cleveragents.application.services.compaction.message_tokens import message_tokens
from cleveragents.application.services.compaction.outcome import (
    CompactionOutcome,
    CompactionSettings,
)
from cleveragents.domain.compaction_summary import parse_summary, render_summary
from cleveragents.domain.event import CONTEXT_COMPACTED, CONTEXT_COMPACTION_FAILED
from cleveragents.domain.transcript import Message, Role, TextBlock
from cleveragents.domain.transcript_rules import violations


class CompactionFailedError(Exception):
    """Why a compaction was abandoned (the original messages are used instead)."""


class ContextCompactor:
    """Compacts a conversation before a provider request; see the module docstring."""

    def __init__(self, token_counter: TokenCounter, summarizer: Summarizer, events: EventSink):
        self._counter = token_counter
        self._summarizer = summarizer
        self._events = events

    def compact(
        self,
        messages: Sequence[Message],
        settings: CompactionSettings,
        *,
        force: bool = False,
        scope: Mapping[str, str] | None = None,
    ) -> CompactionOutcome:
        """The messages to send: compacted when over the threshold (or `force`), else the
        originals. Never raises for a compaction that fails: that is reported in the outcome
        and as an event. `scope` (e.g. ``{"project_id": ..., "plan_id": ...}``) is added to
        the events' payloads, so metrics can count compactions per project and plan."""
        labels = dict(scope or {})
        original = tuple(messages)
        costs = message_tokens(original, self._counter)
        before = sum(costs)
        if not force and before <= settings.threshold:
            return CompactionOutcome(original, "not-needed", before, before)
        try:
            outcome = self._compacted(original, costs, settings)
        except Exception as error:  # any failure keeps the original messages
            reason = str(error) if isinstance(error, CompactionFailedError) else repr(error)
            return self._failed(original, before, _clipped(reason), labels)
        self._events.emit(
            CONTEXT_COMPACTED,
            {
                **labels,
                "tokens_before": outcome.tokens_before,
                "tokens_after": outcome.tokens_after,
                "folded_messages": outcome.folded_messages,
                "kept_messages": outcome.kept_messages,
                "summary_sha256": outcome.summary_sha256,
                "threshold": settings.threshold,
                "forced": force,
            },
        )
        return outcome

    def _compacted(
        self, messages: tuple[Message, ...], costs: list[int], settings: CompactionSettings
    ) -> CompactionOutcome:
        head = _leading_system(messages)
        body = messages[head:]
        before = sum(costs)
        # The earliest cut that keeps at most keep_recent_tokens first; when its summary is not
        # smaller than what it replaces (a short fold), later cuts fold more.
        smaller_not_found = ""
        for cut in _cuts(body, costs[head:], settings.keep_recent_tokens):
            outcome = self._fold(messages, head, cut, costs)
            if outcome.tokens_after < before:
                return outcome
            smaller_not_found = f"({outcome.tokens_after} tokens, {before} before)"
        raise CompactionFailedError(f"the result is not smaller {smaller_not_found}")

    def _fold(
        self, messages: tuple[Message, ...], head: int, cut: int, costs: list[int]
    ) -> CompactionOutcome:
        """The messages with `body[:cut]` folded into a summary (`body` after the system
        messages); `CompactionFailedError` when the result breaks a provider rule."""
        body = messages[head:]
        previous = None
        folded = body[:cut]
        late_system = next((m for m in folded if m.role is Role.SYSTEM), None)
        if late_system is not None:
            # An instruction given mid-conversation: a summary would drop it silently.
            raise CompactionFailedError(
                "a system message after the conversation began cannot be folded into a summary"
            )
        if folded and folded[0].is_summary:
            previous = parse_summary(folded[0].text)
            if previous is not None:
                folded = folded[1:]
        summary = self._summarizer.summarize(folded, previous)
        text = render_summary(summary)
        summary_message = Message(role=Role.USER, content=(TextBlock(text=text),))
        result = (*messages[:head], summary_message, *body[cut:])
        broken = violations(result)
        if broken:
            raise CompactionFailedError(f"the result breaks a provider rule: {broken[0]}")
        after = (
            sum(costs[:head])
            + message_tokens([summary_message], self._counter)[0]
            + sum(costs[head + cut :])
        )
        return CompactionOutcome(
            messages=result,
            status="compacted",
            tokens_before=sum(costs),
            tokens_after=after,
            kept_messages=len(body) - cut,
            folded_messages=cut,
            summary=summary,
            # surrogatepass: a transcript may hold a lone surrogate (JSON allows "\ud800").
            summary_sha256=hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest(),
        )

    def _failed(
        self, messages: tuple[Message, ...], before: int, reason: str, labels: dict[str, str]
    ) -> CompactionOutcome:
        self._events.emit(
            CONTEXT_COMPACTION_FAILED,
            {**labels, "reason": reason, "tokens_before": before, "tokens_after": before},
        )
        return CompactionOutcome(messages, "failed", before, before, reason=reason)


REASON_CHARS = 500


def _clipped(reason: str) -> str:
    """A failure's reason as recorded: an exception's text can be as long as a transcript."""
    return reason if len(reason) <= REASON_CHARS else reason[: REASON_CHARS - 1] + "…"


def _leading_system(messages: tuple[Message, ...]) -> int:
    count = 0
    while count < len(messages) and messages[count].role is Role.SYSTEM:
        count += 1
    return count


def _cuts(body: tuple[Message, ...], costs: list[int], keep_recent_tokens: int) -> list[int]:
    """Where the kept part of `body` may start, best first: the earliest turn start whose
    suffix fits in `keep_recent_tokens`, then the later ones; only the latest turn start when
    even the last turn is larger (the current task is never folded). A turn start is a user
    message with text and no tool results, not a summary, with no tool result at or after it
    answering a call before it."""
    starts = _safe_turn_starts(body)
    if not starts:
        raise CompactionFailedError("nothing to fold: the conversation is a single turn")
    suffix = [*reversed([*accumulate(reversed(costs), initial=0)])]
    fitting = [start for start in starts if suffix[start] <= keep_recent_tokens]
    return fitting or starts[-1:]


def _safe_turn_starts(body: tuple[Message, ...]) -> list[int]:
    """Turn starts after the first message, where a cut separates no call from its result."""
    call_position: dict[str, int] = {}
    blocked = [0] * (len(body) + 1)  # +1 at a call, -1 after its result: cuts inside are unsafe
    for position, message in enumerate(body):
        for call in message.tool_calls:
            call_position.setdefault(call.id, position)
        for result in message.tool_results:
            called = call_position.get(result.call_id)
            if called is not None:
                blocked[called + 1] += 1
                blocked[position + 1] -= 1
    starts: list[int] = []
    open_spans = 0
    for position, message in enumerate(body):
        open_spans += blocked[position]
        is_start = (
            message.role is Role.USER
            and message.has_user_text
            and not message.tool_results
            and not message.is_summary
        )
        if position > 0 and is_start and open_spans == 0:
            starts.append(position)
    return starts
