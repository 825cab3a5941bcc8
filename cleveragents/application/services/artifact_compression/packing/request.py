"""Smart mode's packer, its input: the candidate lines with their ranks, costs and short forms,
and the helpers that compute the costs and the runs of repeated messages."""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import accumulate, islice, repeat
from operator import sub
from typing import NamedTuple

from cleveragents.application.services.artifact_compression.kinds.kind_compressor import (
    ShortForm,
)


class Line(NamedTuple):
    """A candidate line of a sparse selection (a streamed log): its 0-based position in the
    artifact, its text, its rank and its message template (-1: none)."""

    position: int
    text: str
    priority: int
    template: int = -1


@dataclass(frozen=True, slots=True)
class PackRequest:
    """What to pack: the candidate lines (positions ascending, a subset when streaming), their
    texts, ranks, costs (tokens of the line and its newline) and short forms. `run_ends[p]` is
    the last line of the run of lines after `p` that repeat its message (see `repeat_runs`).
    `heads_only` lines are known only by their short form (a streamed line too long to hold).
    `offsets` (each line's UTF-8 byte offset in the artifact) and `source_starts` (the
    artifact's token starts), when known, let the packed text be counted from the starts where
    it copies the artifact's lines."""

    positions: Sequence[int]
    texts: Mapping[int, str] | Sequence[str]
    ranks: Mapping[int, int] | Sequence[int]
    costs: Mapping[int, int] | Sequence[int]
    total_lines: int
    short_forms: Mapping[int, ShortForm]
    run_ends: Mapping[int, int] = field(default_factory=dict)
    heads_only: frozenset[int] = frozenset()
    offsets: Sequence[int] | None = None
    source_starts: Sequence[int] | None = None


@dataclass(frozen=True, slots=True)
class Packed:
    content: str
    tokens: int  # the real count of `content`


def repeat_runs(templates: Sequence[int]) -> dict[int, int]:
    """For each line starting a run of lines with its template (-1: none), the run's last
    line: a dropped stretch inside it repeats the kept line above it."""
    ends: dict[int, int] = {}
    start = 0
    for index in range(1, len(templates) + 1):
        if index == len(templates) or templates[index] != templates[start]:
            if index - 1 > start and templates[start] >= 0:
                end = index - 1
                for position in range(start, end):
                    ends[position] = end
            start = index
    return ends


def line_offsets(lines: Sequence[str]) -> list[int]:
    """The UTF-8 byte offset at which each of `lines` starts in the lines joined by "\n" (the
    loops run in C)."""
    lengths: Iterable[int]
    if all(map(str.isascii, lines)):
        lengths = map(len, lines)  # a character is a byte
    else:
        lengths = (len(line.encode("utf-8", errors="surrogatepass")) for line in lines)
    offsets = list(accumulate(map(_PLUS_ONE, lengths), initial=0))
    offsets.pop()  # where a line after the last would start
    return offsets


def line_costs_from_starts(offsets: Sequence[int], starts: Sequence[int]) -> list[int]:
    """Tokens per line: the tokens that start in it or its newline (at least 1, for the
    newline), from where the lines start (`line_offsets`) and where the tokens of the lines
    joined by "\n" start, both in bytes. The loops run in C (`map`, `list.index`): this is
    done once for every line of the artifact."""
    if not offsets:
        return []
    before = list(map(bisect_left, repeat(starts), offsets))  # tokens before each line
    before[0] = 0
    before.append(len(starts))
    costs = list(map(sub, islice(before, 1, None), before))
    # A line no token starts in (inside a run of blank lines the tokenizer joined) counts 1.
    empty = 0
    for _ in range(costs.count(0)):
        empty = costs.index(0, empty)
        costs[empty] = 1
    return costs


_PLUS_ONE = (1).__add__
