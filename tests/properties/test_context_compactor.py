"""ContextCompactor on random transcripts with parallel, failed and interrupted tool calls: a valid
transcript compacts to a valid one or stays unchanged (fakes for the tokenizer, the summarizer and
the event sink)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from cleveragents.application.services.compaction.outcome import CompactionSettings
from cleveragents.domain.event import CONTEXT_COMPACTION_FAILED
from cleveragents.domain.transcript import Message, Role, TextBlock, ToolResult
from cleveragents.domain.transcript_rules import is_valid
from tests.compactor_samples import assistant, call, compactor, user

WORDS = st.lists(
    st.sampled_from(["fix", "the", "test", "file", "src/app.py", "error"]), max_size=40
)


@st.composite
def transcripts(draw: st.DrawFn) -> list[Message]:
    """Valid transcripts: turns of user text, then assistant steps with 0-3 parallel calls
    answered (ok, failed, or interrupted) in one or several messages; the last step may end
    with calls still running."""
    messages: list[Message] = []
    if draw(st.booleans()):
        messages.append(Message(role=Role.SYSTEM, content=(TextBlock(text="rules"),)))
    next_id = 0
    for _ in range(draw(st.integers(1, 6))):
        messages.append(user(" ".join(draw(WORDS)) or "go"))
        for _ in range(draw(st.integers(0, 3))):
            calls = []
            for _ in range(draw(st.integers(0, 3))):
                calls.append(call(f"t{next_id}", " ".join(draw(WORDS))))
                next_id += 1
            messages.append(assistant(" ".join(draw(WORDS)), *calls))
            if not calls:
                continue
            outcomes = [
                draw(st.sampled_from(["ok", "failed", "[Request interrupted by user]"]))
                for _ in calls
            ]
            blocks = [
                ToolResult(call_id=c.id, content=o, is_error=o != "ok")
                for c, o in zip(calls, outcomes, strict=True)
            ]
            if draw(st.booleans()):
                messages.append(Message(role=Role.USER, content=tuple(blocks)))
            else:
                messages += [Message(role=Role.USER, content=(b,)) for b in blocks]
    if draw(st.booleans()):
        messages.append(assistant("still working", call(f"t{next_id}")))
    return messages


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
