"""The transcript codec on parsed documents (`read_native`, `write_native`, `detect_native`) and
on bytes (`write_bytes`, which escapes lone surrogates).

Real data: the hand-written Anthropic and OpenAI examples of tests/data/transcripts (the Claude
Code sessions of the shared corpus: tests/integration/test_transcript_native_corpus.py)."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from cleveragents.adapters.transcripts import JsonTranscriptCodec
from cleveragents.domain.errors import InvalidInputError
from cleveragents.domain.transcript import TranscriptFormat
from tests.conftest import TEST_DATA

CODEC = JsonTranscriptCodec()
EXAMPLES = TEST_DATA / "transcripts"
ANTHROPIC, OPENAI, CLAUDE_CODE = (
    TranscriptFormat.ANTHROPIC,
    TranscriptFormat.OPENAI,
    TranscriptFormat.CLAUDE_CODE,
)


def _document(name: str) -> Any:
    return json.loads((EXAMPLES / name).read_text(encoding="utf-8"))


@pytest.mark.parametrize(
    ("name", "transcript_format"),
    [("anthropic-messages.json", ANTHROPIC), ("openai-chat.json", OPENAI)],
)
def test_a_document_reads_as_its_text_does_and_writes_back_equal(
    name: str, transcript_format: TranscriptFormat
) -> None:
    document = _document(name)
    text = (EXAMPLES / name).read_text(encoding="utf-8")
    assert CODEC.detect_native(document) is transcript_format
    transcript = CODEC.read_native(document)
    assert transcript == CODEC.read(text)
    assert CODEC.write_native(transcript, transcript_format) == document
    assert CODEC.write_native(transcript, transcript_format) == json.loads(
        CODEC.write(transcript, transcript_format)
    )


def test_a_bare_list_of_messages_comes_back_a_list() -> None:
    messages = _document("anthropic-messages.json")["messages"]
    written = CODEC.write_native(CODEC.read_native(messages), ANTHROPIC)
    assert written == messages


def test_the_callers_document_is_neither_changed_nor_shared() -> None:
    document = _document("anthropic-messages.json")
    before = copy.deepcopy(document)
    transcript = CODEC.read_native(document)
    written = CODEC.write_native(transcript, ANTHROPIC)
    assert isinstance(written, dict)
    written["messages"][-1]["content"] = "edited"
    written["model"] = "edited"
    document["messages"][0]["role"] = "assistant"
    assert CODEC.write_native(transcript, ANTHROPIC) == before
    document["messages"][0]["role"] = "user"
    assert document == before


def test_tuples_read_as_lists() -> None:
    messages = ({"role": "user", "content": ({"type": "text", "text": "hi"},)},)
    assert CODEC.write_native(CODEC.read_native(messages), ANTHROPIC) == [
        {"role": "user", "content": [{"type": "text", "text": "hi"}]}
    ]


@pytest.mark.parametrize(
    ("document", "message"),
    [
        ([{"role": "user", "content": float("nan")}], r"transcript\[0\]\.content: nan is not"),
        ([{"role": "user", "content": "x", 3: 1}], "the key 3 is not a string"),
        ([{"role": "user", "content": {"a", "b"}}], r"transcript\[0\]\.content: set is not"),
        ([{"role": "user", "content": b"x"}], "bytes is not a JSON value"),
        ({"messages": [{"role": "user", "content": 10**5000}]}, "too many digits"),
        ("not a document", "neither Claude Code JSONL nor JSON messages"),
        ([{"content": "no role"}], "neither Claude Code JSONL nor JSON messages"),
    ],
)
def test_what_is_not_a_json_transcript_is_refused_naming_where(
    document: object, message: str
) -> None:
    with pytest.raises(InvalidInputError, match=message):
        CODEC.read_native(document)


def test_deep_nesting_is_refused_in_one_line() -> None:
    nested: Any = "x"
    for _ in range(100_000):
        nested = [nested]
    with pytest.raises(InvalidInputError, match="nested too deeply"):
        CODEC.read_native([{"role": "user", "content": nested}])


def test_a_named_format_is_checked_against_the_document() -> None:
    openai = _document("openai-chat.json")
    with pytest.raises(InvalidInputError, match="OpenAI"):
        CODEC.read_native(openai, ANTHROPIC)
    with pytest.raises(InvalidInputError, match="not a list of Claude Code session records"):
        CODEC.read_native(openai, CLAUDE_CODE)
    records = [{"type": "user", "uuid": "u1", "message": {"role": "user", "content": "hi"}}]
    with pytest.raises(InvalidInputError, match="looks like Claude Code"):
        CODEC.read_native(records, OPENAI)
    assert CODEC.read_native(records, CLAUDE_CODE).messages[0].text == "hi"


def test_a_claude_code_record_error_names_its_position() -> None:
    records = [
        {"type": "user", "uuid": "u1", "message": {"role": "user", "content": "hi"}},
        {"type": 7},
    ]
    with pytest.raises(InvalidInputError, match="line 2"):
        CODEC.read_native(records)


def test_write_bytes_escapes_a_lone_surrogate_as_it_was_read() -> None:
    text = '[{"role": "user", "content": "before \\ud800 after \\udfff"}]'
    transcript = CODEC.read(text)
    assert "\ud800" in transcript.messages[0].text
    for transcript_format in (ANTHROPIC, OPENAI, CLAUDE_CODE):
        data = CODEC.write_bytes(transcript, transcript_format)
        assert b"before \\ud800 after \\udfff" in data
        data.decode("utf-8")  # strict: it is UTF-8
        assert CODEC.read(data.decode("utf-8")).messages[0].text == transcript.messages[0].text


def test_write_bytes_is_the_text_in_utf8_otherwise() -> None:
    transcript = CODEC.read_native(_document("anthropic-messages.json"))
    data = CODEC.write_bytes(transcript, ANTHROPIC)
    assert data == CODEC.write(transcript, ANTHROPIC).encode("utf-8")
