"""Long texts are encoded in pieces, and a text made of pieces copied from one already encoded is
counted from its token starts: every figure is exactly that of one encode of the whole."""

from __future__ import annotations

import random
from itertools import accumulate

import pytest

from cleveragents.adapters.tokens.tiktoken_counter import (
    STREAM_WINDOW_CHARS,
    TiktokenCounter,
    load_encoding,
    token_byte_lengths,
)
from cleveragents.application.ports.token_counter import TextPiece

PIECES = [
    "def parse(self, value):\n    return int(value)\n",
    "081109 203615 148 INFO dfs.DataNode$PacketResponder: block blk_38865 terminating\n",
    "    \n\n  \t\n",
    '{"key": "välue", "n": [1, 2, 3]}\n',
    "Ünïcödé テキスト 文字 🚀\n",
    "x" * 300 + "\n",
    "   indented    spaces   \n",
    "<|endoftext|> is plain text here\n",
    "\r\nwindows line\r\n",
    "}\n  {\n)\n",
]
NEW_TEXT = ["\n", "\n\n", "# … lines 5-9", "    // … line 7", "[TRUNCATED]", " ", "x", "—", ""]


def _random_text(rng: random.Random, length: int) -> str:
    parts: list[str] = []
    size = 0
    while size < length:
        parts.append(rng.choice(PIECES))
        size += len(parts[-1])
    return "".join(parts)


@pytest.mark.parametrize("encoding", ["cl100k_base", "o200k_base"])
def test_a_long_text_in_pieces_gives_the_whole_texts_figures(encoding: str) -> None:
    text = _random_text(random.Random(0), STREAM_WINDOW_CHARS * 2 + 4096)  # two pieces
    whole = load_encoding(encoding).encode(text, disallowed_special=())
    lengths = map(token_byte_lengths(load_encoding(encoding)).__getitem__, whole)
    counter = TiktokenCounter(encoding)
    assert counter.count(text) == len(whole)
    assert list(counter.token_starts(text)) == [0, *accumulate(lengths)][: len(whole)]


def _byte_offset(text: str, index: int) -> int:
    return len(text[:index].encode("utf-8", errors="surrogatepass"))


@pytest.mark.parametrize("encoding", ["cl100k_base", "o200k_base"])
@pytest.mark.parametrize("seed", range(25))
def test_pieces_copied_from_an_encoded_text_count_as_the_joined_text(
    encoding: str, seed: int
) -> None:
    # Slices of the source at arbitrary offsets (mid-line, mid-character run, inside runs of
    # spaces), between arbitrary new text: the count is the joined text's, whatever the cuts.
    rng = random.Random(seed)
    source = _random_text(rng, 3000)
    counter = TiktokenCounter(encoding)
    starts = counter.token_starts(source)
    pieces: list[TextPiece] = []
    for _ in range(rng.randint(1, 12)):
        if rng.random() < 0.5:
            pieces.append(TextPiece(rng.choice(NEW_TEXT)))
            continue
        begin = rng.randrange(len(source))
        end = min(len(source), begin + rng.randint(0, 600))
        pieces.append(TextPiece(source[begin:end], _byte_offset(source, begin)))
    joined = "".join(piece.text for piece in pieces)
    assert counter.count_pieces(pieces, starts) == counter.count(joined)


def test_copied_pieces_are_counted_from_the_starts_not_encoded_again() -> None:
    # A wrong start list shows whether the inside of a copied piece was read from it: the
    # count changes by the starts removed there, and not for new text.
    source = "alpha\nbeta\ngamma\ndelta\n"
    counter = TiktokenCounter()
    starts = counter.token_starts(source)
    copied = [TextPiece(source, 0)]
    assert counter.count_pieces(copied, starts) == counter.count(source)
    inside = [start for start in starts if not 6 <= start < 11]  # "beta\n" is inside
    assert counter.count_pieces(copied, inside) < counter.count(source)
    assert counter.count_pieces([TextPiece(source)], inside) == counter.count(source)
