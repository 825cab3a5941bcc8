"""JSON artifacts: Tier 2 (all keys and structure, long arrays and strings cut), and
smart mode's `fit`, a valid JSON document that uses most of any budget.

Decisions the design leaves open, documented here because they are visible in the output:

- Parsing is Python's `json.loads`: `NaN`/`Infinity` literals are accepted and written back as
  they were; for duplicate keys the last value wins (so the output has one key where the input
  had two); numbers are re-serialised by Python (`1.0e5` becomes `100000.0`).
- Nesting deeper than Python's recursion limit is treated as malformed (Tier 3 then
  takes over) instead of crashing.
- `--task` guidance: an omitted array item is kept after all when one of its keys or scalar
  values mentions a task term. The match is computed bottom-up in the same pass that transforms
  the item, so the whole transformation stays linear in the size of the document.
- Omitted items are announced by one marker `{"_truncated": "N items omitted"}` per array, at the
  place of the first omitted item; N counts only the items really omitted.

Smart mode (`fit`) never packs the lines of a JSON document, which would not parse: it picks
the richest level of detail (`json.ladder`) whose rendering (`json.pruner`) fits, counted
with the real tokenizer, and uses most of the budget. What its output shows:

- arrays keep their first and last items, the items that mention the task, those that show a
  key path or a kind of value not seen before, then more from both ends inwards; each run of
  omitted items is one string item, ``"… 35 items omitted (lines 120-340)"`` (the lines of
  the original that hold them, ``of ID`` after them when the artifact is stored);
- a long string keeps its head: ``"the first part… (1234 chars omitted)"``;
- object members go last (after arrays are down to first and last items), breadth-first from
  the root, the task's first; the rest of an object is one member,
  ``"…": "12 keys omitted (lines 40-90)"``, and an object or array with nothing left is that
  marker alone;
- the layout is the input's (pretty with 2 spaces when it spans lines, else compact); a pretty
  document that fits whole once compact is returned compact, and compact output is also
  chosen when it keeps more once members must go (or pretty steps are too coarse).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import NamedTuple

from cleveragents.application.ports.token_counter import TokenCounter
from cleveragents.application.services.artifact_compression.kinds.json.detail import Detail
from cleveragents.application.services.artifact_compression.kinds.json.ladder import (
    BREADTH_FIRST_RANK,
    Choice,
    Family,
    ladder,
    richest,
)
from cleveragents.application.services.artifact_compression.kinds.json.line_maps import (
    LineMap,
    Positions,
    UsualLayout,
    structural_line_map,
)
from cleveragents.application.services.artifact_compression.kinds.json.positions import (
    parse_with_positions,
)
from cleveragents.application.services.artifact_compression.kinds.json.pruner import Pruner
from cleveragents.application.services.artifact_compression.kinds.json.survey import Survey
from cleveragents.application.services.artifact_compression.kinds.json.writing import (
    ELLIPSIS,
    items_marker,
    keys_marker,
    render,
)
from cleveragents.application.services.artifact_compression.kinds.kind_compressor import (
    FittedText,
    Handles,
    KindCompressor,
    LinePlan,
    MalformedCompressionError,
    Priority,
)
from cleveragents.application.services.artifact_compression.task_terms import TaskTerms
from cleveragents.domain.artifact import ArtifactKind

_MARKER_KEY = "_truncated"
# A line of pretty-printed JSON that starts with an object key.
_KEY_LINE = re.compile(r'\s*"(?:[^"\\]|\\.)*"\s*:')


@dataclass(frozen=True, slots=True)
class _Limits:
    """How much Tier 2 keeps."""

    threshold: int  # arrays longer than this are cut
    head: int
    tail: int
    string_limit: int


_TIER2 = _Limits(threshold=10, head=5, tail=2, string_limit=200)


def _cut_string(value: str, limit: int) -> str:
    if len(value) <= limit:
        return value
    return f"{value[:limit]}... ({len(value) - limit} chars omitted)"


class _Transformer:
    """One recursive pass over a parsed document. Each node is visited once, so the pass is
    linear; `transform` returns the new value and whether the original mentions a task term."""

    def __init__(self, limits: _Limits, terms: TaskTerms) -> None:
        self._limits = limits
        self._terms = terms

    def transform(self, value: object, depth: int = 1) -> tuple[object, bool]:
        if isinstance(value, dict):
            return self._object(value, depth)
        if isinstance(value, list):
            return self._array(value, depth)
        if isinstance(value, str):
            return _cut_string(value, self._limits.string_limit), self._terms.matches(value)
        # Numbers, booleans and null: match on the JSON spelling (`true`, `42`).
        return value, bool(self._terms) and self._terms.matches(json.dumps(value))

    def _object(self, value: dict[str, object], depth: int) -> tuple[object, bool]:
        result: dict[str, object] = {}
        matched = False
        for key, item in value.items():
            result[key], item_matched = self.transform(item, depth + 1)
            matched = matched or item_matched or self._terms.matches(key)
        return result, matched

    def _array(self, items: list[object], depth: int) -> tuple[object, bool]:
        limits = self._limits
        if len(items) <= limits.threshold:
            pairs = [self.transform(item, depth + 1) for item in items]
            return [new for new, _ in pairs], any(hit for _, hit in pairs)
        tail_start = len(items) - limits.tail
        result: list[object] = []
        matched = False
        omitted = 0
        marker_at: int | None = None
        for index, item in enumerate(items):
            in_middle = limits.head <= index < tail_start
            if in_middle and not self._terms:
                omitted += 1  # without terms a middle item is never kept: skip its subtree
                marker_at = len(result) if marker_at is None else marker_at
                continue
            new, hit = self.transform(item, depth + 1)
            matched = matched or hit
            if in_middle and not hit:
                omitted += 1
                marker_at = len(result) if marker_at is None else marker_at
                continue
            result.append(new)
        if marker_at is not None:
            result.insert(marker_at, {_MARKER_KEY: f"{omitted} items omitted"})
        return result, matched


def _parse(text: str) -> object:
    try:
        return json.loads(text)
    except (ValueError, RecursionError) as exc:
        raise MalformedCompressionError(f"not valid JSON: {exc}") from exc


def _render(value: object, limits: _Limits, terms: TaskTerms, *, pretty: bool) -> str:
    """Transform and serialise, then prove the result parses (the design's validation)."""
    try:
        new, _ = _Transformer(limits, terms).transform(value)
        if pretty:
            out = json.dumps(new, ensure_ascii=False, indent=2)
        else:
            out = json.dumps(new, ensure_ascii=False, separators=(",", ":"))
        json.loads(out)
    except (ValueError, RecursionError) as exc:
        raise MalformedCompressionError(f"compressed JSON does not parse: {exc}") from exc
    return out


class JsonCompressor(KindCompressor):
    """The design's JSON compressor (every key and the structure kept, long arrays and strings cut)
    and a smart fit that keeps the output valid JSON at any budget."""

    kind = ArtifactKind.JSON

    def tier2(self, text: str, terms: TaskTerms) -> str:
        """Keep the layout the author chose: pretty when the input spans lines, else compact."""
        return _render(_parse(text), _TIER2, terms, pretty="\n" in text)

    def line_plan(self, lines: list[str], terms: TaskTerms) -> LinePlan:
        """Only for text that is not valid JSON (`fit` gave up): keys are the structure, task
        lines next, braces and items last."""
        ranks: list[int] = []
        for line in lines:
            if _KEY_LINE.match(line):
                ranks.append(Priority.ESSENTIAL)
            elif terms.matches(line):
                ranks.append(Priority.IMPORTANT)
            else:
                ranks.append(Priority.CONTEXT)
        return LinePlan(ranks)

    def marker(self, inner: str) -> str:
        return f"... ({inner})"

    def fit(
        self,
        text: str,
        terms: TaskTerms,
        budget: int,
        counter: TokenCounter,
        handles: Handles,
    ) -> FittedText | None:
        """The richest valid rendering of the document within `budget` (`_Fitter`), with its
        exact count; None when
        `text` is not valid JSON or not even the root's marker fits (the lines are then
        packed). A document too deep to walk level by level gets its root's marker."""
        try:
            document = _read(text, terms)
            if document is None:
                return None
            return _Fitter(text, document, budget, counter, handles).fit()
        except RecursionError:
            marker = _root_marker(text, budget, counter, handles)
            return FittedText(marker, counter.count(marker)) if marker is not None else None


# --- smart mode -------------------------------------------------------------------------------

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
_SAMPLE_WINDOWS = 8
_MAX_SAMPLE_WINDOWS = 32
_COMPACT_RATIO_FLOOR = 0.75
"""A compact rendering has at least this share of the pretty one's tokens per character
(indentation runs are cheap, but so are the short lines of small values they start)."""
_CLAIMS_CHECKED = 16
_SAMPLE_CHARS = 2048
_MAX_SAMPLINGS = 3
_MAX_COUNTS = 6
"""Exact counts of candidates per layout once one of them fits."""


class _Document(NamedTuple):
    survey: Survey
    lines: LineMap


class _Fitted(NamedTuple):
    text: str
    tokens: int
    choice: Choice
    claims: list[tuple[int, str]]  # where its markers say omitted members start


def _read(text: str, terms: TaskTerms) -> _Document | None:
    """The parsed document with its survey and line map; None when it is not valid JSON.
    A valid document nested too deep to survey raises `RecursionError` (its root's marker
    is the answer then, not packed lines)."""
    try:
        value = json.loads(text)
    except (ValueError, RecursionError):
        return None
    try:
        survey = Survey(value, terms)
        lines = structural_line_map(text, survey)
        if lines is None:
            value, spans = parse_with_positions(text)
            survey = Survey(value, terms)
            lines = Positions(text, spans)
    except (ValueError, IndexError):
        return None
    return _Document(survey, lines)


def _root_marker(text: str, budget: int, counter: TokenCounter, handles: Handles) -> str | None:
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


class _Fitter:
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
        self._survey = document.survey
        self._lines = document.lines
        self._budget = budget
        self._counter = counter
        self._handles = handles
        self._pretty = "\n" in text.strip()
        self._ratios = _LayoutRatios(counter, text, pretty=self._pretty)

    def fit(self) -> FittedText | None:
        pretty = self._pretty
        if pretty:
            whole = self._whole_compact()
            if whole is not None:
                return whole
        found = self._search(pretty=pretty)
        if pretty and (
            found is None
            or found.choice.rank >= BREADTH_FIRST_RANK
            or found.tokens < _GOOD_ENOUGH * self._budget
        ):
            # Members must go, or the steps between levels are coarse, when pretty-printed:
            # compact may keep more.
            compact = self._search(pretty=False)
            if compact is not None and (found is None or self._better(compact, found)):
                found = compact
        return FittedText(found.text, found.tokens) if found is not None else None

    def _better(self, compact: _Fitted, pretty: _Fitted) -> bool:
        """Whether the compact rendering replaces the pretty one: it keeps more, and (unless
        members must go) does not leave more than the accepted share of the budget unused
        where the pretty one uses it."""
        if not compact.choice.richer_than(pretty.choice):
            return False
        if compact.choice.rank >= BREADTH_FIRST_RANK:
            return True  # once members must go, showing more of them comes first
        floor = _ENOUGH * self._budget
        return compact.tokens >= floor or pretty.tokens < floor

    def _whole_compact(self) -> FittedText | None:
        """A pretty document that fits once its whitespace is gone, whole: rendered and
        counted only when the estimate from the compacted samples fits."""
        root = self._survey.root
        if not isinstance(root, dict | list):
            return None
        compact = self._survey.of(root).compact
        if compact * self._ratios[True] * _COMPACT_RATIO_FLOOR > self._budget:
            return None  # surely over: the compact samples need not be counted
        if compact * self._ratios[False] > self._budget:
            return None
        text = render(root, pretty=False)
        tokens = self._counter.count(text)
        return FittedText(text, tokens) if tokens <= self._budget else None

    def _search(self, *, pretty: bool) -> _Fitted | None:
        found = self._search_with(self._lines, pretty=pretty)
        if found is None or not isinstance(self._lines, UsualLayout):
            return found
        if self._confirms_layout(found.claims):
            return found
        # The newlines matched by chance, not the layout: find the real lines and start over.
        value, spans = parse_with_positions(self._text)
        self._survey = Survey(value, self._survey.terms)
        self._lines = Positions(self._text, spans)
        return self._search_with(self._lines, pretty=pretty)

    def _search_with(self, lines: LineMap, *, pretty: bool) -> _Fitted | None:
        pruner = Pruner(self._survey, lines, self._handles, pretty=pretty)
        return _LayoutSearch(pruner, ladder(self._survey), self).run()

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
        return _sample_ratio(self._counter, text)

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

    def __init__(self, pruner: Pruner, families: list[Family], fitter: _Fitter) -> None:
        self._pruner = pruner
        self._families = families
        self._fitter = fitter
        self._sizes: dict[Detail, int] = {}
        self._ratio = fitter.ratio(pretty=pruner.pretty)
        self._best: _Fitted | None = None
        self._fits_below = 0  # characters: a candidate this long fitted; look for longer
        self._over_from = float("inf")  # characters: a candidate this long was over
        self._counted: set[Detail] = set()
        self._sampled: set[Detail] = set()
        self._stretched = False

    def run(self) -> _Fitted | None:
        budget = self._fitter.budget
        while True:
            choice = self._next_choice()
            if choice is None:
                return self._best
            self._pruner.claims = []
            text = render(self._pruner.build(choice.detail).value, pretty=self._pruner.pretty)
            claims, self._pruner.claims = self._pruner.claims, None
            if self._estimate_is_off(choice, text):
                continue
            tokens = self._fitter.count(text)
            self._counted.add(choice.detail)
            self._ratio = tokens / max(len(text), 1)
            if tokens <= budget:
                if self._best is None or tokens > self._best.tokens:
                    self._best = _Fitted(text, tokens, choice, claims)
                if tokens >= _GOOD_ENOUGH * budget:
                    return self._best
                self._fits_below = max(self._fits_below, len(text))
            else:
                self._over_from = min(self._over_from, len(text))
            if self._best is not None and len(self._counted) >= _MAX_COUNTS:
                return self._best

    def _measure(self, detail: Detail) -> int:
        size = self._sizes.get(detail)
        if size is None:
            size = self._sizes[detail] = self._pruner.measure(detail)
        return size

    def _next_choice(self) -> Choice | None:
        """The richest level of the size aimed at; once that finds nothing new, one try
        with the whole budget; then None."""
        if self._fits_below + 1 > self._over_from - 1:
            return None
        budget = self._fitter.budget
        aimed = budget * _AIM / self._ratio
        limit = min(max(aimed, self._fits_below + 1), self._over_from - 1)
        choice = richest(self._families, self._measure, limit)
        if choice.detail in self._counted and not self._stretched:
            self._stretched = True
            limit = min(budget / self._ratio, self._over_from - 1)
            choice = richest(self._families, self._measure, limit)
        return None if choice.detail in self._counted else choice

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


def _sample_ratio(counter: TokenCounter, text: str) -> float:
    """Tokens per character of `text`: exact for a short text, else from evenly spread
    windows."""
    if not text:
        return 1.0
    if len(text) <= 2 * _SAMPLE_WINDOWS * _SAMPLE_CHARS:
        return counter.count(text) / len(text)
    return _ratio_of(counter, _windows(text, lines=False))


class _LayoutRatios:
    """Tokens per character of the document written pretty and compact, from windows of the
    input, each counted when first needed: a pretty input's windows are whole lines, whose
    strings are whole, so dropping their whitespace outside strings shows the compact ratio."""

    def __init__(self, counter: TokenCounter, text: str, *, pretty: bool) -> None:
        self._counter = counter
        self._text = text
        self._pretty_input = pretty
        self._windows: list[str] | None = None
        self._ratios: dict[bool, float] = {}

    def __getitem__(self, pretty: bool) -> float:
        if pretty not in self._ratios:
            self._ratios[pretty] = self._measure(pretty=pretty)
        return self._ratios[pretty]

    def _measure(self, *, pretty: bool) -> float:
        if not self._pretty_input:
            return _sample_ratio(self._counter, self._text)
        if self._windows is None:
            self._windows = _windows(self._text, lines=True)
        if pretty:
            return _ratio_of(self._counter, self._windows)
        compacted = [_INSIGNIFICANT.sub(_keep_strings, window) for window in self._windows]
        return _ratio_of(self._counter, compacted)


_INSIGNIFICANT = re.compile(r'("(?:[^"\\]|\\.)*")|[ \t\n\r]+')


def _keep_strings(match: re.Match[str]) -> str:
    return match.group(1) or ""


def _windows(text: str, *, lines: bool) -> list[str]:
    """Pieces of about `_SAMPLE_CHARS` evenly spread over `text` (all of it when short):
    `_SAMPLE_WINDOWS`, or one every 128 KiB of a long text (`_MAX_SAMPLE_WINDOWS` at most),
    cut at line ends when `lines`."""
    if len(text) <= 2 * _SAMPLE_WINDOWS * _SAMPLE_CHARS:
        return [text]
    count = min(_MAX_SAMPLE_WINDOWS, max(_SAMPLE_WINDOWS, len(text) >> 17))
    step = (len(text) - _SAMPLE_CHARS) // (count - 1)
    windows = []
    for index in range(count):
        start, end = index * step, index * step + _SAMPLE_CHARS
        if lines:
            start = text.find("\n", start) + 1 if index else 0
            found = text.find("\n", end)
            end = found if found != -1 else len(text)
        windows.append(text[start:end])
    return [window for window in windows if window]


def _ratio_of(counter: TokenCounter, windows: list[str]) -> float:
    chars = sum(map(len, windows))
    return sum(map(counter.count, windows)) / chars if chars else 1.0
