"""The interface every artifact type implements, and the ranks smart mode packs lines by."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import IntEnum
from typing import TYPE_CHECKING, Protocol

from cleveragents.application.ports.token_counter import TextPiece, TokenCounter
from cleveragents.application.services.artifact_compression.task_terms import TaskTerms
from cleveragents.domain.artifact import ArtifactKind

if TYPE_CHECKING:
    from cleveragents.application.services.artifact_compression.packing.request import Line


class Priority(IntEnum):
    """How much a line matters when smart mode must drop lines (lower is kept first). The
    packer accepts any int: a compressor may rank finer than these five (e.g. ``2`` for a
    warning's first occurrence and ``5`` for its repeats); these are the usual steps."""

    ESSENTIAL = 0  # structure: file and hunk headers, headings, signatures, the last error
    CRITICAL = 1  # errors, fatal lines, tracebacks, declarations
    IMPORTANT = 2  # warnings; lines that name a term of the task
    USEFUL = 3  # changed lines of a diff, first lines of a log, tables
    CONTEXT = 4  # everything else


@dataclass(frozen=True, slots=True)
class ShortForm:
    """A shorter version of one line (its first sentence, its head), taken at `priority`
    before the full line is; the packer marks the cut with a handle to the whole line."""

    text: str
    priority: int


@dataclass(frozen=True, slots=True)
class OutlineRule:
    """The lines a kind lets smart mode write as an outline (see `packing.outline`): those
    ranked at or below `rank`, called `noun` in the outline's marker (``declarations``)."""

    rank: int
    noun: str


@dataclass(frozen=True, slots=True)
class LinePlan:
    """How smart mode ranks the lines of an artifact.

    `priorities[i]` is line i's rank (lower kept first). `short_forms[i]`, when present, is a
    cheaper version of line i that may be kept at a better rank than the whole line.
    `templates[i]`, when given, names line i's message template (equal numbers: the same
    message with different variables): a run of dropped lines that all repeat the template
    of the kept line just before them is written as one ``×N`` marker.
    `summaries`, when given, makes (only when asked: most packings need none) texts, richest
    first, that stand for the lines at `summarized` (a diff's list of changed files with their
    counts, then its paths alone, for the lines that name each file): when the packed lines
    lose one of those, the first summary that fits is written before them.
    """

    priorities: Sequence[int]
    short_forms: dict[int, ShortForm] = field(default_factory=dict)
    templates: Sequence[int] | None = None
    # Made on demand, so two plans of the same lines hold two such makers: not compared.
    summaries: Callable[[], Sequence[str]] | None = field(default=None, compare=False)
    summarized: Sequence[int] = ()


@dataclass(frozen=True, slots=True)
class Handles:
    """How an omission marker names what it omitted: a 1-based line range of the original,
    and the artifact's id in the store when the artifact is there (`agents artifact read ID
    --lines A-B` returns exactly those lines)."""

    artifact_id: str | None = None

    def lines(self, first: int, last: int) -> str:
        """``lines 5-9`` (or ``line 5``), ``of ID`` after it when stored; 1-based, inclusive."""
        span = f"line {first}" if first == last else f"lines {first}-{last}"
        return f"{span} of {self.artifact_id}" if self.artifact_id else span


@dataclass(frozen=True, slots=True)
class FittedText:
    """A type's own rendering within a budget, and its exact count by the counter it was
    fitted with (so it is not encoded again)."""

    text: str
    tokens: int


class MalformedCompressionError(ValueError):
    """A Tier 2 result that is not a valid artifact of its kind (e.g. JSON that does not parse).
    The design then falls back to Tier 3."""


class StreamedLines(Protocol):
    """What one pass over an artifact too large to hold keeps for smart mode: the packer's
    candidate lines in position order, sparse (positions between them are dropped lines), the
    artifact's line count, and the short forms, template runs and head-only lines of the
    candidates, by position (as `LinePlan` gives them for a text held whole)."""

    @property
    def lines(self) -> Sequence[Line]: ...

    @property
    def total_lines(self) -> int: ...

    @property
    def short_forms(self) -> Mapping[int, ShortForm]: ...

    @property
    def run_ends(self) -> Mapping[int, int]: ...

    @property
    def heads_only(self) -> frozenset[int]: ...


class KindCompressor(ABC):
    """Per-type compression. Implementations are pure and deterministic: text in, text out.

    Besides its compressors, a kind declares what the generic pipeline must do for it:
    `streams` and `rewrites_text`."""

    kind: ArtifactKind
    streams: bool = False
    """Whether smart mode can take an artifact of this kind too large to hold, in one pass over
    its lines (`stream_candidates`); one of a kind that cannot is cut like Tier 3, from its
    head."""
    rewrites_text: bool = False
    """Whether `tier2` writes the artifact anew (JSON is re-serialised), so a credential held
    in an escaped form (``AKIA\\u0051...``) may come out decoded: the pipeline redacts it
    again."""
    fits_itself: bool = False
    """Whether `fit` is the kind's smart mode whenever the text is valid (JSON): the raw count
    then skips the token starts, which only packing lines and the head cut use (those encode
    for them when the fit gives way)."""
    outline: OutlineRule | None = None
    """When set, smart mode writes the lines this rule names as an outline (together, under
    one marker) whenever that keeps more of them than a marker for every gap does."""

    @abstractmethod
    def tier2(self, text: str, terms: TaskTerms) -> str:
        """Tier 2 compressor for this type. Raise `MalformedCompressionError` when the
        result would not be a valid artifact of the type."""

    def tier2_pieces(self, text: str, terms: TaskTerms) -> Sequence[TextPiece]:
        """`tier2`'s result as pieces whose join is that result; a piece copied unchanged from
        `text` gives its UTF-8 byte offset there, so the pipeline counts it from the raw
        text's token starts instead of encoding it again. The default: one new piece."""
        return [TextPiece(self.tier2(text, terms))]

    @abstractmethod
    def line_plan(self, lines: list[str], terms: TaskTerms) -> LinePlan:
        """How smart mode ranks the artifact's own `lines` (no line endings) when it packs
        them into a budget."""

    def marker(self, inner: str) -> str:
        """An omission marker around `inner` (a line range such as ``lines 5-9``): the default
        ``[… lines 5-9]`` is short (7 tokens) and reads as elided text in any artifact; a type
        whose syntax needs more (source: a comment) overrides it."""
        return f"[… {inner}]"

    def fit(
        self,
        text: str,
        terms: TaskTerms,
        budget: int,
        counter: TokenCounter,
        handles: Handles,
    ) -> FittedText | None:
        """Smart mode for a type that is not packed line by line (JSON: the output must
        parse): a rendering of `text` whose count is <= `budget`, using most of it, with that
        count. None: pack lines instead (the default, and e.g. for JSON that does not parse)."""
        return None

    def stream_candidates(
        self, lines: Iterable[str], terms: TaskTerms, budget: int
    ) -> StreamedLines:
        """For a kind that `streams`: the candidates among `lines` (read once, each with its
        line ending, credentials not yet redacted), ranked as `line_plan` ranks them, held in
        memory bounded by `budget`."""
        raise NotImplementedError(f"{type(self).__name__} does not stream")
