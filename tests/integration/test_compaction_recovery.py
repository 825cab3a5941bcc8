"""Compaction on the real corpus transcripts, end to end through the container: recovery of
the facts a resumed agent needs, the comparison with Claude Code's own summary of the same
messages, and facts surviving five successive compactions."""

from __future__ import annotations

from pathlib import Path

import pytest

from benchmarks.recovery import behind, session_paths
from cleveragents.application.services.compaction.outcome import CompactionSettings
from cleveragents.application.services.compaction.recall import (
    TARGET_CATEGORIES,
    FactCategory,
    claude_code_compaction_point,
    message_workspace,
    presence,
    recovery_facts,
)
from cleveragents.container import Container
from cleveragents.domain.compaction_summary import SummarySection, parse_summary
from cleveragents.domain.event import CONTEXT_COMPACTED
from cleveragents.domain.policy import ContextPolicy
from cleveragents.domain.transcript import Message, Transcript
from cleveragents.domain.transcript_rules import is_valid
from tests.conftest import CORPUS, CORPUS_ABSENT

TRANSCRIPTS = CORPUS / "transcripts"
SESSIONS = (
    sorted(p for p in TRANSCRIPTS.glob("*.jsonl") if "__agent-acompact-" not in p.name)
    if TRANSCRIPTS.is_dir()
    else []
)
MAIN = TRANSCRIPTS / "claude-code-258c7280-ae70-4798-800f-63464d01a85d.jsonl"
DEFAULT = CompactionSettings.from_policy(ContextPolicy())

needs_corpus = pytest.mark.skipif(not SESSIONS, reason=CORPUS_ABSENT)


def read(container: Container, path: Path) -> tuple[Message, ...]:
    transcript: Transcript = container.transcript_codec().read(path.read_text(encoding="utf-8"))
    return transcript.messages


@needs_corpus
@pytest.mark.parametrize("path", SESSIONS, ids=lambda path: path.name[:30])
def test_compaction_keeps_every_targeted_fact_of_a_real_session(
    container: Container, path: Path
) -> None:
    messages = read(container, path)
    outcome = container.context_compactor().compact(messages, DEFAULT, force=True)
    assert outcome.status == "compacted", outcome.reason
    assert is_valid(outcome.messages)
    assert outcome.tokens_after < outcome.tokens_before
    facts = recovery_facts(messages, workspace=message_workspace(messages))
    report = presence(facts, outcome.messages)
    for category in TARGET_CATEGORIES:  # latest request, files modified, unfinished work
        assert report[category].missing == (), category
    assert report[FactCategory.COMMANDS].missing == ()
    assert report[FactCategory.UNCERTAIN_EFFECTS].missing == ()
    [event] = container.event_sink().recorded(CONTEXT_COMPACTED)
    assert event.payload["summary_sha256"] == outcome.summary_sha256


@pytest.mark.skipif(not MAIN.is_file(), reason=CORPUS_ABSENT)
def test_ours_recovers_at_least_what_claude_codes_own_summary_does(container: Container) -> None:
    """The messages Claude Code's compaction replaced: their facts in its summary (the
    message flagged isCompactSummary) and in our compaction of the same messages."""
    messages = read(container, MAIN)
    point = claude_code_compaction_point(messages)
    assert point is not None
    covered = messages[:point]
    facts = recovery_facts(covered, workspace=message_workspace(covered))
    theirs = presence(facts, messages[point].text)
    outcome = container.context_compactor().compact(covered, DEFAULT, force=True)
    ours = presence(facts, outcome.messages)

    assert outcome.status == "compacted", outcome.reason
    # Every new category has facts here, so the comparison says something about each.
    for category in (
        FactCategory.USER_REQUESTS,
        FactCategory.FILES_READ,
        FactCategory.ERRORS,
        FactCategory.DECISIONS,
        FactCategory.NEXT_STEP,
    ):
        assert facts[category], category
    # The measure is not one Claude Code's summary passes by default: it names few commands
    # as they were run and no failure next to them.
    commands = theirs[FactCategory.COMMANDS]
    assert commands.recovered < commands.total / 2
    assert theirs[FactCategory.ERRORS].share == 0.0
    assert behind(ours, theirs) == []


def test_added_sessions_are_listed_by_directory_file_or_listing(tmp_path: Path) -> None:
    (tmp_path / "a.jsonl").write_text("", encoding="utf-8")
    (tmp_path / "deep").mkdir()
    (tmp_path / "deep" / "b.jsonl").write_text("", encoding="utf-8")
    (tmp_path / "a__agent-acompact-1.jsonl").write_text("", encoding="utf-8")
    listing = tmp_path / "sessions.txt"
    listing.write_text("# mine\ndeep/b.jsonl\n\n", encoding="utf-8")

    assert session_paths(str(tmp_path)) == [tmp_path / "a.jsonl", tmp_path / "deep" / "b.jsonl"]
    assert session_paths(str(listing)) == [tmp_path / "deep" / "b.jsonl"]
    assert session_paths(f"{listing}:{tmp_path / 'a.jsonl'}:{listing}") == [
        tmp_path / "deep" / "b.jsonl",
        tmp_path / "a.jsonl",
    ]
    assert session_paths(None) == []


@pytest.mark.skipif(not MAIN.is_file(), reason=CORPUS_ABSENT)
def test_facts_survive_five_successive_compactions(container: Container) -> None:
    """The session arrives in five parts; after each part the conversation so far is compacted
    (keeping only a small recent window), so the first part's facts pass through five
    summaries, each merged into the next."""
    messages = read(container, MAIN)
    starts = [i for i, m in enumerate(messages) if m.has_user_text and not m.tool_results]
    # Parts end at turn starts; the first part holds two turns, so it has one to fold.
    later = starts[2:]
    assert len(later) >= 4
    bounds = [later[len(later) * k // 4] for k in range(4)] + [len(messages)]
    small = CompactionSettings(context_window=200_000, reserve_tokens=0, keep_recent_tokens=500)
    compactor = container.context_compactor()
    conversation: tuple[Message, ...] = ()
    first_facts = None
    start = 0
    for end in bounds:
        part = messages[start:end]
        if first_facts is None:
            first_facts = recovery_facts(part, workspace=message_workspace(messages))
        outcome = compactor.compact((*conversation, *part), small, force=True)
        assert outcome.status == "compacted", outcome.reason
        assert is_valid(outcome.messages)
        conversation = outcome.messages
        start = end
    assert first_facts is not None
    final = presence(first_facts, conversation)
    # The first part's latest request is a goal by now, no longer the latest. Every modified
    # file survives; commands pass through five summaries of a bounded size, the oldest may
    # give way, and every one that did is counted in the summary's note.
    assert final[FactCategory.FILES_MODIFIED].total > 0
    assert final[FactCategory.FILES_MODIFIED].missing == ()
    summary = parse_summary(conversation[0].text)
    assert summary is not None
    missing_commands = len(final[FactCategory.COMMANDS].missing)
    assert missing_commands <= summary.omitted.get(SummarySection.COMMANDS, 0)
    assert len(container.event_sink().recorded(CONTEXT_COMPACTED)) == 5
