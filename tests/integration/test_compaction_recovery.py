"""Compaction on the real corpus transcripts, end to end through the container: recovery of
the facts a resumed agent needs, and facts surviving five successive compactions."""

from __future__ import annotations

from pathlib import Path

import pytest

from cleveragents.application.services.compaction.outcome import CompactionSettings
from cleveragents.application.services.compaction.recovery import (
    TARGET_CATEGORIES,
    FactCategory,
    message_workspace,
    presence,
    recovery_facts,
)
from cleveragents.container import Container
from cleveragents.domain.event import CONTEXT_COMPACTED
from cleveragents.domain.policy import ContextPolicy
from cleveragents.domain.transcript import Message, Transcript
from cleveragents.domain.transcript_rules import is_valid
from tests.conftest import CORPUS

TRANSCRIPTS = CORPUS / "transcripts"
SESSIONS = (
    sorted(p for p in TRANSCRIPTS.glob("*.jsonl") if "__agent-acompact-" not in p.name)
    if TRANSCRIPTS.is_dir()
    else []
)
MAIN = TRANSCRIPTS / "claude-code-258c7280-ae70-4798-800f-63464d01a85d.jsonl"
DEFAULT = CompactionSettings.from_policy(ContextPolicy())

needs_corpus = pytest.mark.skipif(not SESSIONS, reason="../shared/corpus is absent")


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


@pytest.mark.skipif(not MAIN.is_file(), reason="../shared/corpus is absent")
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
    # The first part's latest request is a goal by now, no longer the latest: it is checked
    # through the goals; everything else must be there as it was.
    for category in (FactCategory.FILES_MODIFIED, FactCategory.COMMANDS):
        assert final[category].total > 0
        assert final[category].missing == (), category
    assert len(container.event_sink().recorded(CONTEXT_COMPACTED)) == 5
