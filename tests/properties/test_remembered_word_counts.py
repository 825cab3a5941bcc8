"""Counts inside a `remembering` block: each word's count, once encoded, is looked up by the
later counts of the block, and every count stays the tokenizer's own, for generated text of
every kind of space, line break, letter, digit and punctuation, in both encodings, with texts
holding lone surrogates or the split's mark; nothing is remembered past the block, nor shared
between threads or encodings."""

from __future__ import annotations

import random
import threading

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cleveragents.adapters.tokens import tiktoken_counter
from cleveragents.adapters.tokens.tiktoken_counter import TiktokenCounter, load_encoding

_PARTS = [
    "a", "Z", "word", " word", " the", "7", "123456", " ", "  ", "\t", "\t ", "\n", "\n ",
    "\n    ", "\r\n", " \n", "/", ")", ":", "'s", " 's", "é", "文字", "🚀", "\u00a0 ", "\u3000 ",
    "\x0b ", "\x1c ", "<|endoftext|>", "{", "\"key\": ", ", ", ". ",
]  # fmt: skip
_long_texts = st.lists(st.sampled_from(_PARTS), min_size=300, max_size=900).map("".join)
ENCODINGS = ("cl100k_base", "o200k_base")


def _count(encoding: str, text: str) -> int:
    return len(load_encoding(encoding).encode(text, disallowed_special=()))


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
    text = " ".join(rng.choice(vocabulary) for _ in range(5_000))
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
            counter.count("the same words again " * 200)
            inner = tiktoken_counter._remembered.get()
        assert tiktoken_counter._remembered.get() is inner
        assert inner
    assert tiktoken_counter._remembered.get() is None


def test_a_block_is_its_own_threads() -> None:
    counter = TiktokenCounter()
    seen: list[object] = []
    with counter.remembering():
        worker = threading.Thread(target=lambda: seen.append(tiktoken_counter._remembered.get()))
        worker.start()
        worker.join()
    assert seen == [None]


def test_two_encodings_in_one_block_keep_their_own_counts() -> None:
    text = "naïve café résumé déjà vu, the tokenizer differs 🚀 " * 100
    first, second = TiktokenCounter("cl100k_base"), TiktokenCounter("o200k_base")
    with first.remembering():
        assert first.count(text) == _count("cl100k_base", text)
        assert second.count(text) == _count("o200k_base", text)
        assert first.count(text) == _count("cl100k_base", text)


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
