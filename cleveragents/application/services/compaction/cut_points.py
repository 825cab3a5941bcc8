"""Where a compaction may cut a conversation: the first message it keeps verbatim.

A cut at position ``p`` folds ``body[:p]`` into the summary and keeps ``body[p:]``. It is safe
when no tool call before ``p`` has its result at or after ``p`` (and no call before ``p`` is
still unanswered: its result is about to be appended), and the message at ``p`` starts a turn
(a user request) or is an assistant message. A cut at an assistant message splits a turn: the
head of the turn, its user request included, is folded, and the summary quotes that request
verbatim. ``p == len(body)`` (everything folded) is safe when nothing is left open.

A summary that an earlier compaction wrote (ours, or Claude Code's continuation summary) is
always folded: it stands for everything before it, and a harness resumes from the last one,
so a kept part holding one would hide the new summary before it.

Agent sessions are mostly one request followed by hundreds of tool calls, so turn starts alone
would leave nothing to fold; assistant-message boundaries are where such a session can be cut.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import accumulate

from cleveragents.domain.transcript import CONTINUATION_PREFIX, Message, Role


@dataclass(frozen=True, slots=True)
class CutPoint:
    """A safe cut: `position` in the body, the tokens kept from it on, and whether it splits
    a turn (the kept part starts with an assistant message, not a user request)."""

    position: int
    kept_tokens: int
    splits_turn: bool


def safe_cut_points(body: Sequence[Message], costs: Sequence[int]) -> list[CutPoint]:
    """Every safe cut after the first message (and after any earlier summary), earliest
    first."""
    open_spans = _open_spans(body)
    suffix = [*reversed([*accumulate(reversed(costs), initial=0)])]
    summaries = [i for i, message in enumerate(body) if _earlier_summary(message)]
    first = max(1, summaries[-1] + 1) if summaries else 1
    points: list[CutPoint] = []
    for position in range(first, len(body) + 1):
        if open_spans[position]:
            continue
        if position == len(body):
            points.append(CutPoint(position, 0, splits_turn=False))
            continue
        message = body[position]
        if message.role is Role.ASSISTANT:
            points.append(CutPoint(position, suffix[position], splits_turn=True))
        elif message.starts_turn or (message.has_user_text and not message.tool_results):
            # A harness message (meta) with text is not a request, but the kept part may
            # start there: it holds no tool result that would lose its call.
            points.append(CutPoint(position, suffix[position], splits_turn=not message.starts_turn))
    return points


def _earlier_summary(message: Message) -> bool:
    return message.is_summary or (
        message.role is Role.USER and message.text.lstrip().startswith(CONTINUATION_PREFIX)
    )


def _open_spans(body: Sequence[Message]) -> list[int]:
    """For each position, how many calls before it have their result at or after it (or
    none at all): a cut there would orphan a result or leave a call unanswered."""
    call_position: dict[str, int] = {}
    answered: set[str] = set()
    delta = [0] * (len(body) + 2)
    for position, message in enumerate(body):
        for call in message.tool_calls:
            call_position.setdefault(call.id, position)
        for result in message.tool_results:
            called = call_position.get(result.call_id)
            if called is not None and result.call_id not in answered:
                answered.add(result.call_id)
                delta[called + 1] += 1
                delta[position + 1] -= 1
    for call_id, called in call_position.items():
        if call_id not in answered:  # open until the end: no cut after the call
            delta[called + 1] += 1
    spans: list[int] = []
    running = 0
    for position in range(len(body) + 1):
        running += delta[position]
        spans.append(running)
    return spans


def cut_candidates(points: Sequence[CutPoint], keep_recent_tokens: int) -> list[CutPoint]:
    """The cuts to try, best first, then every later one (each folds more).

    The best is the earliest turn start whose kept part fits `keep_recent_tokens`, as long as
    it keeps at least half of them (whole turns read best); otherwise the earliest cut of any
    kind that fits, which splits a turn but keeps the recent work the budget allows. When none
    fits (the conversation ends with calls still open, after a long message), only the latest:
    its kept part is the smallest, and its oversized tool results can still be shrunk."""
    fitting = [i for i, point in enumerate(points) if point.kept_tokens <= keep_recent_tokens]
    if not fitting:
        return list(points[-1:])
    turn = next((i for i in fitting if not points[i].splits_turn), None)
    if turn is not None and 2 * points[turn].kept_tokens >= keep_recent_tokens:
        return list(points[turn:])
    return list(points[fitting[0] :])
