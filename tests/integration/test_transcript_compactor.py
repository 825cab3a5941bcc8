"""TranscriptCompactor: the one use case behind `agents context compact`, the Python API's
`compact` and the MCP tool, on the real codec, tokenizer and summarizer; the store is a fake
unit of work and event sink."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from cleveragents.adapters.tokens.tiktoken_counter import TiktokenCounter
from cleveragents.adapters.transcripts.json_transcript_codec import JsonTranscriptCodec
from cleveragents.application.services.compaction.context_compactor import ContextCompactor
from cleveragents.application.services.compaction.strategy_comparison import DiscardedEvents
from cleveragents.application.services.compaction.summary.deterministic_summarizer import (
    DeterministicSummarizer,
)
from cleveragents.application.services.compaction.transcript_compaction import (
    NoConversationError,
    TranscriptCompaction,
    TranscriptCompactor,
)
from cleveragents.application.services.projects.project_service import ProjectService
from cleveragents.container import build_container
from cleveragents.domain.errors import InvalidInputError, InvalidPolicyError, ProjectNotFoundError
from cleveragents.domain.event import CONTEXT_COMPACTED
from cleveragents.domain.policy import ContextPolicy, ContextPolicyChanges
from cleveragents.domain.transcript import TranscriptFormat
from tests.fakes import FakeEventSink, FakeUnitOfWorkFactory

COUNTER = TiktokenCounter()
SMALL = ContextPolicyChanges(context_window=3_000, reserve_tokens=500, keep_recent_tokens=600)


def openai_request(turns: int) -> dict[str, Any]:
    messages: list[dict[str, Any]] = [{"role": "system", "content": "Be brief."}]
    for turn in range(turns):
        messages += [
            {"role": "user", "content": f"Question {turn}: " + "why " * 150},
            {"role": "assistant", "content": f"Answer {turn}: " + "because " * 150},
        ]
    return {"model": "gpt-4o", "messages": messages}


class World:
    def __init__(self) -> None:
        self.factory = FakeUnitOfWorkFactory()
        self.events = FakeEventSink()
        self.codec = JsonTranscriptCodec()
        self.built_projects = 0
        compactor = ContextCompactor(COUNTER, DeterministicSummarizer(), self.events)
        self.service = TranscriptCompactor(self.codec, compactor, self._projects)

    def _projects(self) -> ProjectService:
        self.built_projects += 1
        return ProjectService(self.factory)


@pytest.fixture
def world() -> World:
    return World()


def test_text_comes_back_as_text_of_its_format_with_the_report(world: World) -> None:
    request = openai_request(8)
    text = json.dumps(request)
    done = world.service.compact(text, overrides=SMALL)
    assert isinstance(done, TranscriptCompaction)
    assert done.format is TranscriptFormat.OPENAI  # detected
    assert done.outcome.status == "compacted"
    assert done.settings.threshold == 2_500
    assert done.outcome.tokens_after <= 2_500
    written = json.loads(done.text())
    assert written["model"] == "gpt-4o"  # the request's other fields kept
    assert written["messages"][-1] == request["messages"][-1]
    assert len(written["messages"]) < len(request["messages"])
    assert done.data() == world.codec.write_bytes(done.compacted_transcript, done.format)
    assert done.native() == written
    report = done.report()
    assert report == done.outcome.report(done.settings)
    assert report.threshold == 2_500
    # Every message but the system prompt, which stays where it is.
    assert report.folded_messages + report.kept_messages == len(request["messages"]) - 1
    assert world.factory.calls == 0  # no project named: the store is never opened


def test_a_parsed_document_is_read_as_one_and_the_named_format_is_used(world: World) -> None:
    request = openai_request(2)
    done = world.service.compact(request, transcript_format=TranscriptFormat.OPENAI)
    assert done.outcome.status == "not-needed"
    assert done.native() == request
    assert done.transcript.messages == done.outcome.messages
    anthropic = {"system": "x", "messages": [{"role": "user", "content": "hi"}]}
    assert world.service.compact(anthropic).format is TranscriptFormat.ANTHROPIC
    with pytest.raises(InvalidInputError, match="not OpenAI"):
        # Named wrongly: refused, never guessed.
        world.service.compact(anthropic, transcript_format=TranscriptFormat.OPENAI)


def test_the_project_policy_then_the_base_policy_then_the_overrides(world: World) -> None:
    projects = ProjectService(world.factory)
    shop = projects.create("shop")
    projects.set_context("shop", SMALL)
    done = world.service.compact(openai_request(8), project="shop")
    assert done.settings.threshold == 2_500
    assert done.outcome.status == "compacted"
    [event] = world.events.recorded(CONTEXT_COMPACTED)
    assert event.payload["project_id"] == shop.id  # counted for the project

    layered = world.service.compact(
        openai_request(8),
        project="shop",
        policy=ContextPolicy(reserve_tokens=1_000),
        overrides=ContextPolicyChanges(keep_recent_tokens=500),
    )
    assert (layered.settings.context_window, layered.settings.reserve_tokens) == (3_000, 1_000)
    assert layered.settings.keep_recent_tokens == 500


def test_settings_are_refused_before_the_transcript_is_read(world: World) -> None:
    with pytest.raises(ProjectNotFoundError, match="'nope'"):
        world.service.compact("{not json", project="nope")
    with pytest.raises(InvalidPolicyError, match="reserve_tokens"):
        world.service.compact("{not json", overrides=ContextPolicyChanges(reserve_tokens=300_000))
    with pytest.raises(InvalidInputError, match="JSON"):
        world.service.compact("{not json")


def test_a_transcript_without_a_conversation_is_refused_naming_it(world: World) -> None:
    with pytest.raises(NoConversationError) as refused:
        world.service.compact('{"system": "Be careful.", "messages": []}', what="session.json")
    assert str(refused.value) == (
        "session.json holds no conversation (no user or assistant message): nothing to compact"
    )
    assert isinstance(refused.value, InvalidInputError)  # exit 2, a tool error, a bad input
    with pytest.raises(NoConversationError, match=r"^the transcript holds no conversation"):
        world.service.compact([{"role": "system", "content": "x"}], transcript_format=None)
    assert world.events.events == []


def test_a_failed_compaction_keeps_the_originals_and_says_why(world: World) -> None:
    request = openai_request(2)
    request["messages"].append({"role": "user", "content": "Now this: " + "why " * 3_000})
    tight = ContextPolicyChanges(
        context_window=1_000, reserve_tokens=100, keep_recent_tokens=400, summary_tokens=100
    )
    notes: list[str] = []
    done = world.service.compact(request, overrides=tight, force=True, unrecorded=notes.append)
    assert done.outcome.status == "failed"
    assert done.report().reason
    assert done.native() == request  # the original messages, written back
    assert notes == []  # the fake store records every event


def test_the_container_gives_both_flavours(tmp_path: Path) -> None:
    database = tmp_path / "x.db"
    container = build_container(f"sqlite:///{database}", home=tmp_path)
    try:
        storeless = container.storeless_transcript_compactor()
        assert isinstance(storeless, TranscriptCompactor)
        assert isinstance(storeless.compactor._events, DiscardedEvents)
        done = storeless.compact(openai_request(8), overrides=SMALL)
        assert done.outcome.status == "compacted"
        assert not database.exists()  # no project named, nothing recorded: no database
        recording = container.transcript_compactor()
        assert isinstance(recording, TranscriptCompactor)
        assert not isinstance(recording.compactor._events, DiscardedEvents)
        recorded = recording.compact(openai_request(8), overrides=SMALL)
        assert recorded.outcome.status == "compacted"
        assert len(container.event_sink().recorded(CONTEXT_COMPACTED)) == 1
    finally:
        container.shutdown_resources()
