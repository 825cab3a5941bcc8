"""Usage counted from the Claude Code sessions of the shared corpus (skipped when it is absent):
each API message once, checked against an oracle written apart from the readers."""

from __future__ import annotations

import json
from collections import defaultdict
from pathlib import Path

import pytest

from cleveragents.adapters.transcripts.json_transcript_codec import JsonTranscriptCodec
from cleveragents.application.services.metrics.usage_normalization import transcript_usage
from cleveragents.domain.transcript import TranscriptFormat
from tests.conftest import corpus_cases

CODEC = JsonTranscriptCodec()
SESSIONS = corpus_cases("transcripts", "claude-code-*.jsonl")


@pytest.mark.parametrize("path", SESSIONS, ids=lambda path: path.name)
def test_corpus_sessions_count_each_api_message_once(path: Path) -> None:
    """An oracle written apart from the readers: the last usage of every message id."""
    final: dict[str, dict[str, int]] = {}
    for line in path.read_text().split("\n"):  # not splitlines: JSON may hold U+2028 raw
        record = json.loads(line) if line.strip() else {}
        message = record.get("message")
        if (
            record.get("type") == "assistant"
            and isinstance(message, dict)
            and message.get("model") != "<synthetic>"
            and "usage" in message
        ):
            final[message["id"]] = message["usage"]
    expected: dict[str, int] = defaultdict(int)
    for usage in final.values():
        expected["input"] += usage["input_tokens"]
        expected["read"] += usage["cache_read_input_tokens"]
        expected["write"] += usage["cache_creation_input_tokens"]
        expected["output"] += usage["output_tokens"]

    found = transcript_usage(
        CODEC.read(path.read_text()),
        TranscriptFormat.CLAUDE_CODE,
        CODEC.provider(TranscriptFormat.CLAUDE_CODE),
    )
    assert len(found.requests) == len(final)
    got: dict[str, int] = defaultdict(int)
    for request in found.requests:
        got["input"] += request.usage.input_tokens or 0
        got["read"] += request.usage.cache_read_tokens or 0
        got["write"] += request.usage.cache_write_tokens or 0
        got["output"] += request.usage.output_tokens
        assert request.usage.total_input_tokens == sum(
            part or 0
            for part in (
                request.usage.input_tokens,
                request.usage.cache_read_tokens,
                request.usage.cache_write_tokens,
            )
        )
    assert got == expected
