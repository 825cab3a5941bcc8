"""JSON artifacts, smart mode's fit: the richest level of detail whose rendering fits the budget,
found by size in characters and confirmed by exact counts (`Fitter`, `_LayoutSearch`)."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from functools import partial
from typing import NamedTuple

from cleveragents.application.ports.token_counter import TokenCounter
from cleveragents.application.services.artifact_compression.kinds.json.detail import Detail
from cleveragents.application.services.artifact_compression.kinds.json.ladder import (
    ENOUGH,
    SCHEMA_LOST_RANK,
    STRING_FLOOR,
    Choice,
    Family,
    ladder,
    richest,
)
from cleveragents.application.services.artifact_compression.kinds.json.layered import (
    fill_with_layout,
)
from cleveragents.application.services.artifact_compression.kinds.json.layout_sizes import (
    pretty_extent,
)
from cleveragents.application.services.artifact_compression.kinds.json.line_maps import (
    LineMap,
    Positions,
    UsualLayout,
    structural_line_map,
)
from cleveragents.application.services.artifact_compression.kinds.json.member_sizes import (
    MemberTables,
)
from cleveragents.application.services.artifact_compression.kinds.json.positions import (
    parse_with_positions,
)
from cleveragents.application.services.artifact_compression.kinds.json.pruner import Pruner
from cleveragents.application.services.artifact_compression.kinds.json.survey import Survey
from cleveragents.application.services.artifact_compression.kinds.json.token_ratios import (
    LayoutRatios,
    sample_ratio,
)
from cleveragents.application.services.artifact_compression.kinds.json.writing import (
    ELLIPSIS,
    items_marker,
    keys_marker,
    render,
)
from cleveragents.application.services.artifact_compression.kinds.kind_compressor import (
    FittedText,
    Handles,
)
from cleveragents.application.services.artifact_compression.task_terms import TaskTerms

_AIM = 0.96
"""A candidate is chosen so that its estimated count is this share of the budget."""
_GOOD_ENOUGH = 0.9
"""A candidate that fits and uses at least this share of the budget is the answer."""
_ENOUGH = 0.85
"""The least share of the budget a result should use (when the document is larger)."""
_SAFE = 0.985
"""A sampled estimate above this share of the budget is not worth an exact count."""
_SAMPLE_FROM = 1 << 17
"""Candidates longer than this (characters) are estimated from samples before being counted."""
_COMPACT_RATIO_FLOOR = 0.75
"""A compact rendering has at least this share of the pretty one's tokens per character
(indentation runs are cheap, but so are the short lines of small values they start)."""
_SURELY_ROOMY = 0.8
"""A whole compact document estimated at most at this share of the budget surely leaves room
to open containers (the estimate's error is a few percent)."""
_SURELY_OVER = 1.08
"""A level estimated at this share of the budget or more is not worth a count."""
_MAY_FIT = 1.1
"""A whole compact document estimated from the input's length at most at this share of the
budget is written before it is surveyed (the estimate misses by a few percent)."""
_WALKS = 6
"""A layout's search may cut containers holding this many times as many entries as the
document (`Survey.entries`: six walks of it): past that it settles for a level within
`ladder.ENOUGH` of the budget (`ladder.Patient`)."""
_WALKS_FLOOR = 1 << 16
"""A search may always walk this many entries: a small document is searched in full."""
_FAR_OVER = 1.5
"""A level this many times the budget at the ratio of the input's values made bare is over it:
that ratio is not that far off (a pretty API description's schema level: 1.56 times), and the
level is not written to be sampled."""
_DENSE_VALUES = 0.9
"""Bare values this much less dense than the input, or more: the first candidate is sized at
the ratio of samples cut at its own string limit."""
_CLAIMS_CHECKED = 16
_MAX_SAMPLINGS = 3
_MAX_COUNTS = 6
"""Exact counts of candidates per layout once one of them fits."""


class UnreadableDocumentError(ValueError):
    """A document `json.loads` accepts that cannot be surveyed or mapped to its lines."""


class _Document:
    """A parsed document; its survey and line map are made when first needed (a pretty
    document that fits whole once compact needs neither: the survey costs a third of an
    encode of the text). A valid document nested too deep to survey raises
    `RecursionError` then (its root's marker is the answer), one that cannot be mapped to
    its lines `UnreadableDocumentError`."""

    def __init__(self, text: str, value: object, terms: TaskTerms) -> None:
        self.text = text
        self.root = value
        self.terms = terms
        self._survey: Survey | None = None
        self._lines: LineMap | None = None

    @property
    def surveyed(self) -> bool:
        return self._survey is not None

    @property
    def survey(self) -> Survey:
        if self._survey is None:
            self._read()
        return self._survey  # type: ignore[return-value]

    @property
    def lines(self) -> LineMap:
        if self._lines is None:
            self._read()
        return self._lines  # type: ignore[return-value]

    def _read(self) -> None:
        try:
            survey = Survey(self.root, self.terms)
            lines = structural_line_map(self.text, survey)
            if lines is None:
                self.read_with_positions()
                return
        except (ValueError, IndexError) as error:
            raise UnreadableDocumentError(str(error)) from error
        self._survey, self._lines = survey, lines

    def read_with_positions(self) -> None:
        """Parse again, noting where each member is (the layout is not the usual one)."""
        try:
            value, spans = parse_with_positions(self.text)
            self._survey = Survey(value, self.terms)
        except (ValueError, IndexError) as error:
            raise UnreadableDocumentError(str(error)) from error
        self._lines = Positions(self.text, spans)


class _Fitted(NamedTuple):
    text: str
    tokens: int
    choice: Choice
    claims: list[tuple[int, str]]  # where its markers say omitted members start
    value: object  # the pruned document it renders


def read_document(text: str, terms: TaskTerms) -> _Document | None:
    """The parsed document (surveyed when first needed); None when it is not valid JSON."""
    try:
        value = json.loads(text)
    except (ValueError, RecursionError):
        return None
    return _Document(text, value, terms)


def root_marker(text: str, budget: int, counter: TokenCounter, handles: Handles) -> str | None:
    """For a document too deep to walk level by level: its root as one marker, with the lines
    it spans, or without them, when that fits."""
    try:
        root = json.loads(text)
    except (ValueError, RecursionError):
        return None
    if not isinstance(root, dict | list) or not root:
        return None
    body = text.strip()
    first = text.count("\n", 0, text.index(body[0])) + 1
    where = handles.lines(first, first + body.count("\n"))
    for marker in (where, ""):
        if isinstance(root, dict):
            value: object = {ELLIPSIS: keys_marker(len(root), marker)}
        else:
            value = [items_marker(len(root), marker)]
        out = render(value, pretty="\n" in body)
        if counter.count(out) <= budget:
            return out
    return None


class Fitter:
    """Finds the richest level of detail whose rendering fits the budget.

    Levels are compared by size in characters (exact, from the survey, no rendering), and
    characters turn into tokens by a ratio: first the input's, from samples written in the
    output's layout, then that of the last candidate counted; so usually only the answer is
    counted whole. A pretty document is first tried whole and compact, and compact output
    is also tried when pretty output must drop members or fits poorly."""

    def __init__(
        self,
        text: str,
        document: _Document,
        budget: int,
        counter: TokenCounter,
        handles: Handles,
    ) -> None:
        self._text = text
        self._document = document
        self._budget = budget
        self._counter = counter
        self._handles = handles
        self._pretty = "\n" in text.strip()
        self._ratios = LayoutRatios(counter, text, pretty=self._pretty)
        self._tables: MemberTables | None = None
        self._searches: dict[tuple[bool, int], _LayoutSearch] = {}

    def fit(self) -> FittedText | None:
        try:
            return self._fit()
        finally:
            # Each search refers back to this fitter: without the cycle, the survey and
            # everything measured are freed at once, not left to the cyclic collector
            # (paused during a compression: tens of thousands of objects a megabyte).
            self._searches.clear()

    def _fit(self) -> FittedText | None:
        pretty = self._pretty
        if pretty:
            whole = self._whole_compact()
            if whole is not None:
                return whole
        compact: _Fitted | None = None
        compact_searched = False
        if pretty and self._pretty_loses_key_paths():
            # The compact rendering will be searched anyway, and nearly always wins: first,
            # so that the pretty one is not counted for nothing when it surely cannot hold
            # what the compact one keeps.
            compact, compact_searched = self._search(pretty=False), True
            if (
                compact is not None
                and compact.choice.rank >= SCHEMA_LOST_RANK
                and self._pretty_surely_over(compact)
            ):
                # The pretty answer would keep less, so lose key paths too: this one wins.
                return self._compact_answer(compact)
        elif pretty and self._pretty_keeps_no_key_paths():
            # No pretty level that keeps every key path fits, and compact ones may: a
            # compact answer that keeps them all is then the answer (it is richer than any
            # pretty one, which loses some), and the pretty search, which would walk its way
            # down through the breadth-first levels, is spared.
            compact, compact_searched = self._search(pretty=False), True
            if compact is not None and compact.choice.rank < SCHEMA_LOST_RANK:
                return self._compact_answer(compact)
        found = self._search(pretty=pretty)
        if pretty and (
            found is None
            or found.choice.rank >= SCHEMA_LOST_RANK
            or found.tokens < _GOOD_ENOUGH * self._budget
        ):
            # Key paths may be lost, or the steps between levels are coarse, when
            # pretty-printed: compact may keep more.
            if not compact_searched:
                compact = self._search(pretty=False)
            if compact is not None and (found is None or self._better(compact, found)):
                return self._compact_answer(compact)
        return FittedText(found.text, found.tokens) if found is not None else None

    def _compact_answer(self, compact: _Fitted) -> FittedText:
        """The compact rendering; when it leaves room, with its outer containers opened."""
        if compact.tokens < _GOOD_ENOUGH * self._budget:
            # The room the compact rendering leaves opens its outer containers.
            filled = fill_with_layout(
                compact.value,
                compact.tokens,
                self._budget,
                self._counter.count,
                self._line_tokens(),
            )
            if filled is not None:
                return FittedText(*filled)
        return FittedText(compact.text, compact.tokens)

    def _pretty_loses_key_paths(self) -> bool:
        """Whether the pretty search surely leaves key paths out: the compact search's first
        candidate will (its richest level that keeps every key path is over; the compact
        search reuses that measurement), and the pretty rendering of every level is longer."""
        return not self._layout_search(self._lines, pretty=False).schema_fits()

    def _pretty_keeps_no_key_paths(self) -> bool:
        """Whether no pretty level that keeps every key path fits the budget: the poorest of
        them (every other one holds all it holds) is over it. Looked at only when its size
        is over at the input's pretty ratio and surely over (by `_SURELY_OVER`) at the ratio
        of the input with its values bare (the pretty search reuses those measurements): the
        level's strings are bare, and a document of long hashes or encoded blobs is far
        less dense once they are gone. It is then written, and its count estimated from
        samples of it, or counted when the estimate is within `_SURELY_OVER` of the
        budget; unless it is over by `_FAR_OVER` at that ratio (measured on, up to there)."""
        search = self._layout_search(self._lines, pretty=True)
        level = search.schema_level_over(self._budget)
        if level is None:
            return False
        bare = self._ratios.bare_strings()
        if search.fits_surely(level, self._budget * _SURELY_OVER, bare):
            # At the ratio of the input's windows with their values bare, it may well fit
            # (a document of hashes or blobs is dense only in its values): the pretty search
            # will tell, as it did before, and writing the level here would be wasted.
            return False
        if not search.fits_surely(level, self._budget * _FAR_OVER, bare):
            return True  # writing it to sample it costs more than measuring on
        # A pruner of its own: the search's would count this walk against its patience.
        value = (
            Pruner(self._survey, self._lines, self._handles, pretty=True, tables=self._tables)
            .build(level)
            .value
        )
        text = render(value, pretty=True)
        estimate = len(text) * sample_ratio(self._counter, text)
        if estimate > _SURELY_OVER * self._budget:
            return True
        if estimate * _SURELY_OVER < self._budget:
            return False
        return self._counter.count(text) > self._budget

    def _pretty_surely_over(self, compact: _Fitted) -> bool:
        """Whether the level the compact rendering keeps, written pretty, is surely over the
        budget: its compact count scaled by how much more the input's pretty samples cost
        than its compacted ones, for its size pretty (exact: the same value written pretty,
        which costs a fraction of measuring the level again in that layout). Then no pretty
        rendering keeps as much, and once key paths are lost the richer one is the answer."""
        pretty_chars = len(render(compact.value, pretty=True))
        scale = (self._ratios[True] * pretty_chars) / (self._ratios[False] * len(compact.text))
        return compact.tokens * scale > _SURELY_OVER * self._budget

    def _better(self, compact: _Fitted, pretty: _Fitted) -> bool:
        """Whether the compact rendering replaces the pretty one: it keeps more, and (unless
        the pretty one may lose key paths) does not leave more than the accepted share of the
        budget unused where the pretty one uses it."""
        if not compact.choice.richer_than(pretty.choice):
            return False
        if pretty.choice.rank >= SCHEMA_LOST_RANK:
            return True  # once key paths may be lost, showing more of them comes first
        floor = _ENOUGH * self._budget
        return compact.tokens >= floor or pretty.tokens < floor

    def _line_tokens(
        self, compact_tokens: int | None = None, compact_chars: int | None = None
    ) -> float:
        """Tokens a line of the pretty layout adds to the compact one (its newline, its
        indentation, the space after a key), on average over the input: from the estimates
        of both layouts' counts, or the whole document's compact count when known. The
        whole document's sizes are the survey's; when it is not made yet and the compact
        length (`compact_chars`) is known, the pretty one is found without it."""
        extent = None
        if compact_chars is not None and not self._document.surveyed:
            extent = pretty_extent(self._document.root)
        if extent is not None and compact_chars is not None:
            compact_length, newlines = compact_chars, extent.newlines
            pretty_length = compact_chars + extent.extra_chars
        else:
            facts = self._survey.of(self._survey.root)
            compact_length, pretty_length, newlines = facts.compact, facts.pretty, facts.newlines
        if not newlines:
            return 1.0
        pretty = pretty_length * self._ratios[True]
        compact = (
            compact_tokens if compact_tokens is not None else compact_length * self._ratios[False]
        )
        return max((pretty - compact) / newlines, 0.5)

    def _whole_compact(self) -> FittedText | None:
        """A pretty document that fits once its whitespace is gone, whole: rendered and
        counted only when the estimate from the compacted samples fits; with room left, its
        outer containers pretty (`fill_with_layout`)."""
        root = self._document.root
        if not isinstance(root, dict | list):
            return None
        text: str | None = None
        if self._document.surveyed or not self._may_fit_compact():
            root = self._survey.root  # parsed again when the layout is not the usual one
            compact = self._survey.of(root).compact
        else:
            # Likely to fit: written first (its length is the survey's figure), so that
            # the survey is made only if it does not.
            text = render(root, pretty=False)
            compact = len(text)
        if compact * self._ratios[True] * _COMPACT_RATIO_FLOOR > self._budget:
            return None  # surely over: the compact samples need not be counted
        estimate = compact * self._ratios[False]
        if estimate > self._budget:
            return None
        if compact > _SAMPLE_FROM and estimate < _SURELY_ROOMY * self._budget:
            # Surely room to open containers: the compact rendering need not be counted,
            # only what opens them (from the estimate; the count of each try decides).
            filled = fill_with_layout(
                root,
                round(estimate),
                self._budget,
                self._counter.count,
                self._line_tokens(compact_chars=compact),
            )
            if filled is not None:
                return FittedText(*filled)
        if text is None:
            text = render(root, pretty=False)
        tokens = self._counter.count(text)
        if tokens > self._budget:
            return None
        if tokens < _GOOD_ENOUGH * self._budget:
            # Everything is shown and room is left: open the outer containers with it.
            filled = fill_with_layout(
                root, tokens, self._budget, self._counter.count, self._line_tokens(tokens, compact)
            )
            if filled is not None:
                return FittedText(*filled)
        return FittedText(text, tokens)

    def _may_fit_compact(self) -> bool:
        """Whether the whole document written compact is estimated (from the input's length
        and its compacted samples) to be within reach of the budget."""
        estimate = len(self._text) * self._ratios.compacted_share() * self._ratios[False]
        return estimate <= _MAY_FIT * self._budget

    def _search(self, *, pretty: bool) -> _Fitted | None:
        found = self._search_with(self._lines, pretty=pretty)
        if found is None or not isinstance(self._lines, UsualLayout):
            return found
        if self._confirms_layout(found.claims):
            return found
        # The newlines matched by chance, not the layout: find the real lines and start over.
        self._document.read_with_positions()
        self._tables = None
        return self._search_with(self._lines, pretty=pretty)

    def _search_with(self, lines: LineMap, *, pretty: bool) -> _Fitted | None:
        return self._layout_search(lines, pretty=pretty).run()

    def _layout_search(self, lines: LineMap, *, pretty: bool) -> _LayoutSearch:
        """The search of one layout over `lines`, made once (what it measured is kept)."""
        key = (pretty, id(lines))
        search = self._searches.get(key)
        if search is None:
            if self._tables is None:
                self._tables = MemberTables(self._survey)
            pruner = Pruner(self._survey, lines, self._handles, pretty=pretty, tables=self._tables)
            if pretty:
                pruner.twin = self._layout_search(lines, pretty=False).pruner
            search = self._searches[key] = _LayoutSearch(pruner, ladder(self._survey), self)
        return search

    @property
    def _survey(self) -> Survey:
        return self._document.survey

    @property
    def _lines(self) -> LineMap:
        return self._document.lines

    @property
    def budget(self) -> int:
        return self._budget

    def ratio(self, *, pretty: bool) -> float:
        """Tokens per character of the input written in that layout, from samples."""
        return self._ratios[pretty]

    def count(self, text: str) -> int:
        return self._counter.count(text)

    def samples_match(self, *, pretty: bool) -> bool:
        """Whether the input's samples are written as the output will be: compact (the
        compacted samples of a pretty input are), or pretty the usual way with 2 spaces."""
        if not pretty:
            return True
        text = self._text
        start = text.find("\n", len(text) - len(text.lstrip())) + 1
        second_line = text[start : start + 64] if start else ""
        indent = len(second_line) - len(second_line.lstrip(" "))
        return isinstance(self._lines, UsualLayout) and indent == 2

    def estimate_ratio(self, text: str) -> float:
        return sample_ratio(self._counter, text)

    def bare_ratio(self, *, pretty: bool) -> float | None:
        """Tokens per character of the input's samples with their values bare
        (`LayoutRatios.bare_strings`), when the input and the output are pretty in the usual
        layout; else None. (Its compacted samples made bare were tried for the compact
        search too: on a lock file they chose no better.)"""
        if not (pretty and self._pretty and self.samples_match(pretty=True)):
            return None
        return self._ratios.bare_strings()

    def cut_ratio(self, limit: int) -> float:
        """`bare_ratio`'s samples with their values cut at `limit` instead
        (`LayoutRatios.cut_strings`): asked for only where `bare_ratio` is known."""
        return self._ratios.cut_strings(limit)

    def compact_cut_ratio(self, limit: int) -> float:
        """Tokens per character of the input's samples written compact with their values
        cut at `limit` (`LayoutRatios.compact_cut_strings`)."""
        return self._ratios.compact_cut_strings(limit)

    def _confirms_layout(self, claims: list[tuple[int, str]]) -> bool:
        """Whether the first omitted member of each run (up to `_CLAIMS_CHECKED`) really
        starts the line the usual layout puts it on."""
        claims = claims[:_CLAIMS_CHECKED]
        if not claims:
            return True
        last = max(line for line, _ in claims)
        starts = [0]
        for match in re.finditer("\n", self._text):
            if len(starts) >= last:
                break
            starts.append(match.end())
        for line, first in claims:
            if line > len(starts):
                return False
            start = starts[line - 1]
            if not self._text[start : start + 256].lstrip(" \t").startswith(first):
                return False
        return True


class _LayoutSearch:
    """The search in one layout: levels are chosen by size in characters, aiming at
    `_AIM` of the budget with the latest ratio of tokens to characters, and counted until one
    fits and uses at least `_GOOD_ENOUGH` of the budget, or nothing new lies between what
    fits and what does not."""

    def __init__(self, pruner: Pruner, families: list[Family], fitter: Fitter) -> None:
        self._pruner = pruner
        self._families = families
        self._fitter = fitter
        self._sizes: dict[Detail, int] = {}
        self._over: dict[Detail, float] = {}  # levels measured only as over this size
        self._ratio = fitter.ratio(pretty=pruner.pretty)
        self._best: _Fitted | None = None
        self._fits_below = 0  # characters: a candidate this long fitted; look for longer
        self._fits_tokens = 0  # its tokens
        self._over_from = float("inf")  # characters: a candidate this long was over
        self._over_tokens = 0  # its tokens
        self._counted: set[Detail] = set()
        self._sampled: set[Detail] = set()
        self._stretched = False
        self._allowance = max(_WALKS * pruner.survey.entries, _WALKS_FLOOR)
        self._bare_scale: float | None = None
        self._cut_scales: dict[int, float] = {}

    @property
    def pruner(self) -> Pruner:
        return self._pruner

    def schema_fits(self) -> bool:
        """Whether the poorest level that keeps every key path (the first of the family
        before `SCHEMA_LOST_RANK`) is estimated to fit: measured once, up to the size aimed
        at, and reused by `run`."""
        kept = [family for family in self._families if family.rank == SCHEMA_LOST_RANK - 1]
        if not kept:
            return True
        limit = self._chars_for(self._fitter.budget * _AIM)
        return self._measure(kept[0].detail(kept[0].low), limit) <= limit

    def schema_level_over(self, tokens: float) -> Detail | None:
        """The poorest level that keeps every key path, when its size at the input's ratio
        is more than `tokens` (measured once, up to that size, and reused by `run`); else
        None."""
        kept = [family for family in self._families if family.rank == SCHEMA_LOST_RANK - 1]
        if not kept:
            return None
        level = kept[0].detail(kept[0].low)
        limit = tokens / self._fitter.ratio(pretty=self._pruner.pretty)
        return level if self._measure(level, limit) > limit else None

    def fits_surely(self, level: Detail, tokens: float, ratio: float) -> bool:
        """Whether `level` is at most `tokens` at `ratio` tokens a character (measured once,
        up to that size, and reused by `run`)."""
        limit = tokens / ratio
        return self._measure(level, limit) <= limit

    def run(self) -> _Fitted | None:
        budget = self._fitter.budget
        while True:
            choice = self._next_choice()
            if choice is None:
                return self._best
            self._pruner.claims = []
            value: object = None  # a pretty answer's value is not asked for
            text = self._pruner.written_whole(choice.detail)
            if text is None:
                value = self._pruner.build(choice.detail).value
                text = render(value, pretty=self._pruner.pretty)
            claims, self._pruner.claims = self._pruner.claims, None
            if self._estimate_is_off(choice, text):
                continue
            tokens = self._fitter.count(text)
            self._counted.add(choice.detail)
            self._ratio = tokens / max(len(text), 1)
            if tokens <= budget:
                if self._best is None or tokens > self._best.tokens:
                    self._best = _Fitted(text, tokens, choice, claims, value)
                if tokens >= _GOOD_ENOUGH * budget:
                    return self._best
                if len(text) > self._fits_below:
                    self._fits_below, self._fits_tokens = len(text), tokens
            elif len(text) < self._over_from:
                self._over_from, self._over_tokens = len(text), tokens
            if self._best is not None and (
                len(self._counted) >= _MAX_COUNTS
                or (not self._patient() and self._best.tokens >= ENOUGH * budget)
            ):
                return self._best

    def _patient(self) -> bool:
        """Whether the search may still measure levels to come closer to the budget
        (`ladder.Patient`)."""
        return self._pruner.walked < self._allowance

    def _measure(self, detail: Detail, cap: float) -> int:
        """The level's size, exact up to `cap` (else a size over it), measured once."""
        size = self._sizes.get(detail)
        if size is not None:
            return size
        over = self._over.get(detail)
        if over is not None and over >= cap:
            return int(min(over, cap)) + 1
        size = self._pruner.measure(detail, cap)
        if size > cap:
            self._over[detail] = cap
        else:
            self._sizes[detail] = size
        return size

    def _next_choice(self) -> Choice | None:
        """The richest level of the size aimed at; once that finds nothing new, one try
        with the whole budget; then None."""
        if self._fits_below + 1 > self._over_from - 1:
            return None
        budget = self._fitter.budget
        limit = min(max(self._chars_for(budget * _AIM), self._fits_below + 1), self._over_from - 1)
        # Until a candidate is counted or sampled, the input's ratio is all there is.
        first = not self._counted and not self._sampled
        measure = self._first_measure if first else self._measure
        choice = richest(self._families, measure, limit, self._patient)
        if choice.detail in self._counted and not self._stretched:
            self._stretched = True
            limit = min(self._chars_for(budget), self._over_from - 1)
            choice = richest(self._families, self._measure, limit, self._patient)
        return None if choice.detail in self._counted else choice

    def _first_measure(self, detail: Detail, cap: float) -> int:
        """Before any candidate is counted or sampled, when the input's ratio is all there
        is: a level whose strings are cut is sized as if it were written at the ratio of the
        input's samples cut alike (`_first_scale`)."""
        scale = self._first_scale(detail.string_limit)
        if scale == 1.0:
            return self._measure(detail, cap)
        return scaled_size(partial(self._measure, detail), cap, scale)

    def _first_scale(self, limit: int | None) -> float:
        """The ratio of the input's samples written with strings cut at `limit` over the
        input's ratio, or 1 where the input's ratio is kept.

        Pretty: 1 at most (never sized up), for the lowest limit whenever the input and the
        output are pretty in the usual layout, for the others only when bare values are
        markedly less dense than the input. Cut or gone, a lock file's hashes or encoded
        blobs make the input's ratio far too high for the level, and its first candidate
        would leave much of the budget unused, or lose key paths when a level that keeps
        them fits.

        Compact: 1 at least (never sized down), and for the limits above the lowest only when
        bare values make the input denser. An API description's values are common words, its
        keys and brackets are not: cut strings make it denser, and its first candidate, sized
        at the input's ratio, was over the budget and counted for nothing. Sized down, the
        compact levels of a lock file chose no better.

        Each limit costs a count of the samples."""
        if limit is None:
            return 1.0
        if not self._pruner.pretty:
            if limit != STRING_FLOOR and self._compact_scale(STRING_FLOOR) == 1.0:
                return 1.0  # bare values are no denser: nor, near enough, are cut ones
            return self._compact_scale(limit)
        if self._bare_scale is None:
            bare = self._fitter.bare_ratio(pretty=self._pruner.pretty)
            self._bare_scale = 1.0 if bare is None else min(1.0, bare / self._ratio)
        if limit == STRING_FLOOR or self._bare_scale >= _DENSE_VALUES:
            return self._bare_scale if limit == STRING_FLOOR else 1.0
        scale = self._cut_scales.get(limit)
        if scale is None:
            ratio = self._fitter.cut_ratio(limit)
            scale = self._cut_scales[limit] = min(1.0, ratio / self._ratio)
        return scale

    def _compact_scale(self, limit: int) -> float:
        scale = self._cut_scales.get(limit)
        if scale is None:
            ratio = self._fitter.compact_cut_ratio(limit)
            scale = self._cut_scales[limit] = max(1.0, ratio / self._ratio)
        return scale

    def _chars_for(self, tokens: float) -> float:
        """The size in characters a candidate of `tokens` tokens is estimated to have: at the
        latest ratio of tokens to characters, or, between the longest candidate that fitted
        and the shortest that was over, at the rate between them when that says longer (what
        the richer one adds can cost far fewer tokens a character than the whole: the
        shorter one's strings of rare characters cut, say). The longer estimate is tried:
        its count, over or not, narrows the search."""
        by_ratio = tokens / self._ratio
        fitted, over = self._fits_below, self._over_from
        if fitted and over != float("inf") and self._over_tokens > self._fits_tokens:
            rate = (self._over_tokens - self._fits_tokens) / (over - fitted)
            return max(by_ratio, fitted + (tokens - self._fits_tokens) / rate)
        return by_ratio

    def _estimate_is_off(self, choice: Choice, text: str) -> bool:
        """Whether a long candidate, estimated from samples of its own text, is surely over
        the budget or well under it: then the next choice uses that estimate instead of
        counting this one (a few times at most). Only when the input's samples were not
        written as the output is: otherwise their ratio is as good, and sampling again
        only adds noise."""
        if (
            self._fitter.samples_match(pretty=self._pruner.pretty)
            or len(text) <= _SAMPLE_FROM
            or choice.detail in self._sampled
            or len(self._sampled) >= _MAX_SAMPLINGS
        ):
            return False
        self._sampled.add(choice.detail)
        ratio = self._fitter.estimate_ratio(text)
        budget = self._fitter.budget
        if _GOOD_ENOUGH * budget <= len(text) * ratio <= _SAFE * budget:
            return False
        self._ratio = ratio
        return True


def scaled_size(measure: Callable[[float], int], cap: float, scale: float) -> int:
    """The size `measure(cap)` gives (exact up to `cap`, else some size over it) times
    `scale` (above 1 or below), with the same promise: a size over `cap` whenever the scaled
    size is. (A size over the scaled cap, times a scale below 1, could round back to the cap
    itself and be taken for one that fits.)"""
    size = measure(cap / scale)
    if size > cap / scale:
        return int(cap) + 1
    return int(size * scale)
