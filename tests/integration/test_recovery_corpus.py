"""Recovery correctness on a real Claude Code session of the shared corpus (skipped when it is
absent): the facts it yields, and Claude Code's own summary covering the messages before its
continuation."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from cleveragents.adapters.transcripts import JsonTranscriptCodec
from cleveragents.application.services.compaction.recall import (
    FactCategory,
    claude_code_compaction_cuts,
    claude_code_compaction_point,
    claude_code_workspace,
    llm_summary_text,
    presence,
    recovery_facts,
)
from cleveragents.domain.transcript import Message
from tests.conftest import CORPUS
from tests.recovery_samples import needles

MAIN = CORPUS / "transcripts" / "claude-code-258c7280-ae70-4798-800f-63464d01a85d.jsonl"
ACOMPACT = MAIN.with_name(f"{MAIN.stem}__subagents__agent-acompact-fffbd0.jsonl")


def read_claude_code(path: Path) -> tuple[list[dict[str, Any]], list[Message]]:
    """The raw records (for the compaction cut) and the messages, read with the codec."""
    text = path.read_text(encoding="utf-8")
    records = [json.loads(line) for line in text.splitlines() if line.strip()]
    return records, list(JsonTranscriptCodec().read(text).messages)


needs_corpus = pytest.mark.skipif(
    not MAIN.is_file(), reason=f"{MAIN.name} is not in the shared corpus ({CORPUS})"
)


@needs_corpus
def test_the_real_transcript_yields_commands_and_modified_files() -> None:
    _, messages = read_claude_code(MAIN)

    facts = recovery_facts(messages)

    assert len(facts[FactCategory.COMMANDS]) > 0
    assert len(facts[FactCategory.FILES_MODIFIED]) > 0
    assert len(facts[FactCategory.LATEST_REQUEST]) == 1


@needs_corpus
def test_claude_codes_summary_covers_the_messages_before_its_continuation() -> None:
    records, messages = read_claude_code(MAIN)
    compaction_records, compaction_messages = read_claude_code(ACOMPACT)
    (cut,) = claude_code_compaction_cuts(records)
    point = claude_code_compaction_point(messages)
    assert point is not None
    summary_request = next(r for r in compaction_records if not r.get("isMeta"))

    covered = messages[:point]
    facts = recovery_facts(covered, workspace=claude_code_workspace(records))
    report = presence(facts, llm_summary_text(compaction_messages))

    # The summarising request hangs off the last record before the boundary.
    assert records[cut - 1]["uuid"] == summary_request["parentUuid"]
    # The latest request is the prompt the user queued while the agent worked (Claude Code logs
    # it only as a queue operation; the reader places it where the model received it).
    assert needles(facts[FactCategory.LATEST_REQUEST]) == [
        "new beads for the epic were added. tackle them"
    ]
    assert report[FactCategory.LATEST_REQUEST].share == 1.0
    assert presence(facts, covered).missing == ()  # the measurement's own sanity check
