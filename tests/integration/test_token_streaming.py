"""Counting a stream in chunks gives exactly the count of the whole text."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cleveragents.adapters.tokens import tiktoken_counter
from cleveragents.adapters.tokens.tiktoken_counter import TiktokenCounter, safe_split_point
from tests.conftest import CORPUS, TEST_DATA

ENCODINGS = ("cl100k_base", "o200k_base")


def _chunks(text: str, seed: int) -> list[str]:
    rng = random.Random(seed)
    chunks, position = [], 0
    while position < len(text):
        size = rng.randint(1, 4000)
        chunks.append(text[position : position + size])
        position += size
    return chunks


def _corpus_texts() -> list[str]:
    paths = sorted(CORPUS.glob("*/*")) if CORPUS.is_dir() else []
    paths += sorted(TEST_DATA.glob("*.*"))
    return [p.read_text(encoding="utf-8", errors="replace") for p in paths if p.is_file()]


@pytest.mark.parametrize("encoding", ENCODINGS)
def test_stream_count_equals_whole_count_on_real_files(
    encoding: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(tiktoken_counter, "STREAM_WINDOW_CHARS", 4096)
    counter = TiktokenCounter(encoding)
    for index, text in enumerate(_corpus_texts()):
        assert counter.count_stream(_chunks(text, index)) == counter.count(text)


_PIECES = st.sampled_from(
    [
        "\n",
        "\n\n",
        " ",
        "  ",
        "\t",
        "a",
        "Z",
        "é",
        "9",
        "12",
        "{",
        "}",
        "/",
        ".",
        "'s",
        "\r\n",
        "def",
        " x",
        "<|endoftext|>",
        "日本",
        "😀",
        "-",
        '"',
        "\\",
    ]
)


@settings(max_examples=150)
@given(pieces=st.lists(_PIECES, max_size=400), seed=st.integers(0, 1000))
def test_stream_count_is_exact_on_any_text(pieces: list[str], seed: int) -> None:
    text = "".join(pieces)
    original = tiktoken_counter.STREAM_WINDOW_CHARS
    tiktoken_counter.STREAM_WINDOW_CHARS = 16
    try:
        for encoding in ENCODINGS:
            counter = TiktokenCounter(encoding)
            rng = random.Random(seed)
            chunks, position = [], 0
            while position < len(text):
                size = rng.randint(1, 40)
                chunks.append(text[position : position + size])
                position += size
            assert counter.count_stream(chunks) == counter.count(text)
    finally:
        tiktoken_counter.STREAM_WINDOW_CHARS = original


def test_safe_split_point_cuts_before_a_newline_after_a_letter_or_after_one_before_text() -> None:
    assert safe_split_point("ab\ncd\n") == 5  # before the last newline, which follows a letter
    assert safe_split_point("}\n  {\n") == 2  # after a newline that indented text follows
    assert safe_split_point("x\n  {") == 2
    assert safe_split_point("}\n  \n") is None  # spaces, then a newline: one pre-token
    assert safe_split_point(")\n/x") is None  # o200k_base takes the slash after the newline


@settings(max_examples=100)
@given(text=st.text(max_size=300), limit=st.integers(0, 60))
def test_prefix_within_is_a_prefix_that_fits(text: str, limit: int) -> None:
    counter = TiktokenCounter()
    prefix = counter.prefix_within(text, limit)
    assert text.startswith(prefix)
    assert counter.count(prefix) <= limit
