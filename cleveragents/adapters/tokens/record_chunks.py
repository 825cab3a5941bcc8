"""Counting JSON written compact by its records, for the counts of one compression to share.

A compact JSON document is one line: its objects stand side by side (`...},{...`), and its
spaces, if any, are inside strings, so cutting it at spaces (`repeated_words`) gives long
pieces that mix keys and values and barely repeat. But a compression's candidates keep most of
its records as they are: cut into records, the raw text's records are counted once, with one
encode of the raw text, and a candidate's are looked up; only the records it changed are
encoded.

A record ends before the ASCII punctuation that closes it and opens the next (`"},{"`, or
`},{` after a number): the counter's punctuation cut (`tiktoken_counter.first_cut_inside`), a
cut no token crosses, in any text the record is copied into. Every record but a text's first
ends in an ASCII letter or digit, and every record but its last starts with that punctuation,
so the records between (the inner ones) can be joined in any order and counted together, each
count found by bisecting the running sum of the tokens' lengths.
"""

from __future__ import annotations

from collections import ChainMap, Counter
from collections.abc import Callable, Iterable, Iterator
from itertools import accumulate, chain
from operator import mul, sub

from cleveragents.adapters.tokens.repeated_words import TokensUpTo
from cleveragents.adapters.tokens.utf8 import utf8_length

MIN_RECORDS = 64
"""Fewer places where one object follows another than this: not an array of records."""

SEPARATOR = "},{"

_PUNCTUATION = '!"#$%&()*+,-./:;<=>?@[\\]^_`{|}~'
"""ASCII punctuation but the apostrophe: what may follow a cut of the punctuation rule."""
_LETTERS_AND_DIGITS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")

_MAX_REMEMBERED_CHARS = 1 << 25
"""The most characters of records one compression remembers, each record weighed as its
characters plus `_RECORD_WEIGHT` (some 64 MB at most, however small the records)."""
_RECORD_WEIGHT = 128
"""What a remembered record costs beyond its characters, in characters: the string's header
and its place in the dictionary."""
_TALLY = ""
"""The key under which the remembered records' characters are tallied: no record is empty."""
_WINDOW_CHARS = 1 << 20
"""Records are encoded together up to about this many characters at a time (the lengths of
their tokens are held while they are)."""


def records(text: str) -> list[str] | None:
    """`text` cut into records at the cuts before the punctuation around each `},{` (None when
    that makes fewer than `MIN_RECORDS`). A place where the character before that punctuation
    is no ASCII letter or digit (a string that ends in a space, an empty array) is no cut:
    the two records there stay one."""
    if text.count(SEPARATOR) < MIN_RECORDS:
        return None
    parts = text.split(SEPARATOR)
    found: list[str] = []
    pending: list[str] = []  # the text since the last cut (joined once: no quadratic copying)
    for part in parts[:-1]:
        record = part.rstrip(_PUNCTUATION)
        if record and record[-1] in _LETTERS_AND_DIGITS:
            pending.append(record)
            found.append("".join(pending))
            pending = [part[len(record) :], SEPARATOR]
        else:
            pending += (part, SEPARATOR)
    pending.append(parts[-1])
    found.append("".join(pending))
    return found if len(found) >= MIN_RECORDS else None


def count_by_records(
    text: str,
    remembered: dict[str, int],
    tokens_up_to: TokensUpTo,
    count: Callable[[str], int],
) -> int | None:
    """The count of `text` by its records: the first and the last counted alone (`count`),
    the inner ones looked up in `remembered` (each record's count, from earlier counts of the
    same compression) or, when not found there, counted together (`tokens_up_to` the end of
    each in their join, one encode per window) and remembered up to `_MAX_REMEMBERED_CHARS`.
    None when `text` is no array of records (the caller counts it otherwise)."""
    found = records(text)
    if found is None:
        return None
    total = count(found[0]) + count(found[-1])
    inner = Counter(found[1:-1])
    new = [record for record in inner if record not in remembered]
    lookup: Callable[[str], int] = remembered.__getitem__
    if new:
        counted = dict(zip(new, _counts_of_records(new, tokens_up_to), strict=True))
        _remember(remembered, counted)
        lookup = ChainMap(remembered, counted).__getitem__
    looked_up: int = sum(map(mul, map(lookup, inner), inner.values()))
    return total + looked_up


def _remember(remembered: dict[str, int], counted: dict[str, int]) -> None:
    tally = remembered.get(_TALLY, 0)
    size = sum(map(len, counted)) + _RECORD_WEIGHT * len(counted)
    if tally + size <= _MAX_REMEMBERED_CHARS:
        remembered.update(counted)
        remembered[_TALLY] = tally + size


def _counts_of_records(new: list[str], tokens_up_to: TokensUpTo) -> list[int]:
    """The count of each of the inner records `new`, from one encode of each window of them
    joined: no token crosses from one record into the next."""
    counts: list[int] = []
    for window in _windows(new):
        joined = "".join(window)
        sizes: Iterable[int] = map(len, window) if joined.isascii() else map(utf8_length, window)
        stops = tokens_up_to(joined, accumulate(sizes))
        counts += map(sub, stops, chain((0,), stops))
    return counts


def _windows(items: list[str]) -> Iterator[list[str]]:
    """`items` in consecutive runs of about `_WINDOW_CHARS` characters."""
    window: list[str] = []
    size = 0
    for item in items:
        window.append(item)
        size += len(item)
        if size >= _WINDOW_CHARS:
            yield window
            window, size = [], 0
    if window:
        yield window
