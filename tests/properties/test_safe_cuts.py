"""The tokenizer's safe cuts on generated text: wherever the rule finds one, the counts of the two
sides add up to the count of the whole, also when the text around the cut is a copy of it placed
between other text (which is how copied pieces are counted from their source's token starts)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cleveragents.adapters.tokens.tiktoken_counter import (
    load_encoding,
    next_safe_split_point,
    safe_split_point,
)

# What the pre-tokenizers treat differently: letters (cased, uncased, marks), digits, runs of
# spaces and tabs, every kind of line break and Unicode space, slashes (o200k_base's punctuation
# takes them after newlines), contractions, punctuation, and text that looks like a special token.
_PARTS = [
    "a", "Z", "word", "7", "123456", " ", "  ", "\t", "\n", "\n\n", "\r", "\r\n", "/", "//",
    ")", ":", "'s", "'T", "é", "\u0301", "文字", "🚀", "\u00a0", "\u2028", "\x0b", "\x0c",
    "\x1c", "\x85", "\u3000", "<|endoftext|>", "-", "+", "{", "}", "#",
]  # fmt: skip
_texts = st.lists(st.sampled_from(_PARTS), max_size=40).map("".join)
ENCODINGS = ("cl100k_base", "o200k_base")


def _count(encoding: str, text: str) -> int:
    return len(load_encoding(encoding).encode(text, disallowed_special=()))


def _cuts(text: str) -> set[int]:
    found = set()
    for start in range(len(text) + 1):
        for cut in (next_safe_split_point(text, start), safe_split_point(text, start)):
            if cut is not None:
                assert start <= cut <= len(text)
                found.add(cut)
    return found


@pytest.mark.parametrize("encoding", ENCODINGS)
@given(text=_texts)
def test_the_counts_of_the_two_sides_of_a_safe_cut_add_up(encoding: str, text: str) -> None:
    whole = _count(encoding, text)
    for cut in _cuts(text):
        assert _count(encoding, text[:cut]) + _count(encoding, text[cut:]) == whole, cut


@pytest.mark.parametrize("encoding", ENCODINGS)
@given(before=_texts, piece=_texts, after=_texts)
def test_a_safe_cut_of_a_piece_stays_safe_between_other_text(
    encoding: str, before: str, piece: str, after: str
) -> None:
    joined = before + piece + after
    whole = _count(encoding, joined)
    for cut in _cuts(piece):
        if 0 < cut < len(piece):  # an edge of the piece is not inside it
            at = len(before) + cut
            assert _count(encoding, joined[:at]) + _count(encoding, joined[at:]) == whole, cut


def test_the_rule_finds_cuts_between_indented_lines_and_after_punctuation() -> None:
    # What the wider rule adds: code lines that end in punctuation and start indented.
    assert next_safe_split_point("def f(x):\n    return x\n", 1) == 10
    assert safe_split_point("}\n  {\n") == 2
    assert next_safe_split_point("a)\n/b", 1) is None  # o200k_base's ")\n/" is one pre-token
    assert next_safe_split_point(")\n  \n  x", 1) == 5  # not after the first newline
