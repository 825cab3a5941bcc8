"""Long texts are encoded in pieces on two threads: the counts and token starts are exactly
those of one encode of the whole."""

from __future__ import annotations

import random
from itertools import accumulate

import pytest

from cleveragents.adapters.tokens.tiktoken_counter import (
    PARALLEL_MIN_CHARS,
    TiktokenCounter,
    load_encoding,
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
