"""Counting in two halves at once must give exactly the real tokenizer's count and token
starts of the whole, on real files and on any text."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from cleveragents.adapters.tokens.tiktoken_counter import TiktokenCounter
from cleveragents.application.services.artifact_compression.heuristic_counter import (
    HeuristicTokenCounter,
)
from cleveragents.application.services.artifact_compression.segment_count import safe_cut_near
from cleveragents.application.services.artifact_compression.split_counting import (
    HALVING_MIN_CHARS,
    SplitCounter,
)
from tests.conftest import CORPUS, TEST_DATA

ENCODINGS = ("cl100k_base", "o200k_base")
POOL = ThreadPoolExecutor(max_workers=2)

_PIECES = st.sampled_from(
    [
        *["a", "Z", "9", " ", "  ", "\t", ".", "#", "\n", "\n\n", "é", "日本", "😀", "'s", "-"],
        "\r",
        # surrogates, as a Python string can hold them: a pair as two code units, lone ones
        *["\ud83d\ude00", "\ud83d", "\ude00"],
    ]
)
_TEXT = st.lists(_PIECES, max_size=80).map("".join)


@settings(max_examples=300)
@given(text=_TEXT, where=st.floats(0, 1))
@example(text="a\n \nb", where=0.5)  # "\n \n" is one pre-token: no cut after the first
def test_a_safe_cut_splits_the_count_exactly(text: str, where: float) -> None:
    index = int(len(text) * where)
    cut = safe_cut_near(text, index)
    if cut is None:
        return
    assert 0 < cut <= min(index, len(text) - 1)
    for encoding in ENCODINGS:
        counter = TiktokenCounter(encoding)
        assert counter.count(text[:cut]) + counter.count(text[cut:]) == counter.count(text)


@settings(max_examples=150)
@given(text=_TEXT)
def test_halves_give_the_whole_count_and_starts(text: str) -> None:
    for encoding in ENCODINGS:
        counter = TiktokenCounter(encoding)
        split = SplitCounter(counter, POOL, min_chars=1)
        assert split.count(text) == counter.count(text)
        assert split.token_starts(text) == counter.token_starts(text)
        assert split.token_starts_later(text)() == counter.token_starts(text)


@pytest.mark.parametrize("encoding", ENCODINGS)
def test_halves_are_exact_on_real_files(encoding: str) -> None:
    counter = TiktokenCounter(encoding)
    split = SplitCounter(counter, POOL)
    paths = sorted(CORPUS.glob("*/*")) if CORPUS.is_dir() else []
    paths += sorted(TEST_DATA.glob("*.*"))
    halved = 0
    for path in paths:
        if not path.is_file():
            continue
        text = path.read_text(encoding="utf-8", errors="replace")
        text *= HALVING_MIN_CHARS // max(len(text), 1) + 1  # long enough to be halved
        halved += split.halving_cut(text) is not None
        assert split.count(text) == counter.count(text), path.name
        assert split.token_starts_later(text)() == counter.token_starts(text), path.name
    assert halved > 20


def test_the_heuristic_fallback_is_never_halved() -> None:
    """It counts characters: its halves would not add up to its count of the whole."""
    split = SplitCounter(HeuristicTokenCounter(), POOL, min_chars=1)
    assert not split.safe
    assert split.halving_cut("alpha\nbeta\n" * 1000) is None
