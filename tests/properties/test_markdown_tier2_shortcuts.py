"""Markdown Tier 2's shortcuts for speed against the plain forms they stand for: each must give
the same answer on any text (Tier 2's output must not change)."""

from __future__ import annotations

from hypothesis import example, given, settings
from hypothesis import strategies as st

from cleveragents.application.services.artifact_compression.kinds.markdown import (
    compressor,
    sentences,
)
from cleveragents.application.services.artifact_compression.kinds.markdown.blocks import (
    looks_like_block,
)

# Sentence ends inside and outside code (runs of every length, unclosed), abbreviations,
# initials, brackets and quotes around an end, blanks of every kind.
SENTENCE_TOKENS = [
    "`", "``", "```", "Word", "word", "A", "x", ". ", "! ", "? ", "?! ", "...", ".", " ",
    "\t", "e.g. ", "etc. ", "Dr. ", "J. ", "5. ", "\"", ")", "]", "(", "'", "é", "\xa0",
]  # fmt: skip
SENTENCE_TEXT = st.lists(st.sampled_from(SENTENCE_TOKENS), max_size=40).map("".join)

# What starts a block, or seems to: markers, fences, rules, tables, headings, code.
LINE_TOKENS = [
    "`", "``", "```", "~~~", "#", "##", "-", "*", "+", "_", "=", ">", "<div>", "<", "|", "[x]:",
    "[x]", "1.", "1)", " ", "  ", "    ", "\t", "a", "Word", "é", "x y", ":", "---", "===",
]  # fmt: skip
LINE = st.lists(st.sampled_from(LINE_TOKENS), min_size=1, max_size=8).map("".join)


def spans_by_next_end(text: str) -> list[tuple[int, int]]:
    """`sentence_spans(text)` as `_choose` walks it, with `next_end`."""
    spans = []
    view = sentences.ends_view(text)
    position = 0
    while (found := sentences.next_end(text, view, position)) is not None:
        spans.append((position, found[0]))
        position = found[1]
    if text[position:].strip():
        spans.append((position, len(text)))
    return spans


@settings(max_examples=3000)
@given(SENTENCE_TEXT)
@example("Run `a. B` now. Then")  # an end inside code, one after it
@example("Run ``a ` b. C`` x. Y")  # a shorter run inside longer code
@example("Run `a. B")  # unclosed: code to the end
@example("See J. Smith. He left")  # an initial
@example("Why? `a. B` c! D `e. F")  # ! and ?, code, then unclosed code
@example("x `a` b. `c` d? E")  # an even number of backticks before an end
def test_sentences_walked_with_next_end_are_the_splitters(text: str) -> None:
    assert spans_by_next_end(text) == sentences.sentence_spans(text)


@settings(max_examples=3000)
@given(LINE)
@example("`code` and more")
@example("```fence")
@example("`x` | y")
def test_a_sentence_reads_as_a_block_exactly_when_looks_like_block_says(line: str) -> None:
    assert compressor._reads_as_block(line) == looks_like_block(line)
