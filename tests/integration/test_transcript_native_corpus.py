"""The transcript codec on the Claude Code sessions of the shared corpus (skipped when it is
absent): the parsed records read as the file does, and write back as the file writing does."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from cleveragents.adapters.transcripts import JsonTranscriptCodec
from cleveragents.domain.transcript import TranscriptFormat
from tests.conftest import corpus_cases

CODEC = JsonTranscriptCodec()
ANTHROPIC, OPENAI, CLAUDE_CODE = (
    TranscriptFormat.ANTHROPIC,
    TranscriptFormat.OPENAI,
    TranscriptFormat.CLAUDE_CODE,
)
SESSIONS = corpus_cases("transcripts", "*.jsonl")


def _records(path: Path) -> list[Any]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").split("\n") if line]


@pytest.mark.parametrize("path", SESSIONS, ids=lambda path: path.name)
def test_claude_code_records_read_as_the_file_does(path: Path) -> None:
    records = _records(path)
    text = path.read_text(encoding="utf-8")
    assert CODEC.detect_native(records) is CLAUDE_CODE
    transcript = CODEC.read_native(records)
    assert transcript == CODEC.read(text)
    written = CODEC.write_native(transcript, CLAUDE_CODE)
    assert isinstance(written, list)
    assert written == _records_of(CODEC.write(transcript, CLAUDE_CODE))
    assert CODEC.read_native(written) == CODEC.read(CODEC.write(transcript, CLAUDE_CODE))


def _records_of(text: str) -> list[Any]:
    return [json.loads(line) for line in text.split("\n") if line]
