"""Compaction on generated transcripts with generated credentials planted anywhere (texts, tool
calls' arguments, tool results and their parts, thinking, verbatim blocks, usage, a format's
own fields): whatever the status, every string of every message returned, and the report,
scanned with the real scanner, is clean; no planted credential survives; the token figures
count what is returned. The real tokenizer, scanner and shrinker (no store)."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from cleveragents.adapters.secrets.combined_scanner import make_secret_scanner
from cleveragents.api.engines import storeless_container
from cleveragents.application.services.compaction.message_tokens import message_tokens
from cleveragents.application.services.compaction.outcome import CompactionSettings
from cleveragents.domain.transcript import (
    Message,
    OtherBlock,
    Role,
    TextBlock,
    ThinkingBlock,
    ToolCall,
    ToolResult,
)
from cleveragents.domain.transcript_rules import is_valid
from tests.properties.transcript_strategies import transcripts
from tests.secret_recall_set import Credential, credentials

SCANNER = make_secret_scanner(name="builtin")
CONTAINER = storeless_container("cl100k_base")
COMPACTOR = CONTAINER.storeless_context_compactor()
COUNTER = CONTAINER.token_counter()
PLACES = ("text", "call", "result", "parts", "thinking", "other", "extra", "usage")


def strings(value: object) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for item in value.values() for s in strings(item)]
    if isinstance(value, list | tuple):
        return [s for item in value for s in strings(item)]
    return []


def plant(message: Message, place: str, credential: Credential) -> Message:
    """`message` with `credential` in `place` (unchanged when it has no such place)."""
    line = f"\n{credential.text}\n"
    blocks = list(message.content)
    update: dict[str, Any] = {}
    if place == "text":
        blocks = [
            b.model_copy(update={"text": b.text + line}) if isinstance(b, TextBlock) else b
            for b in blocks
        ]
    elif place == "call":
        blocks = [
            b.model_copy(update={"input": {**b.input, "env": credential.text}})
            if isinstance(b, ToolCall)
            else b
            for b in blocks
        ]
    elif place in ("result", "parts"):
        blocks = [_in_result(b, line, place) if isinstance(b, ToolResult) else b for b in blocks]
    elif place == "thinking" and message.role is Role.ASSISTANT:
        blocks.insert(0, ThinkingBlock(thinking=f"plan{line}", signature="c2ln"))
    elif place == "other" and message.role is Role.USER and not message.tool_results:
        blocks.append(OtherBlock(data={"type": "document", "source": {"data": credential.text}}))
    elif place == "extra":
        update["extra"] = {**message.extra, "record": {"toolUseResult": {"stdout": line}}}
    elif place == "usage" and message.role is Role.ASSISTANT:
        update["usage"] = {"input_tokens": 3, "note": credential.text}
    return message.model_copy(update={"content": tuple(blocks), **update})


def _in_result(block: ToolResult, line: str, place: str) -> ToolResult:
    if place == "result":
        return block.model_copy(update={"content": block.content + line})
    parts = ({"type": "text", "text": block.content}, {"type": "text", "text": line})
    return block.model_copy(update={"parts": parts})


@st.composite
def planted_transcripts(draw: st.DrawFn) -> tuple[list[Message], list[Credential]]:
    messages = draw(transcripts())
    generated = credentials(draw(st.integers(0, 2**16)))
    used: list[Credential] = []
    for index in range(len(messages)):
        for place in draw(st.lists(st.sampled_from(PLACES), max_size=2)):
            credential = draw(st.sampled_from(generated))
            changed = plant(messages[index], place, credential)
            if changed != messages[index]:
                messages[index] = changed
                used.append(credential)
    assume(used and is_valid(messages))
    return messages, used


@settings(max_examples=60)
@given(planted_transcripts(), st.integers(1, 600), st.booleans())
def test_every_field_returned_by_a_compaction_is_clean(
    planted: tuple[list[Message], list[Credential]], keep_recent: int, force: bool
) -> None:
    messages, used = planted
    given_dump = [m.model_dump() for m in messages]
    budget = CompactionSettings(
        context_window=200_000, reserve_tokens=0, keep_recent_tokens=keep_recent
    )
    outcome = COMPACTOR.compact(messages, budget, force=force)
    every = [s for m in outcome.messages for s in strings(m.model_dump())]
    every += strings(outcome.report(budget))
    for value in every:
        assert SCANNER.scan_text(value) == [], value[:300]
    for credential in used:
        assert not any(credential.secret in value for value in every), credential.name
    assert outcome.redacted_secrets >= 1
    assert outcome.tokens_after == sum(message_tokens(outcome.messages, COUNTER))
    assert json.dumps(given_dump) == json.dumps([m.model_dump() for m in messages])
