"""Compaction's honest fit, end to end through the container (real SQLite, real tokenizer,
real artifact compressor and store): an oversized kept tool result is shrunk, its full output
read back exactly from the store, and the result fits the window; a session on real data fits
a tight window or fails with the originals."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from cleveragents.application.services.compaction.message_tokens import message_tokens
from cleveragents.application.services.compaction.outcome import CompactionSettings
from cleveragents.container import Container
from cleveragents.domain.event import CONTEXT_COMPACTED
from cleveragents.domain.policy import ContextPolicy
from cleveragents.domain.transcript import Message, Role, TextBlock, ToolCall, ToolResult
from cleveragents.domain.transcript_rules import is_valid
from tests.conftest import CORPUS, CORPUS_ABSENT

TRANSCRIPTS = CORPUS / "transcripts"
SESSIONS = (
    sorted(p for p in TRANSCRIPTS.glob("*.jsonl") if "__agent-acompact-" not in p.name)
    if TRANSCRIPTS.is_dir()
    else []
)
LOGS = sorted((CORPUS / "logs").glob("*.log")) if (CORPUS / "logs").is_dir() else []
TIGHT = CompactionSettings(context_window=30_000, reserve_tokens=4_000, keep_recent_tokens=6_000)


def _user(text: str) -> Message:
    return Message(role=Role.USER, content=(TextBlock(text=text),))


def _session_ending_in_a_huge_log(log: str) -> list[Message]:
    messages = [_user("find out why the nightly job fails")]
    for step in range(30):
        call = ToolCall(
            id=f"c{step}", name="Bash", input={"command": f"grep -n step{step} run.log"}
        )
        messages += [
            Message(role=Role.ASSISTANT, content=(TextBlock(text=f"Checking {step}."), call)),
            Message(role=Role.USER, content=(ToolResult(call_id=f"c{step}", content="no match"),)),
        ]
    last = ToolCall(id="log", name="Bash", input={"command": "cat /var/log/job.log"})
    messages += [
        Message(role=Role.ASSISTANT, content=(TextBlock(text="Reading the whole log."), last)),
        Message(role=Role.USER, content=(ToolResult(call_id="log", content=log),)),
    ]
    return messages


def _real_log() -> str:
    if not LOGS:
        pytest.skip(CORPUS_ABSENT)
    text = "\n".join(path.read_text(encoding="utf-8", errors="replace") for path in LOGS[:3])
    return text + "\nERROR job 42 failed: connection reset by peer\n"


def test_an_oversized_kept_tool_result_is_shrunk_and_its_full_output_kept(
    container: Container,
) -> None:
    log = _real_log()
    messages = _session_ending_in_a_huge_log(log)
    outcome = container.context_compactor().compact(messages, TIGHT, force=True)
    assert outcome.status == "compacted", outcome.reason
    counter = container.token_counter()
    assert sum(message_tokens(outcome.messages, counter)) == outcome.tokens_after
    assert outcome.tokens_after <= TIGHT.threshold
    assert is_valid(outcome.messages)
    [shrunk] = outcome.shrunk_results
    assert shrunk.call_id == "log"
    assert shrunk.tokens_after < shrunk.tokens_before
    assert shrunk.artifact_id is not None
    result = outcome.messages[-1].tool_results[0]
    digest = hashlib.sha256(log.encode()).hexdigest()
    assert f"agents artifact read sha256:{digest}" in result.content  # the same every run
    again = container.context_compactor().compact(messages, TIGHT, force=True)
    assert again.messages == outcome.messages
    assert again.shrunk_results[0].artifact_id == shrunk.artifact_id  # stored once
    by_content = container.artifact_store().read(f"sha256:{digest}", 0, len(log.encode()) + 1)
    assert by_content == log.encode()
    assert "ERROR job 42 failed" in result.content  # smart mode keeps the failure at the end
    stored = container.artifact_store().read(shrunk.artifact_id, 0, len(log.encode()) + 1)
    assert stored == log.encode()  # nothing is lost
    event = container.event_sink().recorded(CONTEXT_COMPACTED)[0]
    assert event.payload["shrunk_tool_results"][0]["artifact_id"] == shrunk.artifact_id


def test_without_room_for_the_system_prompt_the_originals_come_back(
    container: Container,
) -> None:
    rules = Message(role=Role.SYSTEM, content=(TextBlock(text="rule " * 30_000),))
    messages = [rules, *_session_ending_in_a_huge_log(_real_log())]  # shrunk, then refused
    outcome = container.context_compactor().compact(messages, TIGHT, force=True)
    assert outcome.status == "failed"
    assert outcome.messages == tuple(messages)
    assert outcome.reason is not None
    assert "over the threshold" in outcome.reason
    assert container.artifact_store().list() == []  # a failed compaction stores nothing


@pytest.mark.skipif(not SESSIONS, reason=CORPUS_ABSENT)
@pytest.mark.parametrize("path", SESSIONS, ids=lambda path: path.name[:30])
@pytest.mark.parametrize(
    "settings", [CompactionSettings.from_policy(ContextPolicy()), TIGHT], ids=["default", "tight"]
)
def test_a_compacted_real_session_fits_by_the_real_tokenizer(
    container: Container, path: Path, settings: CompactionSettings
) -> None:
    messages = container.transcript_codec().read(path.read_text(encoding="utf-8")).messages
    outcome = container.context_compactor().compact(messages, settings, force=True)
    if outcome.status == "failed":  # too small to shrink: the originals, never a false fit
        assert outcome.messages == messages
        return
    counted = sum(message_tokens(outcome.messages, container.token_counter()))
    assert counted == outcome.tokens_after <= settings.threshold
    assert counted <= settings.keep_recent_tokens + settings.summary_tokens
    assert outcome.summary_tokens <= settings.summary_tokens
    assert is_valid(outcome.messages)


def test_an_output_of_megabytes_is_analysed_by_its_ends_and_kept_whole(
    container: Container,
) -> None:
    middle = "".join(f"INFO step {i} done\n" for i in range(150_000))  # about 3 MB
    log = "INFO job starts\n" + middle + "ERROR job 42 failed: disk full\n"
    messages = _session_ending_in_a_huge_log(log)
    outcome = container.context_compactor().compact(messages, TIGHT, force=True)
    assert outcome.status == "compacted", outcome.reason
    assert outcome.tokens_after <= TIGHT.threshold
    [shrunk] = outcome.shrunk_results
    assert shrunk.artifact_id is not None
    result = outcome.messages[-1].tool_results[0]
    assert "ERROR job 42 failed: disk full" in result.content
    stored = container.artifact_store().read(shrunk.artifact_id, 0, len(log) + 1)
    assert stored == log.encode()
