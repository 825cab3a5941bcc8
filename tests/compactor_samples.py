"""Messages, tool calls and a compactor on fakes, for the unit and property tests of
ContextCompactor."""

from __future__ import annotations

from cleveragents.application.services.compaction.context_compactor import ContextCompactor
from cleveragents.domain.transcript import Message, Role, TextBlock, ToolCall
from tests.fakes import FakeEventSink, FakeSummarizer, FakeTokenCounter

COUNTER = FakeTokenCounter()


def user(text: str) -> Message:
    return Message(role=Role.USER, content=(TextBlock(text=text),))


def assistant(text: str, *calls: ToolCall) -> Message:
    return Message(role=Role.ASSISTANT, content=(TextBlock(text=text), *calls))


def call(call_id: str, command: str = "pytest -q") -> ToolCall:
    return ToolCall(id=call_id, name="Bash", input={"command": command})


def compactor(summarizer: FakeSummarizer | None = None) -> tuple[ContextCompactor, FakeEventSink]:
    events = FakeEventSink()
    return ContextCompactor(COUNTER, summarizer or FakeSummarizer(), events), events
