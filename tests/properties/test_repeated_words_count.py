"""Counting by distinct words gives the tokenizer's own count: on generated text built from
what the pre-tokenizers treat differently (every kind of space and line break, letters, marks,
digits, contractions, punctuation, slashes), in both encodings, one text or several, and on long
texts of every kind; it declines what it cannot tell apart (the mark) and what repeats too
little to gain, and the counter then counts the text whole."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cleveragents.adapters.tokens import repeated_words
from cleveragents.adapters.tokens.repeated_words import count_by_repeated_words
from cleveragents.adapters.tokens.tiktoken_counter import TiktokenCounter, load_encoding

_PARTS = [
    "a", "Z", "word", " word", " the", "7", "123456", " ", "  ", "   ", "\t", "\t ", "\n",
    "\n ", "\n    ", "\n\n", "\r", "\r\n", " \n", "/", "//", ")", ":", "'s", "'T", " 's", "é",
    "\u0301", "文字", "🚀", "\u00a0", "\u00a0 ", "\u2028", "\u2003 ", "\u3000 ", "\u1680 ",
    "\u180e ", "\x0b ", "\x0c", "\x1c ", "\x1e ", "\x85 ", "<|endoftext|>", "-", "+", "{", "}",
    "#", ". ", ", ", "\ud83d", "\udc00",
]  # fmt: skip
_texts = st.lists(st.sampled_from(_PARTS), max_size=60).map("".join)
ENCODINGS = ("cl100k_base", "o200k_base")


def _count(encoding: str, text: str) -> int:
    return len(load_encoding(encoding).encode(text, disallowed_special=()))


@pytest.fixture
def any_length(monkeypatch: pytest.MonkeyPatch) -> None:
    """Rare words taken too, so that generated text reaches every branch."""
    monkeypatch.setattr(repeated_words, "_MAX_SAMPLE_DISTINCT", 1.0)


@pytest.mark.usefixtures("any_length")
@pytest.mark.parametrize("encoding", ENCODINGS)
@given(texts=st.lists(_texts, min_size=1, max_size=4))
@settings(max_examples=300)
def test_the_count_by_distinct_words_is_the_tokenizers(encoding: str, texts: list[str]) -> None:
    counted = count_by_repeated_words(texts, lambda text: _count(encoding, text))
    assert counted == sum(_count(encoding, text) for text in texts)


@pytest.mark.usefixtures("any_length")
@pytest.mark.parametrize("encoding", ENCODINGS)
@given(words=st.lists(_texts, min_size=1, max_size=12), seed=st.integers(0, 2**32))
def test_words_that_come_again_and_again_count_as_the_whole(
    encoding: str, words: list[str], seed: int
) -> None:
    rng = random.Random(seed)
    text = "".join(rng.choice(words) for _ in range(200))
    assert count_by_repeated_words([text], lambda part: _count(encoding, part)) == _count(
        encoding, text
    )


def test_a_text_holding_the_mark_is_declined() -> None:
    text = "word and word\x1f again " * 5_000
    assert count_by_repeated_words([text], len) is None
    assert TiktokenCounter().count(text) == _count("cl100k_base", text)


def test_a_text_of_few_distinct_words_is_counted_by_them() -> None:
    text = _prose(random.Random(11)) * 2
    assert len(text) > repeated_words.MIN_CHARS
    assert count_by_repeated_words([text], lambda part: _count("cl100k_base", part)) == _count(
        "cl100k_base", text
    )


def test_a_text_that_barely_repeats_is_declined_and_counted_whole() -> None:
    rng = random.Random(7)
    text = " ".join(f"{rng.getrandbits(64):x}" for _ in range(40_000))
    assert count_by_repeated_words([text], len) is None
    assert TiktokenCounter().count(text) == _count("cl100k_base", text)


def test_a_short_text_is_encoded_whole(monkeypatch: pytest.MonkeyPatch) -> None:
    def refused(*_: object) -> None:
        raise AssertionError("a short text is not split into words")

    monkeypatch.setattr(repeated_words, "count_by_repeated_words", refused)
    text = "a few words, a few words " * 100
    assert TiktokenCounter().count(text) == _count("cl100k_base", text)


def test_a_long_text_is_split_into_bounded_pieces(monkeypatch: pytest.MonkeyPatch) -> None:
    """Only one piece's words are held at a time: a 3 MB text comes in pieces of about 1 MB."""
    seen: list[int] = []
    split = repeated_words._words_between_cuts

    def watched(piece: str) -> list[str] | None:
        seen.append(len(piece))
        return split(piece)

    monkeypatch.setattr(repeated_words, "_words_between_cuts", watched)
    text = "the shard failed again.\n" * 130_000
    assert TiktokenCounter().count(text) == _count("cl100k_base", text)
    assert len(seen) >= 2
    assert max(seen) < 2.5 * (1 << 20)


def test_every_blank_python_knows_is_below_the_last_one_listed() -> None:
    """The blanks after which a space is no cut are looked for up to U+3000 only."""
    assert not any(chr(code).isspace() for code in range(0x3001, 0x110000))


def _prose(rng: random.Random) -> str:
    vocabulary = ["the", "request", "failed", "because", "of", "a", "timeout", "in", "shard"]
    lines = []
    for number in range(6_000):
        words = " ".join(rng.choice(vocabulary) for _ in range(rng.randint(3, 14)))
        lines.append(f"{'  ' * rng.randint(0, 3)}- {words}, see #{number}.")
    return "\n".join(lines) + "\n"


def _log(rng: random.Random) -> str:
    levels = ["INFO", "WARN", "ERROR", "DEBUG"]
    return "".join(
        f"2026-12-0{rng.randint(1, 9)}T10:{rng.randint(10, 59)}:00Z {rng.choice(levels)} "
        f"worker-{rng.randint(1, 40)}  shard={rng.randint(1, 9)}\tlatency_ms={rng.random():.3f}\r\n"
        for _ in range(8_000)
    )


def _code(rng: random.Random) -> str:
    blocks = []
    for number in range(1_500):
        blocks.append(
            f"def handler_{number}(request, *, retries={rng.randint(0, 5)}):\n"
            f"    '''Answer the request; it's retried.'''\n"
            f"    if request.path == '/health':\n        return {{'ok': True}}\n"
            f"    return route(request)  # \u00a0note: caf\u00e9 \u3000 文字\n\n"
        )
    return "".join(blocks)


@pytest.mark.usefixtures("any_length")
@pytest.mark.parametrize("encoding", ENCODINGS)
@pytest.mark.parametrize("make", [_prose, _log, _code])
def test_long_texts_of_every_kind_count_as_the_tokenizer_does(encoding: str, make: object) -> None:
    text = make(random.Random(3))  # type: ignore[operator]
    assert len(text) > repeated_words.MIN_CHARS
    counted = count_by_repeated_words([text], lambda part: _count(encoding, part))
    assert counted is not None  # it repeats: counted by its words, not declined
    assert counted == _count(encoding, text)
    assert TiktokenCounter(encoding).count(text) == _count(encoding, text)


def test_a_stream_is_counted_by_words_one_window_at_a_time(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """`agents tokens count` streams a file: each window is counted alone, by its words."""
    windows: list[int] = []
    by_words = repeated_words.count_by_repeated_words

    def watched(pieces: object, *rest: Any, **options: Any) -> int | None:
        listed = list(pieces)  # type: ignore[call-overload]
        windows.append(sum(map(len, listed)))
        return by_words(listed, *rest, **options)

    monkeypatch.setattr(repeated_words, "count_by_repeated_words", watched)
    text = _log(random.Random(5)) * 6
    chunks = (text[start : start + 65_536] for start in range(0, len(text), 65_536))
    assert TiktokenCounter().count_stream(chunks) == _count("cl100k_base", text)
    assert len(windows) >= 2
    assert max(windows) < 3 * (1 << 20)
