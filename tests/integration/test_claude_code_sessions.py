"""Real Claude Code sessions (../shared/corpus/transcripts, skipped when absent) written back so
that Claude Code can resume them, whole and compacted by hand the way the compactor does it:
one summary message standing for messages[:k], then messages[k:] verbatim."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from cleveragents.adapters.transcripts.claude_code_jsonl import (
    TOKENS_BEFORE,
    read_claude_code,
    resume_problems,
    write_claude_code,
)
from cleveragents.domain.transcript import (
    SUMMARY_MARKER,
    SUMMARY_OF,
    Message,
    Role,
    TextBlock,
    Transcript,
)
from tests.conftest import corpus_cases, corpus_file

SESSIONS = corpus_cases("transcripts", "*.jsonl")
MAIN = "claude-code-258c7280-ae70-4798-800f-63464d01a85d.jsonl"


def session(name: str) -> str:
    return corpus_file(f"transcripts/{name}").read_text(encoding="utf-8")


def records_of(text: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def record_of(message: Message) -> dict[str, Any]:
    record: dict[str, Any] = message.extra.get("claude_code", {}).get("record", {})
    return record


def compacted(transcript: Transcript, k: int) -> Transcript:
    text = f"{SUMMARY_MARKER}\n## Goals\n- what the first {k} messages asked for"
    summary = Message(
        role=Role.USER,
        content=(TextBlock(text=text),),
        extra={SUMMARY_OF: transcript.messages[k - 1].extra, TOKENS_BEFORE: 123_456},
    )
    return Transcript(messages=(summary, *transcript.messages[k:]))


def cut_points(transcript: Transcript) -> list[int]:
    """Where a compactor may cut: before a user request, never between a call and its result."""
    return [
        index
        for index, message in enumerate(transcript.messages)
        if index > 0 and message.starts_turn
    ]


@pytest.mark.parametrize("path", SESSIONS, ids=lambda path: path.name)
def test_a_corpus_session_written_back_can_be_resumed(path: Path) -> None:
    transcript = read_claude_code(path.read_text(encoding="utf-8"))
    text = write_claude_code(transcript)

    assert resume_problems(text) == []
    assert read_claude_code(text) == transcript
    assert write_claude_code(transcript) == text
    assert write_claude_code(read_claude_code(text)) == text


@pytest.mark.parametrize("path", SESSIONS, ids=lambda path: path.name)
def test_user_records_are_written_back_as_claude_code_wrote_them(path: Path) -> None:
    original = records_of(path.read_text(encoding="utf-8"))
    by_uuid = {r["uuid"]: r for r in original if "uuid" in r}
    written = records_of(write_claude_code(read_claude_code(path.read_text(encoding="utf-8"))))
    merged = {r["sourceToolAssistantUUID"] for r in original if "sourceToolAssistantUUID" in r}

    for record in written:
        source = by_uuid.get(record["uuid"])
        if source is None or record["type"] == "assistant":
            continue  # a queued prompt; an assistant message merged from block records
        expected = {k: v for k, v in source.items() if k != "parentUuid"}
        found = {k: v for k, v in record.items() if k != "parentUuid"}
        if expected.get("sourceToolAssistantUUID") in merged:
            expected.pop("sourceToolAssistantUUID")  # re-pointed at the merged message's record
            found.pop("sourceToolAssistantUUID")
        assert found == expected


@pytest.mark.parametrize(
    "name", [MAIN, "claude-code-tool_heavy.jsonl", "claude-code-subagent.jsonl"]
)
def test_a_compacted_corpus_session_can_be_resumed_and_keeps_its_records(name: str) -> None:
    transcript = read_claude_code(session(name))
    points = cut_points(transcript)
    assert points
    for k in sorted({points[0], points[len(points) // 2], points[-1]}):
        folded = compacted(transcript, k)
        text = write_claude_code(folded)
        boundary, summary, *kept = records_of(text)
        replaced = record_of(transcript.messages[k - 1])

        assert resume_problems(text) == []
        assert write_claude_code(folded) == text
        assert boundary["subtype"] == "compact_boundary"
        assert boundary["parentUuid"] is None
        assert boundary["logicalParentUuid"] == replaced.get("uuid")
        assert boundary["compactMetadata"] == {"trigger": "manual", "preTokens": 123_456}
        assert summary["parentUuid"] == boundary["uuid"]
        assert summary["isCompactSummary"] is True
        for record in (boundary, summary):
            assert record["sessionId"] == replaced["sessionId"]
            assert record["timestamp"] == replaced["timestamp"]
            assert record["cwd"] == replaced.get("cwd", record["cwd"])
        assert kept[0]["parentUuid"] == summary["uuid"]
        originals = [record_of(m) for m in transcript.messages[k:]]
        kept = [r for r in kept if r["type"] != "system"]  # Claude Code's own boundary, if kept
        # A message Claude Code never gave a record uuid (a queued prompt) gets a derived one.
        assert [r["uuid"] for r, o in zip(kept, originals, strict=True) if "uuid" in o] == [
            o["uuid"] for o in originals if "uuid" in o
        ]
        assert [r["sessionId"] for r in kept] == [
            o.get("sessionId", r["sessionId"]) for r, o in zip(kept, originals, strict=True)
        ]
        assert [r["timestamp"] for r in kept] == [o["timestamp"] for o in originals]

        again = read_claude_code(text)
        assert again.messages[0].is_summary
        assert again.messages[1:] == folded.messages[1:]
        assert write_claude_code(again) == text


def test_a_session_compacted_twice_keeps_one_fold() -> None:
    transcript = read_claude_code(session(MAIN))
    points = cut_points(transcript)
    once = read_claude_code(write_claude_code(compacted(transcript, points[1])))
    # The compactor merges the first summary and what follows it into a new one.
    later = [i for i in cut_points(once) if i > 1]
    twice = write_claude_code(compacted(once, later[0]))

    assert resume_problems(twice) == []
    assert read_claude_code(twice).messages[0].is_summary


def test_queued_prompts_are_written_with_derived_uuids_in_the_chain() -> None:
    transcript = read_claude_code(session("claude-code-tool_heavy.jsonl"))
    text = write_claude_code(transcript)
    queued = [r for r in records_of(text) if r.get("queuedPrompt")]

    assert resume_problems(text) == []
    assert [r["message"]["content"] for r in queued] == ["/mcp"]
    assert queued[0]["sessionId"] == "d6e0bada-1959-4eec-a9d2-0bfade768d8f"
    assert queued[0]["cleveragentsDerived"] == [
        "isSidechain",
        "userType",
        "cwd",
        "version",
        "gitBranch",
        "slug",
        "uuid",
    ]


def test_claude_codes_own_compaction_is_written_back_with_its_boundary() -> None:
    text = session(MAIN)
    boundary = next(r for r in records_of(text) if r.get("subtype") == "compact_boundary")
    transcript = read_claude_code(text)
    written = records_of(write_claude_code(transcript))
    index = next(i for i, r in enumerate(written) if r.get("subtype") == "compact_boundary")

    assert written[index] == boundary  # a second root, where Claude Code put it
    assert written[index + 1]["isCompactSummary"] is True
    assert written[index + 1]["parentUuid"] == boundary["uuid"]
    assert sum(r["type"] == "system" for r in written) == 1
    # Every message before Claude Code's summary is still read: the benchmark compares them.
    summary = next(m for m in transcript.messages if record_of(m).get("isCompactSummary"))
    assert transcript.messages.index(summary) > 200


@pytest.mark.parametrize(
    ("name", "meta_texts"),
    [
        ("claude-code-subagent.jsonl", ["Create beads (epic + tasks + dependencies)"]),
        ("claude-code-tool_heavy.jsonl", ["<local-command-caveat>"]),
    ],
)
def test_harness_injected_records_read_as_meta(name: str, meta_texts: list[str]) -> None:
    transcript = read_claude_code(session(name))
    meta = [m for m in transcript.messages if m.meta]

    assert [m.text[: len(t)] for m, t in zip(meta, meta_texts, strict=True)] == meta_texts
    assert len(meta) == len(meta_texts)
    assert not any(m.starts_turn for m in meta)
    assert all(record_of(m)["isMeta"] is True for m in meta)
