"""Property: OpenAI Responses input, compacted with any budget, never separates a function call
from its output nor a reasoning item from the item it led to, and what is kept is written back
as the items it was read from.

The input is generated as agents produce it: user messages, then steps of the model's items
(reasoning, function calls in parallel, a custom tool call, a built-in tool's call, assistant
text) each followed by the outputs of its calls, by ``call_id``, in any order."""

from __future__ import annotations

import itertools
import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from cleveragents.adapters.tokens.tiktoken_counter import TiktokenCounter
from cleveragents.adapters.transcripts.json_transcript_codec import JsonTranscriptCodec
from cleveragents.application.services.compaction.context_compactor import ContextCompactor
from cleveragents.application.services.compaction.outcome import CompactionSettings
from cleveragents.application.services.compaction.summary.deterministic_summarizer import (
    DeterministicSummarizer,
)
from cleveragents.domain.transcript import TranscriptFormat
from cleveragents.domain.transcript_rules import violations
from tests.fakes import FakeEventSink

CODEC = JsonTranscriptCodec()
COMPACTOR = ContextCompactor(TiktokenCounter(), DeterministicSummarizer(), FakeEventSink())
RESPONSES = TranscriptFormat.OPENAI_RESPONSES
Item = dict[str, Any]

_words = st.lists(
    st.sampled_from(["fix", "the", "failing", "test", "in", "src/app.py", "error", "42"]),
    min_size=1,
    max_size=30,
).map(" ".join)


@st.composite
def _step(draw: st.DrawFn, step: int) -> list[Item]:
    """The model's items of one step, then the outputs of its calls in some order."""
    items: list[Item] = []
    if draw(st.booleans()):
        items.append(
            {
                "type": "reasoning",
                "id": f"rs_{step}",
                "summary": [{"type": "summary_text", "text": draw(_words)}],
                "encrypted_content": f"gAAAA{step}==",
            }
        )
    calls: list[Item] = []
    for index in range(draw(st.integers(0, 3))):
        call_id = f"call_{step}_{index}"
        if draw(st.integers(0, 4)) == 0:
            call = {"type": "custom_tool_call", "call_id": call_id, "name": "patch"}
            calls.append({**call, "input": draw(_words)})
        else:
            arguments = json.dumps(
                {"command": draw(_words)}, indent=draw(st.sampled_from([None, 1]))
            )
            calls.append(
                {
                    "type": "function_call",
                    "id": f"fc_{step}_{index}",
                    "call_id": call_id,
                    "name": "bash",
                    "arguments": arguments,
                    "status": "completed",
                }
            )
    items += calls
    if draw(st.booleans()):
        items.append({"type": "web_search_call", "id": f"ws_{step}", "status": "completed"})
    if not calls or draw(st.booleans()):
        text = {"type": "output_text", "text": draw(_words), "annotations": []}
        items.append({"type": "message", "role": "assistant", "content": [text]})
    outputs = [
        {
            "type": f"{call['type']}_output",
            "call_id": call["call_id"],
            "output": draw(_words) + "\n" + "ok\n" * draw(st.integers(0, 80)),
        }
        for call in calls
    ]
    return items + draw(st.permutations(outputs))


@st.composite
def _requests(draw: st.DrawFn) -> Item:
    items: list[Item] = []
    step = 0
    for _ in range(draw(st.integers(1, 5))):
        request = draw(_words)
        if draw(st.booleans()):
            items.append({"role": "user", "content": request})
        else:
            content = [{"type": "input_text", "text": request}]
            items.append({"type": "message", "role": "user", "content": content})
        for _ in range(draw(st.integers(0, 3))):
            items += draw(_step(step))
            step += 1
    document: Item = {"model": "gpt-5", "input": items}
    if draw(st.booleans()):
        document["instructions"] = "Fix what the user asks; run the tests."
    return document


def _follower(items: list[Item]) -> dict[str, str]:
    """What each reasoning item is followed by (the id of the next item, or its call id)."""
    found: dict[str, str] = {}
    for item, after in itertools.pairwise(items):
        if item.get("type") == "reasoning":
            found[item["id"]] = str(after.get("call_id", after.get("id", after.get("type"))))
    return found


@settings(max_examples=40, deadline=None)
@given(_requests(), st.integers(1, 600))
def test_a_call_keeps_its_output_and_reasoning_keeps_its_step(
    document: Item, keep_recent: int
) -> None:
    text = json.dumps(document, indent=2)
    assert CODEC.detect(text) is RESPONSES
    transcript = CODEC.read(text)
    assert violations(transcript.messages) == []
    assert CODEC.write(transcript, RESPONSES) == text + "\n"
    budget = CompactionSettings(
        context_window=200_000, reserve_tokens=0, keep_recent_tokens=keep_recent
    )
    outcome = COMPACTOR.compact(transcript.messages, budget, force=True)
    assert violations(outcome.messages) == []
    written = json.loads(
        CODEC.write(transcript.model_copy(update={"messages": outcome.messages}), RESPONSES)
    )
    items = written["input"]
    calls = [item["call_id"] for item in items if item.get("type", "").endswith("tool_call")]
    calls += [item["call_id"] for item in items if item.get("type") == "function_call"]
    answered = [item["call_id"] for item in items if item.get("type", "").endswith("_output")]
    assert sorted(calls) == sorted(answered)
    # Each output follows its call, with nothing but the model's items between them.
    for index, item in enumerate(items):
        if item.get("type", "").endswith("_output"):
            before = items[:index]
            call = next(
                i for i, seen in enumerate(before) if seen.get("call_id") == item["call_id"]
            )
            assert all(
                between.get("role") == "assistant" for between in before[call:] if "role" in between
            )
    original = _follower(document["input"])
    for reasoning, after in _follower(items).items():
        assert original[reasoning] == after
    kept = [item for item in items if item.get("type") != "message" or item.get("role") != "user"]
    originals = [json.dumps(item) for item in document["input"]]
    for item in kept:
        if item.get("type") in ("reasoning", "function_call", "custom_tool_call"):
            assert json.dumps(item) in originals  # written back as read, keys in their order
    if outcome.status == "not-needed":
        assert written == document
