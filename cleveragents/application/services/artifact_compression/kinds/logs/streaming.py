"""Smart mode for logs too large to hold: one pass, memory bounded by the budget.

Every line is ranked as `LogCompressor.line_plan` ranks it (`LineRanker`, fed in batches), and the
lines of each rank go to a buffer that keeps the first and the last of them up to the budget:
the packer takes a rank's lines from both ends inwards and never more than the budget, so the
middle of a rank is never needed. What only the end of the log tells is kept aside and ranked
at the end: the last error (rank 0), the last line of each trouble word (`trouble`; the latest
of them rank 0, the others with the last repeats), the last occurrence of each error and warning
message (bounded like a buffer), and the last lines. Nothing else is held.

The candidates come back sparse, as the packer's `Line`s (position, text, rank, message
template), with how far the run of lines with each one's template reaches (`run_ends`), so the
packer can tell a dropped run of repeats from other dropped lines. A line too long to ever fit
whole (longer than the budget's worth of characters) is held as its head only (`heads_only`).
"""

from __future__ import annotations

from collections import OrderedDict, deque
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from itertools import islice
from operator import attrgetter

from cleveragents.application.services.artifact_compression.kinds.kind_compressor import ShortForm
from cleveragents.application.services.artifact_compression.kinds.logs.line_plan import (
    FIRST_ROUTINE,
    HEAD_LINES,
    LAST_ERROR,
    LAST_REPEAT,
    LONG_LINE_CHARS,
    LONG_LINE_DEMOTION,
    TAIL_LINES,
    LineRanker,
    RankedLine,
    short_form,
)
from cleveragents.application.services.artifact_compression.kinds.logs.severity import (
    LogLine,
    describe,
)
from cleveragents.application.services.artifact_compression.kinds.logs.trouble import (
    last_trouble_lines,
)
from cleveragents.application.services.artifact_compression.packing.request import Line
from cleveragents.application.services.artifact_compression.task_terms import TaskTerms

BATCH_LINES = 4096
# Characters per token the buffers allow for: more than any real text has on average, so a
# buffer of `budget` tokens' worth of characters holds at least `budget` tokens of lines.
CHARS_PER_TOKEN = 8

__all__ = [
    "BATCH_LINES",
    "CHARS_PER_TOKEN",
    "LogCandidates",
    "collect_log_candidates",
]


@dataclass(frozen=True, slots=True)
class LogCandidates:
    """What a streaming pass keeps of a log.

    `lines`: the candidates in position order, as the packer takes them: 0-based position, text,
    rank (lower is kept first) and message template (equal for repeats of one message).
    `total_lines`: the log's line count (positions between candidates are dropped lines).
    `short_forms`: by position, the head of a long candidate, at a better rank than the whole.
    `run_ends`: by position, the last position of the run of consecutive lines that share the
    candidate's template (its own position when the next line has another): a dropped run up
    to there repeats the message of the candidate before it.
    `heads_only`: positions whose text is only the head of a line too long to ever fit whole
    (`short_form`); the rest of such a line is omitted like a dropped run.
    """

    lines: list[Line]
    total_lines: int
    short_forms: dict[int, ShortForm] = field(default_factory=dict)
    run_ends: dict[int, int] = field(default_factory=dict)
    heads_only: frozenset[int] = frozenset()


@dataclass(slots=True)
class _Run:
    """A run of consecutive lines with one template; `end` grows while it lasts."""

    end: int


@dataclass(slots=True)
class _Held:
    """A candidate while the pass goes on (its run's end is not known yet)."""

    position: int
    text: str
    rank: int
    template: int
    run: _Run
    whole: bool
    short: ShortForm | None

    @property
    def chars(self) -> int:
        return len(self.text)


@dataclass
class _FirstAndLast:
    """The first lines up to `limit` characters and the last lines up to `limit` characters."""

    limit: int
    first: list[_Held] = field(default_factory=list)
    first_chars: int = 0
    last: deque[_Held] = field(default_factory=deque)
    last_chars: int = 0

    def add(self, held: _Held) -> None:
        if not self.last and self.first_chars + held.chars <= self.limit:
            self.first.append(held)
            self.first_chars += held.chars
            return
        self.last.append(held)
        self.last_chars += held.chars
        while self.last and self.last_chars > self.limit:
            self.last_chars -= self.last.popleft().chars

    def held(self) -> Iterator[_Held]:
        yield from self.first
        yield from self.last


@dataclass
class _LastOfEach:
    """The latest line of each message, up to `limit` characters (the messages whose latest
    line is oldest go first when it is full)."""

    limit: int
    latest: OrderedDict[int, _Held] = field(default_factory=OrderedDict)
    chars: int = 0

    def add(self, held: _Held) -> None:
        previous = self.latest.pop(held.template, None)
        if previous is not None:
            self.chars -= previous.chars
        self.latest[held.template] = held
        self.chars += held.chars
        while self.chars > self.limit and self.latest:
            _, dropped = self.latest.popitem(last=False)
            self.chars -= dropped.chars


@dataclass
class _Collector:
    limit: int  # characters per buffer: the budget's worth
    buffers: dict[int, _FirstAndLast] = field(default_factory=dict)
    head: list[_Held] = field(default_factory=list)
    tail: deque[_Held] = field(default_factory=lambda: deque(maxlen=TAIL_LINES))
    last_error_statement: _Held | None = None
    last_levelled_error: _Held | None = None
    last_trouble: dict[str, _Held] = field(default_factory=dict)  # by trouble word
    last_of_each: _LastOfEach | None = None
    run: _Run | None = None
    run_template: int = -1

    def add(
        self, position: int, line: LogLine, ranked: RankedLine, trouble: Sequence[str] = ()
    ) -> None:
        if self.run is None or ranked.message != self.run_template:
            self.run = _Run(position)
            self.run_template = ranked.message
        self.run.end = position
        held = self._held(position, line.text, ranked)
        if position < HEAD_LINES:
            self.head.append(self._ranked(held, min(ranked.rank, FIRST_ROUTINE)))
        else:
            self.buffers.setdefault(held.rank, _FirstAndLast(self.limit)).add(held)
        self.tail.append(held)
        if ranked.error_statement:
            self.last_error_statement = held
        if ranked.levelled_error:
            self.last_levelled_error = held
        for word in trouble:
            self.last_trouble[word] = held
        if ranked.repeated_problem:
            if self.last_of_each is None:
                self.last_of_each = _LastOfEach(self.limit)
            self.last_of_each.add(held)

    def _held(self, position: int, text: str, ranked: RankedLine) -> _Held:
        assert self.run is not None
        rank = ranked.rank
        if len(text) <= LONG_LINE_CHARS:
            return _Held(position, text, rank, ranked.message, self.run, True, None)
        head = short_form(text)
        if len(text) > self.limit:  # it can never fit whole: its head is all that is kept
            return _Held(position, head, rank, ranked.message, self.run, False, None)
        short = ShortForm(head, rank)
        return _Held(
            position, text, rank + LONG_LINE_DEMOTION, ranked.message, self.run, True, short
        )

    @staticmethod
    def _ranked(held: _Held, rank: int) -> _Held:
        """`held` with its line ranked `rank` if that is better: a long line's head takes the
        rank, and the whole line stays `LONG_LINE_DEMOTION` ranks behind it."""
        if held.short is None:
            if held.rank <= rank:
                return held
            return _Held(held.position, held.text, rank, held.template, held.run, held.whole, None)
        if held.short.priority <= rank:
            return held
        short = ShortForm(held.short.text, rank)
        return _Held(
            held.position,
            held.text,
            rank + LONG_LINE_DEMOTION,
            held.template,
            held.run,
            held.whole,
            short,
        )

    def candidates(self, total: int) -> LogCandidates:
        best: dict[int, _Held] = {}

        def offer(held: _Held) -> None:
            kept = best.get(held.position)
            if kept is None or _better(held, kept):
                best[held.position] = held

        for buffer in self.buffers.values():
            for held in buffer.held():
                offer(held)
        for held in self.head:
            offer(held)
        for held in self.tail:
            offer(self._ranked(held, FIRST_ROUTINE))
        if self.last_of_each is not None:
            for held in self.last_of_each.latest.values():
                offer(self._ranked(held, LAST_REPEAT))
        for held in self.last_trouble.values():
            offer(self._ranked(held, LAST_REPEAT))
        latest = max(self.last_trouble.values(), key=attrgetter("position"), default=None)
        for last in (self.last_error_statement, self.last_levelled_error, latest):
            if last is not None:
                offer(self._ranked(last, LAST_ERROR))
        lines: list[Line] = []
        short_forms: dict[int, ShortForm] = {}
        run_ends: dict[int, int] = {}
        heads_only: set[int] = set()
        for position in sorted(best):
            held = best[position]
            lines.append(Line(position, held.text, held.rank, held.template))
            run_ends[position] = held.run.end
            if held.short is not None:
                short_forms[position] = held.short
            if not held.whole:
                heads_only.add(position)
        return LogCandidates(lines, total, short_forms, run_ends, frozenset(heads_only))


def _better(held: _Held, kept: _Held) -> bool:
    if held.rank != kept.rank:
        return held.rank < kept.rank
    held_short = held.short.priority if held.short else held.rank
    kept_short = kept.short.priority if kept.short else kept.rank
    return held_short < kept_short


def collect_log_candidates(
    raw_lines: Iterable[str], terms: TaskTerms, budget: int
) -> LogCandidates:
    """The lines of a log (read once, line endings included or not) that smart mode may keep in
    `budget` tokens, ranked like `LogCompressor.line_plan` ranks them, with memory bounded by
    the budget whatever the size of the log."""
    collector = _Collector(limit=max(budget, 1) * CHARS_PER_TOKEN)
    ranker = LineRanker(terms)
    described = describe(raw.rstrip("\r\n") for raw in raw_lines)
    total = 0
    while batch := list(islice(described, BATCH_LINES)):
        trouble: dict[int, list[str]] = {}
        for word, offset in last_trouble_lines([line.text for line in batch]).items():
            trouble.setdefault(offset, []).append(word)
        for offset, (line, ranked) in enumerate(zip(batch, ranker.rank_batch(batch), strict=True)):
            collector.add(total + offset, line, ranked, trouble.get(offset, ()))
        total += len(batch)
    return collector.candidates(total)
