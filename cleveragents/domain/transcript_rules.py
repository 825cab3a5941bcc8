"""The structural rules providers enforce on a conversation, as a pure validator.

A transcript that breaks one of them is rejected by the provider on every later request, which
is why compaction must never produce one:

1. the first message that is not a system message is a user message;
2. system messages come only at the start;
3. every tool result answers a tool call of the immediately preceding assistant message;
4. every tool call is answered before the next user text (or the next assistant message);
5. a tool call id is used once, and a call is answered once;
6. in a user message, tool results come before any other block (Anthropic's rule).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from cleveragents.domain.transcript import Message, Role, ToolResult


@dataclass(frozen=True, slots=True)
class Violation:
    """A broken rule: the index of the message where it shows, and what is wrong."""

    index: int
    rule: str
    message: str

    def __str__(self) -> str:
        return f"message {self.index}: {self.message} ({self.rule})"


def violations(messages: Sequence[Message]) -> list[Violation]:
    """Every rule the messages break, in message order; empty when they are valid.

    A transcript may end with an assistant message whose tool calls are not answered yet: that
    is the state right after a provider response, valid to store (the calls are about to run).
    """
    checker = _Checker()
    for index, message in enumerate(messages):
        checker.check(index, message)
    if checker.answered:
        # Some calls of the last assistant message were answered and others were not: the
        # next request would be rejected (calls not yet run would have no results at all).
        checker.close("at the end of the transcript")
    return checker.found


class _Checker:
    def __init__(self) -> None:
        self.found: list[Violation] = []
        self.seen_ids: set[str] = set()
        self.open_calls: dict[str, int] = {}  # calls of the latest assistant message, unanswered
        self.answered: set[str] = set()
        self.started = False  # a non-system message was seen

    def add(self, index: int, rule: str, message: str) -> None:
        self.found.append(Violation(index, rule, message))

    def check(self, index: int, message: Message) -> None:
        if message.role is Role.SYSTEM:
            if self.started:
                self.add(index, "system-first", "a system message after the conversation began")
            return
        if not self.started and message.role is not Role.USER:
            self.add(index, "user-first", "the first non-system message is not a user message")
        self.started = True
        if message.role is Role.ASSISTANT:
            self.assistant(index, message)
        else:
            self.user(index, message)

    def assistant(self, index: int, message: Message) -> None:
        self.close("before the next assistant message")
        self.answered = set()
        for call in message.tool_calls:
            if call.id in self.seen_ids:
                self.add(index, "unique-call-id", f"tool call id {call.id!r} is used twice")
            self.seen_ids.add(call.id)
            self.open_calls[call.id] = index

    def user(self, index: int, message: Message) -> None:
        is_result = [isinstance(block, ToolResult) for block in message.content]
        first_other = next((i for i, result in enumerate(is_result) if not result), None)
        last_result = max((i for i, result in enumerate(is_result) if result), default=-1)
        if first_other is not None and first_other < last_result:
            self.add(index, "results-first", "a tool result after other content")
        for result in message.tool_results:
            call_id = result.call_id
            if call_id in self.answered:
                self.add(index, "answered-once", f"tool call {call_id!r} is answered twice")
            elif call_id not in self.open_calls:
                self.add(
                    index,
                    "result-follows-call",
                    f"tool result for {call_id!r} answers no tool call of the preceding "
                    "assistant message",
                )
            else:
                del self.open_calls[call_id]
                self.answered.add(call_id)
        if message.has_user_text:
            self.close("before the next user text")

    def close(self, where: str) -> None:
        """Report the calls still open, then forget them."""
        for call_id, call_index in sorted(self.open_calls.items(), key=lambda item: item[1]):
            self.add(call_index, "call-answered", f"tool call {call_id!r} is not answered {where}")
        self.open_calls = {}


def is_valid(messages: Sequence[Message]) -> bool:
    return not violations(messages)
