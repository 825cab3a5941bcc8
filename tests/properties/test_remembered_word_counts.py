"""Counts inside a `remembering` block: each word's count, once encoded, is looked up by the
later counts of the block, and every count stays the tokenizer's own, for generated text of
every kind of space, line break, letter, digit and punctuation, in both encodings, with texts
holding lone surrogates or the split's mark; nothing is remembered past the block, nor shared
between threads or encodings."""

from __future__ import annotations

import json
import random
import threading
from contextlib import AbstractContextManager
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cleveragents.adapters.tokens import repeated_words, tiktoken_counter
from cleveragents.adapters.tokens.tiktoken_counter import TiktokenCounter, load_encoding
from cleveragents.container import build_container
from cleveragents.domain.artifact import CompressionMode
from tests.properties.encode_spy import watch_encodes

_PARTS = [
    "a", "Z", "word", " word", " the", "7", "123456", " ", "  ", "\t", "\t ", "\n", "\n ",
    "\n    ", "\r\n", " \n", "/", ")", ":", "'s", " 's", "é", "文字", "🚀", "\u00a0 ", "\u3000 ",
    "\x0b ", "\x1c ", "<|endoftext|>", "{", "\"key\": ", ", ", ". ",
]  # fmt: skip
_long_texts = st.lists(st.sampled_from(_PARTS), min_size=300, max_size=900).map("".join)
ENCODINGS = ("cl100k_base", "o200k_base")


def _count(encoding: str, text: str) -> int:
    return len(load_encoding(encoding).encode(text, disallowed_special=()))


@pytest.fixture
def any_length(monkeypatch: pytest.MonkeyPatch) -> None:
    """The first count of a block remembers words whatever its length and words, so that the
    generated texts reach the remembering path."""
    monkeypatch.setattr(repeated_words, "MIN_CHARS", 0)
    monkeypatch.setattr(repeated_words, "_MAX_SAMPLE_DISTINCT", 1.0)


@pytest.mark.usefixtures("any_length")
@pytest.mark.parametrize("encoding", ENCODINGS)
@given(texts=st.lists(_long_texts, min_size=1, max_size=5))
@settings(max_examples=60, deadline=None)
def test_counts_in_a_block_are_the_tokenizers(encoding: str, texts: list[str]) -> None:
    counter = TiktokenCounter(encoding)
    with counter.remembering():
        for text in texts + texts:  # the second time, every word is remembered
            assert counter.count(text) == _count(encoding, text)


def test_a_count_again_encodes_no_word_it_met(monkeypatch: pytest.MonkeyPatch) -> None:
    counted: list[int] = []
    word_counts = tiktoken_counter._word_counts

    def watched(encoding: object, words: list[str]) -> list[int]:
        counted.append(len(words))
        return word_counts(encoding, words)  # type: ignore[arg-type]

    monkeypatch.setattr(tiktoken_counter, "_word_counts", watched)
    rng = random.Random(3)
    vocabulary = [f"word{n}" for n in range(300)]
    text = " ".join(rng.choice(vocabulary) for _ in range(12_000))
    assert len(text) > repeated_words.MIN_CHARS
    counter = TiktokenCounter()
    with counter.remembering():
        assert counter.count(text) == _count("cl100k_base", text)
        assert counted
        assert counted[0] <= len(vocabulary)
        counted.clear()
        shuffled = " ".join(reversed(text.split(" ")))
        assert counter.count(shuffled) == _count("cl100k_base", shuffled)
    assert counted == []  # every inner word was remembered


def test_nothing_is_remembered_past_the_block() -> None:
    counter = TiktokenCounter()
    with counter.remembering():
        with counter.remembering():  # a block inside another shares it
            counter.count("the same words again " * 4_000)
            inner = tiktoken_counter._remembered.get()
        assert tiktoken_counter._remembered.get() is inner
        assert inner
    assert tiktoken_counter._remembered.get() is None


def test_the_first_text_of_a_block_is_counted_again_without_encoding(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A compression counts its raw text first, and may ask for the same count later (JSON's
    ratio of tokens to characters in the input's own layout)."""

    encoded = watch_encodes(monkeypatch)
    raw = json.dumps([{"id": n, "name": f"n{n}"} for n in range(300)], indent=2)
    other = raw.replace("name", "title")
    counter = TiktokenCounter()
    with counter.remembering():
        assert counter.count(raw) == _count("cl100k_base", raw)
        encoded.clear()
        assert counter.count(raw) == _count("cl100k_base", raw)
        assert encoded == []  # kept from the first count
        assert counter.count(other) == _count("cl100k_base", other)
        assert encoded  # another text is counted
        encoded.clear()
        counter.count(other)
        assert encoded  # only the first text is kept
    encoded.clear()
    counter.count(raw)
    assert encoded  # nothing is kept past the block


def test_a_block_is_its_own_threads() -> None:
    counter = TiktokenCounter()
    seen: list[object] = []
    with counter.remembering():
        worker = threading.Thread(target=lambda: seen.append(tiktoken_counter._remembered.get()))
        worker.start()
        worker.join()
    assert seen == [None]


def test_a_first_count_that_barely_repeats_remembers_nothing() -> None:
    """Declined as outside a block (splitting words that never come again costs up to three
    encodes): the block keeps nothing, and the next count is judged the same way."""
    rng = random.Random(9)
    text = " ".join(f"{rng.getrandbits(64):x}" for _ in range(40_000))
    counter = TiktokenCounter()
    with counter.remembering():
        assert counter.count(text) == _count("cl100k_base", text)
        remembered = tiktoken_counter._remembered.get()
        assert remembered is not None
        assert not remembered.get("cl100k_base")


def test_only_a_kind_that_fits_itself_remembers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """JSON's smart fit counts candidates rendered from the text; markdown, or JSON in tiered
    mode, counts the raw text and what it copies from it, which share nothing to remember."""
    opened: list[bool] = []
    remembering = TiktokenCounter.remembering

    def watched(self: TiktokenCounter) -> AbstractContextManager[object]:
        opened.append(True)
        return remembering(self)

    monkeypatch.setattr(TiktokenCounter, "remembering", watched)
    service = build_container(
        f"sqlite:///{tmp_path}/c.db", home=tmp_path
    ).artifact_compressor_service()
    document = json.dumps([{"id": n, "name": f"item {n}", "tags": ["a", "b"]} for n in range(900)])
    result = service.compress_text("a.json", document, 2_000, mode=CompressionMode.SMART)
    assert result.compacted_tokens == _count("cl100k_base", result.content) <= 2_000
    assert opened == [True]
    service.compress_text("a.json", document, 2_000, mode=CompressionMode.TIERED)
    service.compress_text("a.md", "# Plan\n\n" + "Do the thing. " * 2_000, 500)
    assert opened == [True]
    assert tiktoken_counter._remembered.get() is None


@pytest.mark.usefixtures("any_length")
def test_two_encodings_in_one_block_keep_their_own_counts() -> None:
    text = "naïve café résumé déjà vu, the tokenizer differs 🚀 " * 100
    first, second = TiktokenCounter("cl100k_base"), TiktokenCounter("o200k_base")
    with first.remembering():
        assert first.count(text) == _count("cl100k_base", text)
        assert second.count(text) == _count("o200k_base", text)
        assert first.count(text) == _count("cl100k_base", text)


@pytest.mark.usefixtures("any_length")
@pytest.mark.parametrize(
    "text",
    [
        "a lone \ud800 surrogate among words " * 100,
        "the split's mark \x1f among words " * 100,
        " " * 5_000 + "x",  # a run of spaces the tokenizer's regex gives up on, whole or not
    ],
)
def test_hostile_texts_in_a_block_count_as_outside(text: str) -> None:
    counter = TiktokenCounter()
    try:
        outside = counter.count(text)
    except Exception as error:  # the same failure is expected inside
        with counter.remembering(), pytest.raises(type(error)):
            counter.count(text)
        return
    with counter.remembering():
        assert counter.count(text) == outside
