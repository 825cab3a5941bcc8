"""The Claude Code adapter behind `JsonTranscriptCodec` on the session logs of
`../shared/corpus/transcripts/` (skipped when the corpus is absent): round trips, block records
merged by message id, queued prompts, a short session, and tool results streamed between block
records."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from cleveragents.adapters.transcripts import JsonTranscriptCodec
from cleveragents.domain.transcript import Message, Role, TranscriptFormat
from cleveragents.domain.transcript_rules import violations
from tests.conftest import corpus_cases, corpus_file

CODEC = JsonTranscriptCodec()
ANTHROPIC, OPENAI, CLAUDE_CODE = (
    TranscriptFormat.ANTHROPIC,
    TranscriptFormat.OPENAI,
    TranscriptFormat.CLAUDE_CODE,
)
CORPUS_FILES = corpus_cases("transcripts", "*.jsonl")
MAIN_SESSION = "claude-code-258c7280-ae70-4798-800f-63464d01a85d.jsonl"


def session(name: str) -> Path:
    """A Claude Code session of the corpus; the test skips when it is not there."""
    return corpus_file(f"transcripts/{name}")


def conversation_records(path: Path) -> list[dict[str, Any]]:
    records = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    return [r for r in records if r.get("type") in ("user", "assistant") and "message" in r]


@pytest.mark.parametrize("path", CORPUS_FILES, ids=lambda path: path.name)
def test_claude_code_corpus_round_trips_and_keeps_the_rules(path: Path) -> None:
    text = path.read_text()
    transcript = CODEC.read(text)
    written = CODEC.write(transcript, CLAUDE_CODE)

    assert CODEC.detect(text) is CLAUDE_CODE
    assert CODEC.read(written) == transcript
    assert violations(transcript.messages) == []


@pytest.mark.parametrize("path", CORPUS_FILES, ids=lambda path: path.name)
def test_claude_code_corpus_merges_block_records_by_message_id(path: Path) -> None:
    records = conversation_records(path)
    transcript = CODEC.read(path.read_text())
    assistants = [m for m in transcript.messages if m.role is Role.ASSISTANT]
    users = [m for m in transcript.messages if m.role is Role.USER and not queued(m)]
    ids = [m.extra["claude_code"]["message"]["id"] for m in assistants]

    assert len(users) == sum(1 for r in records if r["type"] == "user")
    assert sorted(ids) == sorted({r["message"]["id"] for r in records if r["type"] == "assistant"})
    blocks = Counter(
        block["type"]
        for r in records
        if r["type"] == "assistant"
        for block in r["message"]["content"]
    )
    assert sum(len(m.content) for m in assistants) == blocks.total()
    assert all(m.usage is not None for m in assistants)


def queued(message: Message) -> bool:
    return bool(message.extra.get("claude_code", {}).get("record", {}).get("queuedPrompt"))


def test_queued_prompts_become_user_messages_where_the_model_received_them() -> None:
    # The user typed two prompts while the agent worked; Claude Code logs them only as
    # queue-operation records (enqueue, then remove when handed to the model).
    transcript = CODEC.read(session(MAIN_SESSION).read_text())
    prompts = [(i, m) for i, m in enumerate(transcript.messages) if queued(m)]
    assert [m.text for _, m in prompts] == [
        "check again",
        "new beads for the epic were added. tackle them",
    ]
    for index, _ in prompts:  # each arrives right before an assistant message, all calls answered
        assert transcript.messages[index + 1].role is Role.ASSISTANT
    assert violations(transcript.messages) == []
    assert CODEC.read(CODEC.write(transcript, TranscriptFormat.CLAUDE_CODE)) == transcript


def test_claude_code_short_session() -> None:
    path = session("claude-code-short.jsonl")
    transcript = CODEC.read(path.read_text())
    roles = [m.role.value for m in transcript.messages]
    assistant = transcript.messages[1]
    last_record = conversation_records(path)[5]  # the fifth and last block record

    # 15 records: 4 user, 5 assistant block records of one message id, 6 skipped.
    assert roles == ["user", "assistant", "user", "user", "user"]
    assert [b.type for b in assistant.content] == [
        "text",
        "thinking",
        "text",
        "tool_call",
        "tool_call",
    ]
    assert assistant.usage == last_record["message"]["usage"]
    assert assistant.extra["claude_code"]["message"]["id"] == "msg_01MKH1ccEGrZGNPvu8pYiiQa"
    assert (
        assistant.extra["claude_code"]["record"]["uuid"] == "1b7d717f-d6a2-46a6-8575-fa4f937450ea"
    )
    assert transcript.messages[0].text == "mix phx.server doesnt seem to start"
    answered = [r.call_id for m in transcript.messages for r in m.tool_results]
    assert answered == [call.id for call in assistant.tool_calls]
    assert all(r.is_error for m in transcript.messages for r in m.tool_results)
    assert transcript.messages[2].extra["claude_code"]["record"]["toolUseResult"] == (
        "User rejected tool use"
    )


def test_tool_results_streamed_between_block_records_follow_the_merged_message() -> None:
    transcript = CODEC.read(session("claude-code-tool_heavy.jsonl").read_text())
    index = next(
        i
        for i, m in enumerate(transcript.messages)
        if m.extra["claude_code"].get("message", {}).get("id") == "msg_019BN3FRqb7NU4DgBN5jdsym"
    )
    merged = transcript.messages[index]
    after = transcript.messages[index + 1 : index + 3]

    assert len(merged.tool_calls) == 2
    assert [m.tool_results[0].call_id for m in after] == [c.id for c in merged.tool_calls]
    uuid = merged.extra["claude_code"]["record"]["uuid"]
    assert {m.extra["claude_code"]["record"]["sourceToolAssistantUUID"] for m in after} == {uuid}
