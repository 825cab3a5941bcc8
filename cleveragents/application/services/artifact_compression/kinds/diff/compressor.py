"""Code diffs (git's unified format): the compressor, with Tier 2 here and smart mode's line
ranks in `line_plan`.

The design: "Keep function signatures, class declarations, and error messages. Summarize method
bodies with `// ... (implementation omitted for brevity)`. Remove comments and blank lines."

What a judge needs from a diff is *where* the change is and *what shape* it has, so every file
header and every hunk header is kept verbatim. Inside a hunk each line's code (after its one-char
marker) is read in the language of its file (from the ``+++ b/...`` path):

* kept: signatures and declarations, error reporting (raise, throw, panic, ``error``/``fail`` in a
  string, ``logger.error(``, assert), the ``\\ No newline at end of file`` marker, and lines that
  name a term of the task (even comments: the task asked for them);
* removed: blank lines and comment lines (the comment syntax of the file's language; files of an
  unknown language have no comments, since ``#`` starts a Markdown heading);
* everything else is body: each maximal run of it becomes one placeholder line, written in the
  file's comment syntax, with the marker of the run (``+``/``-`` when the whole run is added or
  removed, else a context space) and the indentation of the run's first line.

Reading the diff is `parsing` (where each line stands) and `roles` (what a body line's code is).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from functools import partial
from itertools import accumulate
from operator import itemgetter

from cleveragents.application.ports.token_counter import TextPiece
from cleveragents.application.services.artifact_compression.kinds.diff.file_list import file_lists
from cleveragents.application.services.artifact_compression.kinds.diff.hunk_scan import JoinedLines
from cleveragents.application.services.artifact_compression.kinds.diff.line_plan import (
    DiffLineRanker,
    matches_by_family,
)
from cleveragents.application.services.artifact_compression.kinds.diff.parsing import (
    FILE_STARTS,
    DiffLineKind,
    Segments,
    diff_segments,
    split_diff,
)
from cleveragents.application.services.artifact_compression.kinds.diff.roles import (
    READERS,
    Comments,
    Role,
    line_role,
)
from cleveragents.application.services.artifact_compression.kinds.diff.signatures import (
    ERROR_WORDS,
    FAMILY,
)
from cleveragents.application.services.artifact_compression.kinds.kind_compressor import (
    KindCompressor,
    LinePlan,
    MalformedCompressionError,
)
from cleveragents.application.services.artifact_compression.kinds.plain_text import (
    LONG_LINE_CHARS,
    plan_with_short_long_lines,
)
from cleveragents.application.services.artifact_compression.task_terms import TaskTerms
from cleveragents.domain.artifact import ArtifactKind
from cleveragents.domain.languages import (
    IMPLEMENTATION_OMITTED,
    line_comment,
)

__all__ = ["DiffCompressor"]

_KEPT_ROLES = frozenset({Role.NO_NEWLINE, Role.DECLARATION, Role.ERROR})


class DiffCompressor(KindCompressor):
    """The design's code-diff compressor, and smart mode's ranks; see the module docstring."""

    kind = ArtifactKind.DIFF
    streams = False
    rewrites_text = False

    def tier2(self, text: str, terms: TaskTerms) -> str:
        lines, final_newline = split_diff(text)
        kept = _tier2_lines(lines, terms)
        written = (entry if isinstance(entry, str) else lines[entry] for entry in kept)
        return "\n".join(written) + ("\n" if final_newline else "")

    def tier2_pieces(self, text: str, terms: TaskTerms) -> list[TextPiece]:
        """Tier 2 as pieces: each run of the diff's lines kept in a row is one piece copied
        from the diff (counted from its token starts), each placeholder a piece of its own."""
        lines, final_newline = split_diff(text)
        kept = _tier2_lines(lines, terms)
        return _pieces(text, lines, kept, final_newline)

    def line_plan(self, lines: list[str], terms: TaskTerms) -> LinePlan:
        ranker = DiffLineRanker(terms)
        priorities: list[int] = []
        previous = DiffLineKind.OTHER
        named: list[int] = []  # the lines that start a file's diff, naming it
        segments = list(diff_segments(lines))  # read again by the file list, when it is needed
        ranker.scan(lines, segments)
        for kind, language, start, end in segments:
            if kind is DiffLineKind.BODY:
                ranker.rank_body(lines, start, end, language, priorities)
            else:  # a line of its own
                line = lines[start]
                starts_file = kind is DiffLineKind.FILE_HEADER and (
                    previous is not DiffLineKind.FILE_HEADER or line.startswith(FILE_STARTS)
                )
                if starts_file:
                    named.append(start)
                priorities.append(ranker.rank(line, kind, starts_file))
            previous = kind
        # When the packed lines lose a file's first line, a list of every file comes first.
        summaries = partial(file_lists, lines, segments)
        if max(map(len, lines), default=0) <= LONG_LINE_CHARS:
            # No short forms: spares the helper its loop.
            return LinePlan(priorities, summaries=summaries, summarized=named)
        plan = plan_with_short_long_lines(lines, priorities)
        return replace(plan, summaries=summaries, summarized=named)


def _tier2_lines(lines: list[str], terms: TaskTerms) -> list[int | str]:
    """What Tier 2 writes, line by line: the index of a line of the diff it keeps, or a
    placeholder that stands for a run of body lines. The body lines that may be more than
    body to summarize (blank, a comment, a declaration, an error word, a task term, ``\\ No
    newline``) are found in the diff's text at once (`_tier2_notable`) and read one by one,
    as are the lines inside a block comment; the others join the run as they are."""
    segments = list(diff_segments(lines))
    writer = _Tier2Writer(lines, terms, _tier2_notable(lines, terms, segments))
    hunks = 0
    for kind, language, start, end in segments:
        if kind is DiffLineKind.BODY:
            writer.body(language, start, end)
            continue
        if kind is not DiffLineKind.OTHER:
            writer.comments.reset()
        hunks += kind is DiffLineKind.HUNK_HEADER
        writer.flush()
        writer.out.extend(range(start, end))
    writer.flush()
    out = writer.out
    if hunks and not any(isinstance(entry, int) and lines[entry].startswith("@@") for entry in out):
        raise MalformedCompressionError("the compressed diff lost every hunk header")
    return out


@dataclass(slots=True)
class _Tier2Writer:
    """Tier 2's output as it is written (`_tier2_lines`)."""

    lines: list[str]
    terms: TaskTerms
    notable: list[int]  # the body lines read one by one
    comments: Comments = field(default_factory=Comments)
    out: list[int | str] = field(default_factory=list)
    run: list[int] = field(default_factory=list)  # body lines waiting to become a placeholder
    run_language: str | None = None

    def body(self, language: str | None, start: int, end: int) -> None:
        """The body lines `lines[start:end]` of one hunk, of a file in `language`."""
        lines, comments = self.lines, self.comments
        inside = comments.inside  # `reset` runs between hunks only
        block = READERS[FAMILY.get(language or "")].block_comments
        notables = JoinedLines.between(self.notable, start, end)
        following = 0  # the first of `notables` not behind `index`
        index = start
        while index < end:
            while following < len(notables) and notables[following] < index:
                following += 1
            stop = notables[following] if following < len(notables) else end
            if index < stop and not (block and (inside[0] or inside[1])):
                self.run.extend(range(index, stop))  # plain body: no call tells it otherwise
                self.run_language = language
                index = stop
                continue
            line = lines[index]
            role = line_role(line, language, comments)
            if role is not Role.BLANK:
                mentioned = role is not Role.PLACEHOLDER and self.terms.matches(line[1:])
                if role in _KEPT_ROLES or mentioned:
                    self.flush()
                    self.out.append(index)
                elif role is not Role.COMMENT:
                    self.run.append(index)
                    self.run_language = language
            index += 1

    def flush(self) -> None:
        """The run of body lines as one placeholder, written in the comment syntax of its
        file's language, when that is shorter than the run."""
        run = self.run
        if not run:
            return
        written = list(map(self.lines.__getitem__, run))
        markers = set(map(_MARKER, written))
        marker = markers.pop() if len(markers) == 1 and markers <= {"+", "-"} else " "
        first = written[0]
        code = first[1:]
        indent = code[: len(code) - len(code.lstrip(" \t"))]
        comment = line_comment(self.run_language)
        eol = "\r" if first.endswith("\r") else ""
        placeholder = f"{marker}{indent}{comment} {IMPLEMENTATION_OMITTED}{eol}"
        if len(placeholder) < sum(map(len, written)) + len(written) - 1:
            self.out.append(placeholder)
        else:  # a short run (`}`, `return x`) says more, in fewer characters, than its summary
            self.out.extend(run)
        run.clear()


def _tier2_notable(lines: list[str], terms: TaskTerms, segments: Segments) -> list[int]:
    """The lines Tier 2 reads one by one (`_tier2_lines`), in order: those that start with
    ``\\``, are blank, hold an error word, a task term or ``/*``, or look like a comment or a
    declaration in the language of their file. (Body lines of one marker column cannot start
    with a letter or ``/``: a word in the line is a word in its code.)"""
    joined = JoinedLines(lines)
    found = joined.holding(ERROR_WORDS)
    found.update(joined.starting("\\"))
    found.update(joined.matching(_BLANK_LINE))
    if terms.terms:
        found |= joined.holding(terms.terms)
    if "/*" in joined.text:
        found |= joined.holding(("/*",))
    found.update(matches_by_family(joined, segments, lambda reader: reader.declaration_lines))
    found.update(matches_by_family(joined, segments, lambda reader: reader.comment_lines))
    return sorted(found)


_MARKER = itemgetter(slice(0, 1))  # a line's first character, or "" for an empty line
# A line whose code (after its marker, if any) is blank.
_BLANK_LINE = re.compile(r"\n(?:[^\n][^\S\n]*+)?$", re.MULTILINE)


def _pieces(
    text: str, lines: list[str], kept: list[int | str], final_newline: bool
) -> list[TextPiece]:
    """Tier 2's text (`kept` joined by newlines, a newline at the end when the diff has one)
    in pieces: each run of lines that follow each other in the diff is copied with the
    newline after it (which the diff holds too), from the UTF-8 byte offset of its first
    line; each placeholder is new text."""
    starts = _byte_starts(text, lines)
    pieces: list[TextPiece] = []
    last = len(kept) - 1
    at = 0
    while at <= last:
        entry = kept[at]
        if isinstance(entry, str):
            ending = "\n" if at < last or final_newline else ""
            pieces.append(TextPiece(entry + ending))
            at += 1
            continue
        first = end = at  # the run kept[first:end + 1] of lines in a row
        while end < last and kept[end + 1] == entry + (end + 1 - first):
            end += 1
        ending = "\n" if end < last or final_newline else ""
        copied = "\n".join(lines[entry : entry + end - first + 1]) + ending
        pieces.append(TextPiece(copied, starts[entry]))
        at = end + 1
    return pieces


def _byte_starts(text: str, lines: list[str]) -> list[int]:
    """The UTF-8 byte offset of each line of `text` (split on newlines)."""
    if text.isascii():
        lengths: Iterable[int] = map(len, lines)
    else:
        lengths = (len(line.encode("utf-8")) for line in lines)
    return list(accumulate(map((1).__add__, lengths), initial=0))
