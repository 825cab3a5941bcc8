"""ContextCompactor on random transcripts with parallel, failed and interrupted tool calls: a valid
transcript compacts to a valid one or stays unchanged (fakes for the tokenizer, the summarizer and
the event sink)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from cleveragents.application.services.compaction.outcome import CompactionSettings
from cleveragents.domain.event import CONTEXT_COMPACTION_FAILED
from cleveragents.domain.transcript import Message
from cleveragents.domain.transcript_rules import is_valid
from tests.compactor_samples import compactor
from tests.properties.transcript_strategies import transcripts


@settings(max_examples=150)
@given(transcripts(), st.integers(1, 400))
def test_any_valid_transcript_compacts_to_a_valid_one_or_stays_unchanged(
    messages: list[Message], keep_recent: int
) -> None:
    assert is_valid(messages)
    service, events = compactor()
    budget = CompactionSettings(
        context_window=200_000, reserve_tokens=0, keep_recent_tokens=keep_recent
    )
    outcome = service.compact(messages, budget, force=True)
    assert len(events.events) == 1
    if outcome.status == "failed":
        assert outcome.messages == tuple(messages)
        assert events.events[0].kind == CONTEXT_COMPACTION_FAILED
        return
    assert is_valid(outcome.messages)
    assert outcome.tokens_after < outcome.tokens_before
    kept = outcome.messages[len(outcome.messages) - outcome.kept_messages :]
    assert kept == tuple(messages[len(messages) - outcome.kept_messages :])
    latest = max(i for i, m in enumerate(messages) if m.has_user_text and not m.tool_results)
    if len(messages) - latest > outcome.kept_messages:  # the current task was folded:
        assert outcome.summary is not None  # the summary holds it verbatim
        assert outcome.summary.latest_request == messages[latest].text
