"""Property: in each of the three transcript formats, any compaction of any valid conversation
(agent sessions of one long turn included) leaves no orphan tool result and no unanswered
call, and writing the result back gives a file that reads as a valid transcript (for Claude
Code, one that Claude Code can resume)."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cleveragents.adapters.tokens.tiktoken_counter import TiktokenCounter
from cleveragents.adapters.transcripts.claude_code_jsonl import resume_problems
from cleveragents.adapters.transcripts.json_transcript_codec import JsonTranscriptCodec
from cleveragents.application.services.compaction.context_compactor import ContextCompactor
from cleveragents.application.services.compaction.outcome import CompactionSettings
from cleveragents.application.services.compaction.summary.deterministic_summarizer import (
    DeterministicSummarizer,
)
from cleveragents.domain.transcript import (
    CONTINUATION_PREFIX,
    Message,
    Role,
    Transcript,
    TranscriptFormat,
)
from cleveragents.domain.transcript_rules import violations
from tests.conftest import CORPUS, CORPUS_ABSENT
from tests.fakes import FakeEventSink
from tests.properties.transcript_strategies import transcripts

CODEC = JsonTranscriptCodec()
COMPACTOR = ContextCompactor(TiktokenCounter(), DeterministicSummarizer(), FakeEventSink())


def _single_turn(messages: list[Message]) -> list[Message]:
    """The same work as one request: later requests dropped (an agent session's shape)."""
    first = next(i for i, m in enumerate(messages) if m.starts_turn)
    return [m for i, m in enumerate(messages) if i <= first or not m.starts_turn]


@settings(max_examples=60)
@given(
    transcripts(),
    st.integers(1, 300),
    st.booleans(),
    st.sampled_from(list(TranscriptFormat)),
)
def test_any_cut_in_any_format_leaves_every_call_with_its_result(
    messages: list[Message], keep_recent: int, one_turn: bool, transcript_format: TranscriptFormat
) -> None:
    if transcript_format is TranscriptFormat.CLAUDE_CODE:
        messages = [m for m in messages if m.role is not Role.SYSTEM]  # a session has none
    if one_turn:
        messages = _single_turn(messages)
    written = CODEC.write(Transcript(messages=tuple(messages)), transcript_format)
    read = CODEC.read(written, transcript_format).messages
    budget = CompactionSettings(
        context_window=200_000, reserve_tokens=0, keep_recent_tokens=keep_recent
    )
    outcome = COMPACTOR.compact(read, budget, force=True)
    if outcome.status == "failed":
        assert outcome.messages == read
        return
    assert violations(outcome.messages) == []
    out = CODEC.write(Transcript(messages=outcome.messages), transcript_format)
    again = CODEC.read(out, transcript_format).messages
    assert violations(again) == []
    calls = [c.id for m in outcome.messages for c in m.tool_calls]
    assert [c.id for m in again for c in m.tool_calls] == calls
    assert sorted(r.call_id for m in again for r in m.tool_results) == sorted(
        r.call_id for m in outcome.messages for r in m.tool_results
    )
    if transcript_format is TranscriptFormat.CLAUDE_CODE:
        assert resume_problems(out) == []
        assert again[0].is_summary


MAIN = CORPUS / "transcripts" / "claude-code-258c7280-ae70-4798-800f-63464d01a85d.jsonl"


@pytest.mark.skipif(not MAIN.is_file(), reason=CORPUS_ABSENT)
def test_a_session_claude_code_compacted_resumes_from_our_summary_alone() -> None:
    text = MAIN.read_text(encoding="utf-8")
    messages = CODEC.read(text).messages
    theirs = next(i for i, m in enumerate(messages) if m.text.startswith(CONTINUATION_PREFIX))
    generous = CompactionSettings(
        context_window=400_000, reserve_tokens=0, keep_recent_tokens=300_000
    )
    outcome = COMPACTOR.compact(messages, generous, force=True)
    assert outcome.status == "compacted", outcome.reason
    assert outcome.folded_messages > theirs  # Claude Code's own summary is folded into ours
    out = CODEC.write(Transcript(messages=outcome.messages), TranscriptFormat.CLAUDE_CODE)
    assert resume_problems(out) == []
    records = [json.loads(line) for line in out.splitlines()]
    roots = [r for r in records if r.get("parentUuid") is None]
    assert [r.get("subtype") for r in roots] == ["compact_boundary"]  # one place to resume
    kept_uuids = [r["uuid"] for r in records[2:]]
    original = {
        r["uuid"] for r in map(json.loads, text.splitlines()) if isinstance(r.get("uuid"), str)
    }
    assert set(kept_uuids) <= original  # every kept record keeps its uuid
    summary = records[1]
    assert summary["isCompactSummary"] is True
    assert records[0]["logicalParentUuid"] in original
    assert summary["sessionId"] == records[2]["sessionId"]
