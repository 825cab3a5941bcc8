"""Cuts inside a line (before a space that follows a character other than whitespace) on
adversarial text, in cl100k_base and o200k_base: wherever the adapter finds a cut, the counts of
the two sides add up to the count of the whole, also when the text around the cut is a copy
placed between other text; and a text made of copied pieces and new text, cut anywhere, is
counted by `count_pieces` exactly as one encode of the joined text counts it."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cleveragents.adapters.tokens import tiktoken_counter
from cleveragents.adapters.tokens.tiktoken_counter import (
    TiktokenCounter,
    first_cut_inside,
    last_cut_inside,
    load_encoding,
)
from cleveragents.application.ports.token_counter import TextPiece

ENCODINGS = ("cl100k_base", "o200k_base")

# What the pre-tokenizers treat differently around a space: letters of every case and script
# (cased, uncased, CJK, marks alone and after a letter), digits (ASCII and others) and runs of
# them longer than three, contractions in both cases (cl100k_base takes `'s` on its own, o200k_base
# after a word), apostrophes alone, punctuation and symbols, slashes, every kind of whitespace
# (runs of spaces, tabs, line breaks, Unicode spaces, characters Python calls space and the
# tokenizers do not), emoji, a lone surrogate, and text that looks like a special token.
_PARTS = [
    "a", "Z", "word", "Word", "ǅ", "ß", "é", "e\u0301", "\u0301", "\u0903", "文字", "한국어",
    "ٱلعربية", "ʰ", "7", "42", "1234567", "٣", "½", "Ⅻ", "'s", "'S", "'t", "'re", "'ll", "'d",
    "'", "\u2019s", " ", "  ", "   ", "\t", " \t", "\n", "\n\n", "\r\n", "\r", "\u00a0", "\u2028",
    "\u3000", "\x0b", "\x0c", "\x85", "\x1c", "\x1f", "/", "//", ".", ",", "!?", ")", "(", "`",
    "-", "—", "#", "*", "|", "$", "🚀", "👍🏽", "\udc80", "<|endoftext|>", "x" * 20,
    '"', '":"', '","', "{", "}", "[", "]", ":", "_", "@", "~", "\\", "=", "&",
]  # fmt: skip
_adversarial = st.lists(st.sampled_from(_PARTS), max_size=30).map("".join)
_any_unicode = st.text(
    alphabet=st.characters(exclude_categories=["Cs"]) | st.sampled_from(" \n'"), max_size=60
)
_texts = st.one_of(_adversarial, _any_unicode)


def _count(encoding: str, text: str) -> int:
    return len(load_encoding(encoding).encode(text, disallowed_special=()))


def _cuts(text: str) -> set[int]:
    """Every cut the adapter names inside `text` or inside any slice of it (the first and last
    of each slice: together, every cut its rules allow)."""
    found: set[int] = set()
    for start in range(len(text)):
        cut = first_cut_inside(text[start:])
        if cut is not None:
            assert 0 < cut < len(text) - start
            found.add(start + cut)
    for end in range(1, len(text) + 1):
        cut = last_cut_inside(text[:end])
        if cut is not None:
            assert 0 < cut < end
            found.add(cut)
    return found


@pytest.mark.parametrize("encoding", ENCODINGS)
@given(text=_texts)
def test_the_counts_of_the_two_sides_of_a_cut_inside_add_up(encoding: str, text: str) -> None:
    whole = _count(encoding, text)
    for cut in _cuts(text):
        assert _count(encoding, text[:cut]) + _count(encoding, text[cut:]) == whole, cut


@pytest.mark.parametrize("encoding", ENCODINGS)
@given(before=_texts, piece=_texts, after=_texts)
def test_a_cut_inside_a_piece_stays_a_cut_between_other_text(
    encoding: str, before: str, piece: str, after: str
) -> None:
    joined = before + piece + after
    whole = _count(encoding, joined)
    for cut in _cuts(piece):
        at = len(before) + cut
        assert _count(encoding, joined[:at]) + _count(encoding, joined[at:]) == whole, cut


def _byte_offset(text: str, index: int) -> int:
    return len(text[:index].encode("utf-8", errors="surrogatepass"))


@st.composite
def _copies_and_new_text(draw: st.DrawFn) -> tuple[str, list[TextPiece]]:
    """A source text, and pieces that are slices of it (cut at any character) or new text."""
    source = draw(_texts)
    pieces: list[TextPiece] = []
    for _ in range(draw(st.integers(0, 8))):
        if not source or draw(st.booleans()):
            pieces.append(TextPiece(draw(_texts)))
            continue
        begin = draw(st.integers(0, len(source)))
        end = draw(st.integers(begin, len(source)))
        pieces.append(TextPiece(source[begin:end], _byte_offset(source, begin)))
    return source, pieces


@pytest.mark.parametrize("encoding", ENCODINGS)
@given(drawn=_copies_and_new_text())
def test_copied_pieces_and_new_text_count_as_the_joined_text(
    encoding: str, drawn: tuple[str, list[TextPiece]]
) -> None:
    source, pieces = drawn
    counter = TiktokenCounter(encoding)
    joined = "".join(piece.text for piece in pieces)
    assert counter.count_pieces(pieces, counter.token_starts(source)) == counter.count(joined)


@pytest.mark.parametrize("encoding", ENCODINGS)
@given(words=st.lists(_adversarial, min_size=1, max_size=12), data=st.data())
def test_sentences_cut_between_their_words_count_as_the_joined_text(
    encoding: str, words: list[str], data: st.DataObject
) -> None:
    # Prose condensed as markdown's Tier 2 condenses it: runs of words copied from the
    # source, cut before a space, between new words; the runs glue at their cuts.
    source = " ".join(words)
    counter = TiktokenCounter(encoding)
    pieces: list[TextPiece] = []
    position = 0
    while position < len(source):
        end = source.find(" ", position + 1)
        end = len(source) if end < 0 or data.draw(st.booleans()) else end
        if data.draw(st.booleans()):
            pieces.append(TextPiece(source[position:end], _byte_offset(source, position)))
        else:
            pieces.append(TextPiece(data.draw(st.sampled_from(_PARTS))))
        position = end
    joined = "".join(piece.text for piece in pieces)
    assert counter.count_pieces(pieces, counter.token_starts(source)) == counter.count(joined)


def test_the_inside_of_a_line_is_counted_from_the_starts() -> None:
    # A wrong start list shows where the count was read from it: between the first and the
    # last space that follows a word, not at the edges, and never for new text.
    source = "The scheduler rejects every request."
    counter = TiktokenCounter()
    starts = counter.token_starts(source)
    assert first_cut_inside(source) == 3
    assert last_cut_inside(source) == source.rindex(" ")
    inside = [start for start in starts if start != 3]  # " scheduler" starts at 3
    assert counter.count_pieces([TextPiece(source, 0)], inside) == counter.count(source) - 1
    edges = [start for start in starts if start != 0]  # "The" is encoded
    assert counter.count_pieces([TextPiece(source, 0)], edges) == counter.count(source)


def test_no_cut_where_a_space_follows_whitespace_or_starts_the_text() -> None:
    assert first_cut_inside(" a") is None
    assert first_cut_inside("-\n  \n") is None  # spaces after a newline
    assert first_cut_inside("a\u00a0 b") is None  # ... or after a Unicode space
    assert first_cut_inside("a  b") == 1
    assert last_cut_inside("a  b") == 1
    assert last_cut_inside("x. \t  y") == 2
    assert first_cut_inside("don't stop") == 5


@pytest.mark.parametrize("encoding", ENCODINGS)
def test_a_long_text_of_copies_is_encoded_in_bounded_runs_and_counts_exactly(
    encoding: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # With a window of 64 characters, the runs between copies are encoded in many groups and
    # each long run in pieces, as a text of millions of characters would be.
    monkeypatch.setattr(tiktoken_counter, "STREAM_WINDOW_CHARS", 64)
    rng = random.Random(7)
    source = "".join(rng.choice(_PARTS) for _ in range(3000))
    counter = TiktokenCounter(encoding)
    starts = counter.token_starts(source)
    pieces: list[TextPiece] = []
    position = 0
    while position < len(source):
        end = min(len(source), position + rng.randint(1, 200))
        pieces.append(TextPiece(source[position:end], _byte_offset(source, position)))
        pieces.append(TextPiece(rng.choice(["", " ", "\n", "x y z " * 30, "\n\n  "])))
        position = end
    joined = "".join(piece.text for piece in pieces)
    assert counter.count_pieces(pieces, starts) == counter.count(joined)
