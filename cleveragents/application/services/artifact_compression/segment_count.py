"""The exact count of a packed text without encoding most of it again.

Packing keeps lines of a text whose tokens were already located (one encode gave the byte
offset where each token starts). A cut next to a newline is *safe* when the character on its
other side is a letter or a digit (the rule behind `count_stream`: no pre-token of cl100k_base
or o200k_base crosses it), so the tokens between two safe cuts are the same wherever the text
around them comes from. A run of kept lines is therefore counted by reading the located tokens
between its first and last safe cut; only the rest (gap markers, and the edges of runs up to
their first safe cut) is encoded. The sum is the exact count of the whole.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import accumulate

from cleveragents.application.ports.token_counter import TokenCounter


@dataclass(frozen=True, slots=True)
class LineSource:
    """Lines as they were encoded, joined by (and ending with) a newline, and where the tokens
    of that encode start (byte offsets)."""

    texts: Sequence[str]
    token_starts: Sequence[int]
    line_starts: list[int]  # byte offset of each line, and one past the last newline

    @classmethod
    def of(cls, texts: Sequence[str], token_starts: Sequence[int]) -> LineSource:
        sizes = (len(text.encode("utf-8", errors="surrogatepass")) + 1 for text in texts)
        return cls(texts, token_starts, [0, *accumulate(sizes)])

    def tokens_between(self, start: int, end: int) -> int:
        return bisect_left(self.token_starts, end) - bisect_left(self.token_starts, start)


def count_packed(
    content: str,
    layout: Sequence[tuple[int, int]],
    source: LineSource,
    counter: TokenCounter,
) -> int:
    """The exact token count of `content`, in which the source's line `position` starts at
    character `offset` for each `(position, offset)` of `layout` (in order), each followed by a
    newline."""
    spans = _countable_spans(layout, source)
    total = 0
    previous = 0
    for start, end, tokens in spans:
        if start > previous:
            total += counter.count(content[previous:start])
        total += tokens
        previous = end
    if previous < len(content):
        total += counter.count(content[previous:])
    return total


def _countable_spans(
    layout: Sequence[tuple[int, int]], source: LineSource
) -> list[tuple[int, int, int]]:
    """(start, end, tokens) in `content` characters for each run of consecutive source lines,
    between its first and last safe cut."""
    spans: list[tuple[int, int, int]] = []
    index = 0
    while index < len(layout):
        last = index
        while last + 1 < len(layout) and layout[last + 1][0] == layout[last][0] + 1:
            last += 1
        cuts: list[tuple[int, int]] = []  # (content character, source byte)
        for position, offset in layout[index : last + 1]:
            text = source.texts[position]
            if not text:
                continue
            if text[0].isalnum():  # a cut just after the newline before this line
                cuts.append((offset, source.line_starts[position]))
            if text[-1].isalnum():  # a cut just before the newline after it
                cuts.append((offset + len(text), source.line_starts[position + 1] - 1))
        if len(cuts) >= 2 and cuts[-1][0] > cuts[0][0]:
            (first, first_byte), (end, end_byte) = cuts[0], cuts[-1]
            spans.append((first, end, source.tokens_between(first_byte, end_byte)))
        index = last + 1
    return spans


def safe_cut_near(text: str, index: int) -> int | None:
    """A safe cut of `text` at or before `index` (and after its start), found by looking back
    from `index` for a newline with a letter or digit on one side; None when there is none."""
    position = min(index, len(text) - 1)
    while (newline := text.rfind("\n", 0, position)) > 0:
        if text[newline + 1].isalnum():
            return newline + 1
        if text[newline - 1].isalnum():
            return newline
        position = newline
    return None
