"""Counting a long text by its distinct words: each one encoded once, however often it comes.

Real text repeats itself. A log's lines share their words, a diff its identifiers, a JSON
response its keys, prose its vocabulary: in a megabyte, a few percent of the characters are
the distinct words, and the tokenizer spends most of its time finding again what it found
before. So the text is cut where no token can cross (before a space that follows a character
other than whitespace: `tiktoken_counter.first_cut_inside` says why the counts of the two sides
then add up, in every encoding offered), its pieces (a space and the word after it) are
counted with `collections.Counter`, and the distinct ones are encoded once, grouped by how
often they come: the total is the sum over the groups of the group's count times that often.
No per-word Python loop runs over the text, and the count is exact.

A text whose words barely repeat (random identifiers, a base64 blob) gains nothing and pays
for the cutting: `count_by_repeated_words` declines it from a sample of its first words, and
the caller encodes it whole.
"""

from __future__ import annotations

from collections import ChainMap, Counter
from collections.abc import Callable, Iterable
from itertools import accumulate, chain, islice
from operator import mul, sub

from cleveragents.adapters.tokens.utf8 import encodable, utf8_length

TokensUpTo = Callable[[str, Iterable[int]], list[int]]
"""For each of some byte offsets in a text, in order, how many of its tokens end at or before
it (one encode of the text)."""

MIN_CHARS = 1 << 16
"""Below this a text is encoded whole (the caller's test): cutting and grouping a short text
costs more than it saves (each group of equally frequent words is one more call)."""

_SAMPLE_WORDS = 4096
_SAMPLE_CHARS = 1 << 17
_MAX_SAMPLE_DISTINCT = 0.5
"""The share of a sample's characters in its distinct words above which a text is declined.
Splitting and grouping cost some 0.2-0.3 of an encode, and the distinct words are the costly
part of the text to encode (long identifiers, numbers, URLs: 1.3 to 2 times the average per
character), so past about half the text the count costs more than one encode. Prose, source
code, diffs and agent transcripts sit at 0.5-0.8 in a sample of a few thousand words; logs at
0.1-0.3 and API responses at 0.45 or less (their keys repeat), and the sample overstates the
share of a long text (its vocabulary grows slower than it does)."""

_MAX_REMEMBERED = 1 << 20
"""The most words one compression remembers the counts of (some 100 MB at most)."""

_MARK = "\x1f"
"""Stands for a space that is no cut (one after whitespace) while the text is split at
spaces; a text that holds it is declined (the mark must be told from the text)."""

_ASCII_BLANKS = "\t\n\x0b\x0c\r\x1c\x1d\x1e"
# Every other character Python's `isspace` accepts (the tokenizers' `\s`, Unicode's
# White_Space, is within it), none past U+3000: a space after one of them is no cut either.
_WIDE_BLANKS = tuple(chr(code) for code in range(0x80, 0x3001) if chr(code).isspace())


def count_by_repeated_words(
    pieces: Iterable[str],
    count: Callable[[str], int],
    remembered: dict[str, int] | None = None,
    word_counts: Callable[[list[str]], list[int]] | None = None,
    *,
    may_decline: bool = True,
) -> int | None:
    """The summed count of `pieces` (a long text in pieces whose counts add up, split one at
    a time, so that only one piece's words are held at once), `count` (an exact count of one
    text) called once per group of distinct words that come equally often, and once per
    distinct first and last word of a piece; None when a piece holds the mark, or the first
    words show that they repeat too little to gain (the caller counts them whole).

    With `remembered` (the count of each word, with the space before it, that earlier counts
    found) and `word_counts`, a word found there is not encoded again, and the words not found
    are counted each by `word_counts` (all of them in one encode) and remembered; a text that
    may not decline is split however little its words repeat (the caller knows that it
    shares words with what was remembered)."""
    firsts: Counter[str] = Counter()
    lasts: Counter[str] = Counter()
    inner: Counter[str] = Counter()
    for number, piece in enumerate(pieces):
        if number == 0 and may_decline and _barely_repeats(piece):
            return None
        if remembered is not None and not encodable(piece):
            return None  # a lone surrogate: the tokenizer mends it, so byte lengths differ
        words = _words_between_cuts(piece)
        if words is None:
            return None
        # A piece's first word has no space before it, and its last may end in whitespace (a
        # cut before a following space would not hold): those are counted alone, once each
        # however often they come. Every word between them ends in a character other than
        # whitespace, so any of them can follow any other at a cut.
        firsts[words[0]] += 1
        if len(words) > 1:
            lasts[words[-1]] += 1
            inner.update(islice(words, 1, len(words) - 1))
    total = sum(times * count(_unmarked(word)) for word, times in firsts.items())
    total += sum(times * count(_unmarked(" " + word)) for word, times in lasts.items())
    if remembered is not None and word_counts is not None:
        return total + _count_remembering(inner, remembered, word_counts)
    by_times: dict[int, list[str]] = {}
    for word, times in inner.items():
        same = by_times.get(times)
        if same is None:
            by_times[times] = [word]
        else:
            same.append(word)
    for times, same in by_times.items():
        total += times * count(_unmarked(" " + " ".join(same)))
    return total


def _count_remembering(
    inner: Counter[str],
    remembered: dict[str, int],
    word_counts: Callable[[list[str]], list[int]],
) -> int:
    """The count of the `inner` words (each with the space before it) times how often each
    comes: those `remembered` looked up, the others counted together and remembered (up to
    `_MAX_REMEMBERED` words: past it they are counted, not kept)."""
    new = [word for word in inner if word not in remembered]
    if new:
        counted = dict(zip(new, word_counts(new), strict=True))
        if len(remembered) < _MAX_REMEMBERED:
            remembered.update(counted)
        lookup = ChainMap(remembered, counted).__getitem__
    else:
        lookup = remembered.__getitem__
    return sum(map(mul, map(lookup, inner), inner.values()))


def counts_of_words(words: list[str], tokens_up_to: TokensUpTo) -> list[int]:
    """The count of each of `words` (none empty nor ending in whitespace) with a space before
    it, from one encode of them all joined (`tokens_up_to` gives how many of its tokens end
    at or before each word's end): no token crosses a cut, so a word's tokens end exactly
    where it does."""
    joined = _unmarked(" " + " ".join(words))
    sizes: Iterable[int] = (
        map(len, words) if joined.isascii() else (utf8_length(word) for word in words)
    )
    word_ends = accumulate(sizes, lambda end, size: end + 1 + size, initial=0)
    next(word_ends)  # the start of the first word
    stops = tokens_up_to(joined, word_ends)
    return list(map(sub, stops, chain((0,), stops)))


def _barely_repeats(text: str) -> bool:
    """Whether the distinct ones among the first `_SAMPLE_WORDS` words of `text` (of its first
    eighth, `_SAMPLE_CHARS` at most, read alone: the whole of a text declined is never split,
    and the sample costs a few percent of an encode) hold more than `_MAX_SAMPLE_DISTINCT` of
    their characters. Fewer than a quarter of that
    many words in so many characters (one long minified line) say nothing either way: such a
    text is split, in a few long words."""
    sample = _words_between_cuts(text[: min(len(text) // 8, _SAMPLE_CHARS)])
    if sample is None:
        return True  # it holds the mark
    sample = sample[:_SAMPLE_WORDS]
    if len(sample) < _SAMPLE_WORDS // 4:
        return False
    distinct = sum(map(len, set(sample)))
    return distinct > _MAX_SAMPLE_DISTINCT * sum(map(len, sample))


def _words_between_cuts(text: str) -> list[str] | None:
    """`text` split at its cuts (each space that follows a character other than whitespace),
    the spaces dropped: every other space is first replaced by the mark, with `str.replace`
    (in C), so that `str.split` cuts at the right ones only."""
    if _MARK in text:
        return None
    marked = text
    if "  " in marked:
        # Left to right, in pairs: the second space of each pair is marked, so no two spaces
        # stand together after it, and a space left after a marked one is marked last.
        marked = marked.replace("  ", " " + _MARK)
    for blank in _ASCII_BLANKS:
        if blank + " " in marked:
            marked = marked.replace(blank + " ", blank + _MARK)
    if not text.isascii():
        for blank in _WIDE_BLANKS:
            if blank + " " in marked:
                marked = marked.replace(blank + " ", blank + _MARK)
    if _MARK + " " in marked:
        marked = marked.replace(_MARK + " ", _MARK + _MARK)
    return marked.split(" ")


def _unmarked(text: str) -> str:
    return text.replace(_MARK, " ") if _MARK in text else text
