"""Counts and token starts read tiktoken's id buffer instead of a list of ints: the same
figures as `Encoding.encode`, on every kind of text, and the same with a tiktoken that has no
such buffer."""

from __future__ import annotations

import random
from bisect import bisect_left
from itertools import accumulate

import pytest

from cleveragents.adapters.tokens import tiktoken_counter, token_offsets
from cleveragents.adapters.tokens.offline_encodings import OFFLINE_ENCODINGS
from cleveragents.adapters.tokens.tiktoken_counter import (
    TiktokenCounter,
    load_encoding,
    token_byte_lengths,
)
from cleveragents.domain.errors import TokenCountingError

_ALPHABET = "ab zé\n\t{}\"'.,;:-_/\\0123456789ÿ€😀中文\u200b\r<|endoftext|>"


def _texts() -> list[str]:
    rng = random.Random(4)
    texts = ["", "a", " ", "\n", "hello world", "<|endoftext|> as plain text", "€" * 3]
    texts += [
        "".join(rng.choice(_ALPHABET) for _ in range(rng.randrange(1, 400))) for _ in range(60)
    ]
    texts.append("a lone surrogate \ud800 and a pair \ud83d\ude00 in a Python string")
    return texts


def _expected_starts(name: str, text: str) -> list[int]:
    encoding = load_encoding(name)
    tokens = encoding.encode(text, disallowed_special=())
    lengths = token_byte_lengths(encoding)
    return list(accumulate((lengths[token] for token in tokens), initial=0))[:-1]


@pytest.mark.parametrize("name", sorted(OFFLINE_ENCODINGS))
def test_counts_and_starts_are_those_of_encode(name: str) -> None:
    counter = TiktokenCounter(name)
    encoding = load_encoding(name)
    for text in _texts():
        assert counter.count(text) == len(encoding.encode(text, disallowed_special=())), text
        assert list(counter.token_starts(text)) == _expected_starts(name, text), text


def test_a_tiktoken_without_the_buffer_gives_the_same_figures(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    counter = TiktokenCounter()
    texts = _texts()
    with_buffer = [(counter.count(text), counter.token_starts(text)) for text in texts]

    class WithoutBuffer:
        """The core encoder with only `encode`, as in a tiktoken without the buffer."""

        def __init__(self, core: object) -> None:
            self.encode = core.encode  # type: ignore[attr-defined]

    encoding = load_encoding("cl100k_base")
    monkeypatch.setattr(encoding, "_core_bpe", WithoutBuffer(encoding._core_bpe))
    assert not hasattr(encoding._core_bpe, "encode_to_tiktoken_buffer")
    without = [(counter.count(text), counter.token_starts(text)) for text in texts]
    assert without == with_buffer


def test_the_ids_are_read_from_the_buffer_when_there_is_one(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Not through `encode`'s list: a count that called it would fail here."""
    encoding = load_encoding("cl100k_base")

    def no_list(*_args: object, **_kwargs: object) -> list[int]:
        raise AssertionError("the list of ids was built")

    monkeypatch.setattr(tiktoken_counter, "_encode", no_list)
    assert TiktokenCounter().count("hello world, " * 1000) == len(
        encoding.encode("hello world, " * 1000)
    )


def test_a_tokenizer_failure_through_the_buffer_is_a_counting_error(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    encoding = load_encoding("cl100k_base")

    class Failing:
        def encode_to_tiktoken_buffer(self, _text: str, _allowed: object) -> bytes:
            raise ValueError("regex backtrack limit exceeded")

    monkeypatch.setattr(encoding, "_core_bpe", Failing())
    with pytest.raises(TokenCountingError, match="cannot count this text"):
        TiktokenCounter().count("text")


def test_a_long_texts_starts_are_plain_ints_that_no_caller_can_change() -> None:
    """One array behind them, seen as a sequence of ints: a caller bisects or indexes it as it
    would a list, and cannot write into what another compression may share."""
    starts = TiktokenCounter().token_starts("hello world, " * token_offsets.ARRAY_FROM_TOKENS)
    assert not isinstance(starts, list)
    assert type(starts[3]) is int
    assert bisect_left(starts, starts[3]) == 3
    assert len(starts[:5]) == 5
    with pytest.raises(TypeError):
        starts[0] = 1  # type: ignore[index]
    assert len(TiktokenCounter().token_starts("")) == 0


@pytest.mark.parametrize("name", sorted(OFFLINE_ENCODINGS))
def test_short_and_long_texts_offsets_are_the_same_either_way(
    monkeypatch: pytest.MonkeyPatch, name: str
) -> None:
    """A short text's offsets are a list, a long one's an array: each text's figures are the
    same whichever it gets, on both sides of the threshold, and for the counts by words and
    by records that search the tokens' ends."""
    counter = TiktokenCounter(name)
    encoding = load_encoding(name)
    rng = random.Random(5)
    texts = [*_texts(), "", " ".join(f"w{rng.randint(0, 99)}" for _ in range(3000))]
    ends = [
        [rng.randint(0, len(text.encode(errors="surrogatepass")) + 2) for _ in range(50)]
        for text in texts
    ]
    figures = []
    for threshold in (1, token_offsets.ARRAY_FROM_TOKENS, 1 << 30):
        monkeypatch.setattr(token_offsets, "ARRAY_FROM_TOKENS", threshold)
        figures.append(
            [
                (
                    list(counter.token_starts(text)),
                    tiktoken_counter._tokens_up_to(encoding, text, sorted(at)),
                )
                for text, at in zip(texts, ends, strict=True)
            ]
        )
    assert figures[0] == figures[1] == figures[2]
    assert figures[0][-1][0] == _expected_starts(name, texts[-1])
