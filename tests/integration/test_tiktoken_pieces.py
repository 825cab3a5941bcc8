"""Long texts are encoded in pieces on two threads: the counts and token starts are exactly
those of one encode of the whole."""

from __future__ import annotations

import random
from itertools import accumulate

import pytest

from cleveragents.adapters.tokens.tiktoken_counter import (
    PARALLEL_MIN_CHARS,
    STREAM_WINDOW_CHARS,
    TiktokenCounter,
    load_encoding,
    thread_pieces,
)

PIECES = [
    "def parse(self, value):\n    return int(value)\n",
    "081109 203615 148 INFO dfs.DataNode$PacketResponder: block blk_38865 terminating\n",
    "    \n\n  \t\n",
    '{"key": "välue", "n": [1, 2, 3]}\n',
    "Ünïcödé テキスト 文字 🚀\n",
    "x" * 300 + "\n",
    "   indented    spaces   \n",
    "<|endoftext|> is plain text here\n",
]


@pytest.mark.parametrize("encoding", ["cl100k_base", "o200k_base"])
@pytest.mark.parametrize("seed", range(4))
def test_pieces_on_threads_give_the_whole_texts_figures(encoding: str, seed: int) -> None:
    rng = random.Random(seed)
    parts: list[str] = []
    while sum(map(len, parts)) < PARALLEL_MIN_CHARS * 2:
        parts.append(rng.choice(PIECES))
    text = "".join(parts)
    whole = load_encoding(encoding).encode(text, disallowed_special=())
    lengths = [len(load_encoding(encoding).decode_single_token_bytes(t)) for t in whole]
    counter = TiktokenCounter(encoding)
    assert counter.count(text) == len(whole)
    assert counter.token_starts(text) == [0, *accumulate(lengths)][: len(whole)]


def test_a_long_text_is_cut_for_both_threads() -> None:
    # One piece would leave the second thread idle: the pieces are the halves of a text of
    # under two windows, and of a window's length beyond.
    line = "081109 203615 148 INFO dfs.DataNode: block blk_38865 terminating\n"
    text = line * (PARALLEL_MIN_CHARS // len(line) + 1)
    halves = thread_pieces(text)
    assert len(halves) == 2
    assert "".join(halves) == text
    assert abs(len(halves[0]) - len(halves[1])) <= 2 * len(line)
    longer = line * (5 * STREAM_WINDOW_CHARS // len(line))
    pieces = thread_pieces(longer)
    assert "".join(pieces) == longer
    assert len(pieces) >= 4
