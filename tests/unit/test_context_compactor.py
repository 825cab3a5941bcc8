"""ContextCompactor: trigger, cut, failure and events, with fakes for the tokenizer (a word
counter), the summarizer and the event sink. The property over random transcripts with parallel,
failed and interrupted tool calls is in tests/properties; tests/integration/test_compaction_fit.py
runs the compactor with the real tokenizer."""

from __future__ import annotations

import logging
from typing import Any

import pytest

from cleveragents.adapters.secrets.pattern_scanner import PatternSecretScanner
from cleveragents.application.services.compaction.context_compactor import ContextCompactor
from cleveragents.application.services.compaction.message_tokens import message_tokens
from cleveragents.application.services.compaction.outcome import CompactionSettings
from cleveragents.application.services.compaction.summary.deterministic_summarizer import (
    DeterministicSummarizer,
)
from cleveragents.domain.compaction_summary import SummarySection, render_summary
from cleveragents.domain.errors import TokenCountingError
from cleveragents.domain.event import CONTEXT_COMPACTED, CONTEXT_COMPACTION_FAILED, RecordedEvent
from cleveragents.domain.transcript import SUMMARY_MARKER, Message, Role, TextBlock, ToolResult
from cleveragents.domain.transcript_rules import is_valid
from tests.compactor_samples import COUNTER, assistant, call, compactor, user
from tests.fakes import FakeEventSink, FakeSummarizer, FakeTokenCounter

WIDE = CompactionSettings(context_window=200_000, reserve_tokens=16_384, keep_recent_tokens=60)


def result(call_id: str, content: str = "ok", is_error: bool = False) -> Message:
    block = ToolResult(call_id=call_id, content=content, is_error=is_error)
    return Message(role=Role.USER, content=(block,))


def conversation(turns: int) -> list[Message]:
    messages = [Message(role=Role.SYSTEM, content=(TextBlock(text="You are careful."),))]
    for turn in range(turns):
        messages += [
            user(f"request {turn}: please fix the failing test number {turn} in the suite"),
            assistant(f"Running the tests for request {turn}.", call(f"c{turn}")),
            result(f"c{turn}", f"{turn} passed, 1 failed " + "detail " * 30),
            assistant(f"Request {turn} is done."),
        ]
    return messages


def test_under_the_threshold_nothing_happens() -> None:
    service, events = compactor()
    messages = conversation(3)
    outcome = service.compact(messages, WIDE)
    assert outcome.status == "not-needed"
    assert outcome.messages == tuple(messages)
    assert outcome.tokens_before == outcome.tokens_after > 0
    assert events.events == []


def test_over_the_threshold_it_compacts_and_keeps_the_latest_turns_verbatim() -> None:
    messages = conversation(6)
    total = (
        ContextCompactor(COUNTER, FakeSummarizer(), FakeEventSink())
        .compact(messages, WIDE)
        .tokens_before
    )
    tight = CompactionSettings(
        context_window=total, reserve_tokens=total // 2, keep_recent_tokens=total // 4
    )
    service, events = compactor()
    outcome = service.compact(messages, tight)
    assert outcome.status == "compacted"
    assert outcome.tokens_after < outcome.tokens_before == total
    kept = outcome.messages[-outcome.kept_messages :]
    assert kept == tuple(messages[-outcome.kept_messages :])
    assert kept[0].has_user_text  # the kept part starts with a user message
    assert outcome.messages[0].role is Role.SYSTEM  # the system prompt is never folded
    assert outcome.messages[1].text.startswith(SUMMARY_MARKER)
    assert outcome.folded_messages + outcome.kept_messages + 1 == len(messages)
    assert is_valid(outcome.messages)
    [event] = events.events
    assert event.kind == CONTEXT_COMPACTED
    assert event.payload["tokens_before"] == outcome.tokens_before
    assert event.payload["tokens_after"] == outcome.tokens_after
    assert event.payload["summary_sha256"] == outcome.summary_sha256
    assert outcome.summary_sha256 is not None
    assert len(outcome.summary_sha256) == 64
    # What the summary holds and left out, per section (what agents verify reads).
    assert outcome.summary is not None
    assert event.payload["summary_sections"] == {
        section.value: count for section, count in outcome.summary.counts().items()
    }
    assert event.payload["summary_omitted"] == {
        section.value: count for section, count in outcome.summary.omitted.items()
    }


def test_force_compacts_under_the_threshold() -> None:
    service, _ = compactor()
    outcome = service.compact(conversation(4), WIDE, force=True)
    assert outcome.status == "compacted"


def test_a_latest_request_over_keep_recent_is_folded_and_quoted_verbatim() -> None:
    request = "the current task " + "word " * 400
    messages = [*conversation(2), user(request)]
    service, _ = compactor()
    outcome = service.compact(messages, WIDE, force=True)
    assert outcome.status == "compacted"
    assert outcome.summary is not None
    assert outcome.summary.latest_request == request
    assert request in outcome.messages[-1].text  # the summary quotes it whole


def test_a_tiny_single_turn_is_not_smaller_once_summarised_and_stays_unchanged() -> None:
    messages = [user("do it"), assistant("ok", call("a")), result("a")]
    service, events = compactor()
    outcome = service.compact(messages, WIDE, force=True)
    assert outcome.status == "failed"
    assert outcome.messages == tuple(messages)
    assert outcome.reason is not None
    assert "not smaller" in outcome.reason
    [event] = events.events
    assert event.kind == CONTEXT_COMPACTION_FAILED
    assert event.payload["reason"] == outcome.reason
    assert event.payload["tokens_before"] == outcome.tokens_before


def agent_session(steps: int, request: str = "fix the failing payment tests") -> list[Message]:
    """One request, then `steps` tool calls with their results: the common agent session."""
    messages = [user(request)]
    for step in range(steps):
        messages += [
            assistant(
                f"Step {step}: running the next check.", call(f"s{step}", f"pytest -k t{step}")
            ),
            result(f"s{step}", f"test {step} output " + "line " * 40),
        ]
    messages.append(assistant("All checks ran."))
    return messages


def test_a_single_turn_agent_session_is_cut_inside_its_turn() -> None:
    messages = agent_session(60)
    settings = CompactionSettings(
        context_window=200_000, reserve_tokens=0, keep_recent_tokens=1_000
    )
    events = FakeEventSink()
    service = ContextCompactor(COUNTER, DeterministicSummarizer(), events)
    outcome = service.compact(messages, settings, force=True)
    assert outcome.status == "compacted", outcome.reason
    assert outcome.split_turn
    kept = outcome.messages[1:]
    assert kept[0].role is Role.ASSISTANT  # the kept part starts at an assistant message
    assert kept == tuple(messages[len(messages) - len(kept) :])
    assert sum(message_tokens(kept, COUNTER)) <= 1_000
    assert outcome.summary is not None
    assert outcome.summary.latest_request == "fix the failing payment tests"
    assert is_valid(outcome.messages)
    assert events.events[-1].payload["split_turn"] is True


def test_the_summary_keeps_within_its_budget_and_says_what_it_left_out() -> None:
    messages = agent_session(300)
    settings = CompactionSettings(
        context_window=200_000, reserve_tokens=0, keep_recent_tokens=1_000, summary_tokens=300
    )
    service = ContextCompactor(COUNTER, DeterministicSummarizer(), FakeEventSink())
    outcome = service.compact(messages, settings, force=True)
    assert outcome.status == "compacted", outcome.reason
    assert outcome.summary_tokens <= 300
    summary_message = outcome.messages[0]
    assert message_tokens([summary_message], COUNTER) == [outcome.summary_tokens]
    assert outcome.summary is not None
    assert outcome.summary.omitted[SummarySection.COMMANDS] > 0
    assert "Left out to keep this summary within its budget" in summary_message.text
    assert outcome.tokens_after <= 1_000 + 300


def test_a_result_that_cannot_fit_the_window_fails_with_the_reason() -> None:
    rules = Message(role=Role.SYSTEM, content=(TextBlock(text="rule " * 3_000),))
    messages = [rules, *agent_session(20)]
    tight = CompactionSettings(
        context_window=3_000, reserve_tokens=500, keep_recent_tokens=500, summary_tokens=500
    )
    service, events = compactor()
    outcome = service.compact(messages, tight, force=True)
    assert outcome.status == "failed"
    assert outcome.messages == tuple(messages)
    assert outcome.reason is not None
    assert "over the threshold of 2,500" in outcome.reason
    assert events.events[-1].kind == CONTEXT_COMPACTION_FAILED
    assert events.events[-1].payload["threshold"] == 2_500


def test_credentials_copied_into_the_summary_are_redacted_and_counted() -> None:
    token = "ghp_" + "A1b2C3d4E5f6G7h8I9j0" * 2  # a GitHub token's shape
    messages = [
        user("publish the release"),
        assistant("Creating it.", call("g", f"GITHUB_TOKEN={token} gh release create v1.2")),
        result("g", "created"),
        *agent_session(10)[1:],
    ]
    settings = CompactionSettings(context_window=200_000, reserve_tokens=0, keep_recent_tokens=200)
    events = FakeEventSink()
    service = ContextCompactor(
        COUNTER, DeterministicSummarizer(), events, secret_scanner=PatternSecretScanner()
    )
    outcome = service.compact(messages, settings, force=True)
    assert outcome.status == "compacted", outcome.reason
    text = outcome.messages[0].text
    assert "gh release create v1.2" in text  # the command survives, its token does not
    assert token not in text
    assert token[:12] not in text
    assert "[REDACTED:github-token]" in text
    assert outcome.redacted_secrets == 1
    assert events.events[-1].payload["redacted_secrets"] == 1


def test_a_summarizer_that_raises_leaves_the_messages_unchanged() -> None:
    service, events = compactor(FakeSummarizer(error=RuntimeError("model unavailable")))
    messages = conversation(4)
    outcome = service.compact(messages, WIDE, force=True)
    assert outcome.status == "failed"
    assert outcome.messages == tuple(messages)
    assert outcome.reason is not None
    assert "model unavailable" in outcome.reason
    assert [e.kind for e in events.events] == [CONTEXT_COMPACTION_FAILED]


def test_a_summary_larger_than_what_it_replaces_is_a_failure() -> None:
    service, events = compactor(FakeSummarizer(padding=5000))
    messages = conversation(3)
    outcome = service.compact(messages, WIDE, force=True)
    assert outcome.status == "failed"
    assert outcome.reason is not None
    assert "not smaller" in outcome.reason
    assert outcome.messages == tuple(messages)
    assert events.events[-1].kind == CONTEXT_COMPACTION_FAILED


def test_a_cut_never_separates_a_call_from_its_result() -> None:
    # The only user texts inside the span of call "a" are not turn starts.
    messages = [
        user("first"),
        assistant("", call("a")),
        Message(
            role=Role.USER,
            content=(
                ToolResult(call_id="a", content="done " + "output " * 300),
                TextBlock(text="and also this"),
            ),
        ),
        assistant("fine"),
        user("second"),
        assistant("ok"),
    ]
    service, _ = compactor()
    outcome = service.compact(messages, WIDE, force=True)
    assert outcome.status == "compacted"
    # Not at the user text after the result (it shares a message with the result): the kept
    # part starts at the assistant message after it.
    assert outcome.messages[1:] == tuple(messages[3:])


def test_a_previous_summary_is_merged_not_summarised() -> None:
    summarizer = FakeSummarizer()
    service, _ = compactor(summarizer)
    first = service.compact(conversation(4), WIDE, force=True)
    second = service.compact([*first.messages, *conversation(3)[1:]], WIDE, force=True)
    assert second.status == "compacted"
    _, previous = summarizer.calls[-1]
    assert previous is not None  # the first summary, parsed back
    assert previous.items(SummarySection.GOALS)
    assert second.summary is not None
    for goal in previous.items(SummarySection.GOALS):
        assert goal in second.summary.items(SummarySection.GOALS)
    assert render_summary(second.summary) in second.messages[1].text


# --- awkward cuts, inputs and event sinks ------------------------------------------------------


def test_when_folding_the_oldest_turn_does_not_shrink_a_later_cut_folds_more() -> None:
    # keep_recent admits all but the tiny first turn; its summary is not smaller than it, so
    # the compactor folds up to the next turn start instead.
    messages = [
        user("hi"),
        assistant("hello"),
        user("second request " + "detail " * 200),
        assistant("done " * 200),
        user("third"),
        assistant("ok"),
    ]
    generous = CompactionSettings(
        context_window=200_000, reserve_tokens=0, keep_recent_tokens=100_000
    )
    events = FakeEventSink()
    service = ContextCompactor(COUNTER, DeterministicSummarizer(), events)
    outcome = service.compact(messages, generous, force=True)
    assert outcome.status == "compacted"
    assert outcome.folded_messages == 4
    assert outcome.messages[1:] == tuple(messages[4:])
    assert [e.kind for e in events.events] == [CONTEXT_COMPACTED]


def test_a_system_message_in_the_folded_part_fails_the_compaction() -> None:
    late_rule = Message(role=Role.SYSTEM, content=(TextBlock(text="NEVER DELETE FILES"),))
    messages = [*conversation(3)[1:5], late_rule, *conversation(3)[5:]]
    service, _ = compactor()
    outcome = service.compact(messages, WIDE, force=True)
    assert outcome.status == "failed"
    assert outcome.messages == tuple(messages)
    assert outcome.reason is not None
    assert "system message" in outcome.reason


def test_a_lone_surrogate_does_not_stop_the_fingerprint() -> None:
    messages = conversation(4)
    messages[1] = user("request with a lone surrogate \ud800 in it " + "word " * 50)
    service, _ = compactor()
    outcome = service.compact(messages, WIDE, force=True)
    assert outcome.status == "compacted", outcome.reason
    assert outcome.summary_sha256 is not None


class _FailingCounter(FakeTokenCounter):
    """A tokenizer that cannot take one message (a panic, memory running out)."""

    def count(self, text: str) -> int:
        if "unspeakable" in text:
            raise TokenCountingError("the tokenizer cannot count this text: PanicException")
        return super().count(text)


def test_a_conversation_the_tokenizer_cannot_count_is_not_compacted() -> None:
    messages = [*conversation(4), user("an unspeakable request")]
    events = FakeEventSink()
    service = ContextCompactor(_FailingCounter(), DeterministicSummarizer(), events)
    outcome = service.compact(messages, WIDE, force=True)
    assert outcome.status == "failed"
    assert outcome.messages == tuple(messages)
    assert outcome.reason is not None
    assert "PanicException" in outcome.reason
    assert "estimated" in outcome.reason
    [event] = events.events
    assert event.kind == CONTEXT_COMPACTION_FAILED


class _RefusingEventSink(FakeEventSink):
    """A store that cannot take a write, as a read-only database behaves."""

    def emit(self, kind: str, payload: dict[str, Any]) -> RecordedEvent:
        raise RuntimeError("database error: attempt to write a readonly database\n[SQL: INSERT]")


def test_an_event_the_store_cannot_take_costs_the_caller_nothing_but_a_note() -> None:
    service = ContextCompactor(COUNTER, FakeSummarizer(), _RefusingEventSink())
    notes: list[str] = []
    outcome = service.compact(conversation(4), WIDE, force=True, unrecorded=notes.append)
    assert outcome.compacted
    assert notes == [
        "the context_compacted event was not recorded: "
        "database error: attempt to write a readonly database"
    ]


def test_a_failed_compaction_whose_event_cannot_be_recorded_still_returns_the_originals() -> None:
    service = ContextCompactor(COUNTER, FakeSummarizer(), _RefusingEventSink())
    messages = conversation(1)[:2]  # nothing to fold
    notes: list[str] = []
    outcome = service.compact(messages, WIDE, force=True, unrecorded=notes.append)
    assert outcome.status == "failed"
    assert outcome.messages == tuple(messages)
    assert [note.split(":")[0] for note in notes] == [
        "the context_compaction_failed event was not recorded"
    ]


def test_without_a_listener_an_unrecorded_event_is_logged_as_a_warning(
    caplog: pytest.LogCaptureFixture,
) -> None:
    service = ContextCompactor(COUNTER, FakeSummarizer(), _RefusingEventSink())
    with caplog.at_level(logging.WARNING):
        outcome = service.compact(conversation(4), WIDE, force=True)
    assert outcome.compacted
    assert "context_compacted event was not recorded" in caplog.text
