"""Claude Code session logs on generated sessions: any written session can be resumed and is written
the same again, and one without a new summary reads back as written."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from cleveragents.adapters.transcripts.claude_code_jsonl import (
    TOKENS_BEFORE,
    read_claude_code,
    resume_problems,
    write_claude_code,
)
from cleveragents.domain.transcript import ContentBlock, Message, Role, TextBlock, Transcript
from tests.claude_code_samples import stamped, summary, user

_text = st.text(max_size=12)
_stamp = st.integers(0, 59).map(lambda s: f"2026-02-11T21:00:{s:02d}.000Z")
_fields = st.fixed_dictionaries(
    {},
    optional={
        "sessionId": st.sampled_from(["s-1", "s-2"]),
        "timestamp": _stamp,
        "cwd": st.just("/work"),
        "isMeta": st.booleans(),
        "queuedPrompt": st.just(True),
    },
)


@st.composite
def _sessions(draw: st.DrawFn, summary_first: bool) -> Transcript:
    """Conversations whose records may lack a uuid, a sessionId, a timestamp, and may start
    with a compaction summary (replacing a message that may or may not have a record)."""
    messages: list[Message] = []
    for index in range(draw(st.integers(1, 5))):
        fields = draw(_fields)
        if draw(st.booleans()):
            fields["uuid"] = f"uuid-{index}"
        role = draw(st.sampled_from([Role.USER, Role.ASSISTANT]))
        blocks: tuple[ContentBlock, ...] = (TextBlock(text=draw(_text)),)
        extra: dict[str, Any] = {"claude_code": {"record": fields}} if fields else {}
        meta = role is Role.USER and draw(st.booleans())
        messages.append(Message(role=role, content=blocks, extra=extra, meta=meta))
    if summary_first:
        replaced = draw(st.sampled_from([user("x"), user("x", **stamped("u-old", 1)), None]))
        tokens = draw(st.none() | st.integers(0, 10**6))
        extra = {TOKENS_BEFORE: tokens} if tokens is not None else {}
        messages.insert(0, summary(replaced, **extra))
    return Transcript(messages=tuple(messages))


@settings(max_examples=200)
@given(st.booleans().flatmap(_sessions))
def test_any_written_session_can_be_resumed_and_is_written_the_same_again(
    transcript: Transcript,
) -> None:
    text = write_claude_code(transcript)
    again = read_claude_code(text)

    assert resume_problems(text) == []
    assert write_claude_code(transcript) == text
    assert write_claude_code(again) == text
    assert again.messages[0].is_summary == transcript.messages[0].is_summary


def _meta_as_read(message: Message) -> Message:
    """The record's isMeta, when it has one, decides; otherwise the message's own flag."""
    record = message.extra.get("claude_code", {}).get("record", {})
    meta = record["isMeta"] is True if "isMeta" in record else message.meta
    return message.model_copy(update={"meta": message.role is Role.USER and meta})


@settings(max_examples=200)
@given(_sessions(summary_first=False))
def test_any_session_without_a_new_summary_reads_back_as_written(transcript: Transcript) -> None:
    expected = Transcript(messages=tuple(_meta_as_read(m) for m in transcript.messages))
    assert read_claude_code(write_claude_code(transcript)) == expected
