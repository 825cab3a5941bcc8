"""The local summarizer on the Claude Code sessions of the shared corpus (skipped when it is
absent): what it extracts from a tool-heavy session, and the item cap on every session."""

from __future__ import annotations

from pathlib import Path

import pytest

from cleveragents.adapters.transcripts import JsonTranscriptCodec
from cleveragents.application.services.compaction.summary.deterministic_summarizer import (
    DeterministicSummarizer,
)
from cleveragents.domain.compaction_summary import SummarySection, parse_summary, render_summary
from cleveragents.domain.transcript import Message
from tests.conftest import corpus_file

S = SummarySection


def _read_claude_code(path: Path) -> list[Message]:
    return list(JsonTranscriptCodec().read(path.read_text(encoding="utf-8")).messages)


def test_the_claude_code_tool_heavy_corpus_transcript() -> None:
    path = corpus_file("transcripts/claude-code-tool_heavy.jsonl")
    messages = _read_claude_code(path)
    summary = DeterministicSummarizer().summarize(messages, None)
    request = (
        "scrolling back in xterm.js still does not work (maybe because outer web catches it)? "
        "websearch xterm.js tmux interactions"
    )
    assert summary.latest_request == request
    # "/mcp" was typed while the agent worked: a queued prompt, delivered before the answer.
    assert summary.items(S.GOALS) == ("start phoenix in background", "/mcp", request)
    # Files under the session's working directory are written relative to it.
    assert summary.workspace == "/home/marco/projects/spotter"
    assert summary.items(S.FILES_READ) == ("assets/js/**/*.js", "assets/js/app.js")
    assert summary.items(S.COMMANDS)[0] == "`mix phx.server` -> ok"
    assert summary.items(S.UNCERTAIN_EFFECTS) == ()  # web searches and reads change nothing
    # The request is quoted as the latest; no task was opened, so nothing is listed unfinished.
    assert summary.items(S.UNFINISHED) == ()
    assert parse_summary(render_summary(summary)) == summary
    assert DeterministicSummarizer().summarize(_read_claude_code(path), None) == summary


@pytest.mark.parametrize(
    "name",
    [
        "claude-code-short.jsonl",
        "claude-code-subagent.jsonl",
        "claude-code-258c7280-ae70-4798-800f-63464d01a85d.jsonl",
    ],
)
def test_every_corpus_transcript_summarises_within_the_item_cap(name: str) -> None:
    path = corpus_file(f"transcripts/{name}")
    summary = DeterministicSummarizer().summarize(_read_claude_code(path), None)
    assert summary.latest_request
    for section in SummarySection:
        assert all(0 < len(item) <= 300 and "\n" not in item for item in summary.items(section))
    assert parse_summary(render_summary(summary)) == summary
