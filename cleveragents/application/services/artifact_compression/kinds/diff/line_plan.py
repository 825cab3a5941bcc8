"""Code diffs: smart mode's rank of each line.

Smart mode packs the diff's own lines by rank (lower is kept first). A judge reviewing a diff
first needs to know what changed where, then the shape of the change, then the change itself:

* 0: every line naming a changed file (``diff --git``, ``index``, mode, rename, copy and
  similarity lines, ``---``/``+++``, ``Binary files ... differ``, ``GIT binary patch``; for
  ``diff -r``: its ``diff -u a b`` lines and ``Only in``) and every hunk header, whatever the
  diff's size: kept before any body line;
* 1: changed signatures and declarations (in the language of the file); the commit subject
  (``Subject:`` of a ``format-patch``, the first message line of ``git log``/``git show``) and
  the ``N files changed`` summary;
* 2: changed error lines (raise, throw, panic, ``XxxError(``, ...) and changed lines or commit
  text naming a task term;
* 3: the first 3 other changed lines of each hunk (so a small budget shows every hunk, not only
  the first ones); the rest of the commit text;
* 4: the other changed lines; unchanged declarations and unchanged lines naming a task term
  (they say where a change is);
* 5: unchanged context lines, and blank lines (added or not), which say nothing;
* 6: the data of a ``GIT binary patch`` and the ``format-patch`` signature (``-- `` and the
  git version).

``\\ No newline at end of file`` takes the rank of the line it qualifies. A deleted file's body
lines rank one lower than they would (its header already says it went). A line over 2,000
characters (a minified file) is kept as its first 300 characters at its rank, and whole two ranks
later. Combined diffs (``@@@``, one marker column per parent) are read with all their columns.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from operator import itemgetter

from cleveragents.application.services.artifact_compression.kinds.diff.hunk_scan import JoinedLines
from cleveragents.application.services.artifact_compression.kinds.diff.parsing import (
    DiffLineKind,
    Segments,
    diff_segments,
)
from cleveragents.application.services.artifact_compression.kinds.diff.roles import (
    OMITTED_END,
    READERS,
    Comments,
    Reader,
    Role,
)
from cleveragents.application.services.artifact_compression.kinds.diff.signatures import (
    ERROR_WORDS,
    FAMILY,
)
from cleveragents.application.services.artifact_compression.task_terms import TaskTerms

# Smart mode's ranks; the module docstring says why each line goes where.
_NAMES = 0
_SHAPE = 1
_ALERT = 2
_OPENING = 3
_CHANGE = 4
_CONTEXT = 5
_NOISE = 6

_OPENING_CHANGES = 3  # changed lines per hunk ranked `_OPENING`

# Lines git writes between `diff --git` and the first hunk. Anything else there is not part of
# the file's header: text after a file without hunks (a rename, a binary file), such as the
# `format-patch` signature and the next commit's message.
_BINARY_PATCH = "GIT binary patch"
_EXTENDED_HEADERS = (
    _BINARY_PATCH,
    "index ",
    "--- ",
    "+++ ",
    "old mode ",
    "new mode ",
    "deleted file mode ",
    "new file mode ",
    "copy from ",
    "copy to ",
    "rename from ",
    "rename to ",
    "similarity index ",
    "dissimilarity index ",
    "Binary files ",
)
# A line of a binary patch's data: `literal N`/`delta N`, then base85 lines, each starting with
# a letter that gives its length; a blank line ends each block.
_BINARY_DATA = re.compile(r"(?:literal|delta) \d++|[A-Za-z][0-9A-Za-z!#$%&()*+;<=>?@^_`{|}~-]*+")
# Lines of `diff -r` (and `diff -q`) output outside any hunk that name a changed file.
_FILE_NAMING = re.compile(r"diff -\S|Only in \S|(?:Binary files|Files) \S.* differ$")
_DIFFSTAT_SUMMARY = re.compile(r" ?\d+ files? changed(?:, \d+ (?:insertion|deletion)s?\([+-]\))*")
_LOG_COMMIT = re.compile(r"commit [0-9a-f]{7,}\b")
_SIGNATURE = "-- "  # format-patch's signature separator; the git version follows it


@dataclass(slots=True)
class _CommitText:
    """Ranks the text outside any file's diff: a `format-patch` preamble, `git log` headers and
    messages, the signature, `diff -r`'s lines naming files."""

    in_subject: bool = False  # the previous line was the `Subject:` header or its continuation
    awaiting_log_subject: bool = False  # after `commit <sha>`: the message's first line is next
    after_signature: bool = False

    def rank(self, line: str, terms: TaskTerms) -> int:
        stripped = line.strip()
        continued = self.in_subject and line[:1] in (" ", "\t") and bool(stripped)
        self.in_subject = continued or line.startswith("Subject:")
        if self.in_subject:
            return _SHAPE
        if self.awaiting_log_subject and line.startswith("    ") and stripped:
            self.awaiting_log_subject = False
            return _SHAPE  # git log indents the message; its first line is the subject
        if _LOG_COMMIT.match(line):
            self.awaiting_log_subject = True
            return _OPENING
        if self.after_signature:
            self.after_signature = False
            return _NOISE
        if line == _SIGNATURE:
            self.after_signature = True
            return _NOISE
        if _FILE_NAMING.match(line):
            return _NAMES
        if _DIFFSTAT_SUMMARY.fullmatch(line):
            return _SHAPE
        if not stripped:
            return _CONTEXT
        return _ALERT if terms.matches(line) else _OPENING


@dataclass(slots=True)
class DiffLineRanker:
    """Smart mode's rank of each line of a raw diff, in order (module docstring)."""

    terms: TaskTerms
    comments: Comments = field(default_factory=Comments)
    commit_text: _CommitText = field(default_factory=_CommitText)
    # The current file.
    deleted: bool = False
    binary: bool = False
    past_header: bool = False  # a line in the header's place that is not a header line
    named: bool = False  # the file's first header line (`diff --git a/x b/x`) names it already
    # The current hunk.
    columns: int = 1
    changes: int = 0  # changed lines seen that were not ranked better than `_OPENING`
    previous: int = _CONTEXT  # the last line's rank
    _notable: _Notable | None = None  # what the lines of the diff being ranked hold

    def rank(self, line: str, kind: DiffLineKind, starts_file: bool) -> int:
        """The rank of a line that is no hunk body line (those: `rank_body`)."""
        if kind is DiffLineKind.HUNK_HEADER:
            self._open_hunk(line)
            rank = _NAMES
        else:  # the patterns of headers and commit text read lines without a CRLF's `\r`
            text = line[:-1] if line.endswith("\r") else line
            if kind is DiffLineKind.FILE_HEADER:
                rank = self._file_header(text, starts_file)
            else:
                rank = self.commit_text.rank(text, self.terms)
        self.previous = rank
        return rank

    def _open_hunk(self, header: str) -> None:
        self.comments.reset()
        self.columns = max(len(header) - len(header.lstrip("@")) - 1, 1)
        self.changes = 0

    def _file_header(self, line: str, starts_file: bool) -> int:
        if starts_file:
            self.comments.reset()
            self.deleted = self.binary = self.past_header = False
            self.named = line.startswith("diff ")
            return _NAMES
        if self.binary and (not line or _BINARY_DATA.fullmatch(line)):
            return _NOISE
        if self.past_header or not line.startswith(_EXTENDED_HEADERS):
            self.past_header = True
            return self.commit_text.rank(line, self.terms)
        self.binary = self.binary or line == _BINARY_PATCH
        self.deleted = self.deleted or line.startswith(("deleted file mode ", "+++ /dev/null"))
        if line.startswith("index "):
            return _CONTEXT  # blob hashes: nothing a reader of the change needs
        if self.named and line.startswith(("--- ", "+++ ")) and not line.endswith("/dev/null"):
            return _SHAPE  # the paths again, after `diff --git` named them
        return _NAMES

    def scan(self, lines: list[str], segments: Segments) -> None:
        """Find the lines of the diff `lines` that may be more than plain, once (`_Notable`),
        from its `segments` (what `diff_segments` gives), before its hunks are ranked."""
        self._notable = _Notable.of(lines, self.terms, segments)

    def rank_body(
        self, lines: list[str], start: int, end: int, language: str | None, ranks: list[int]
    ) -> None:
        """Append the ranks of the body lines `lines[start:end]` of one hunk (module
        docstring). The lines that may be more than plain (a declaration, an error word, a
        task term, a block comment's start, ``\\ No newline``) are found in the diff's text at
        once (`_Notable`) and read one by one, as are the lines inside a block comment; the
        runs of lines between them are ranked by their markers alone (`_plain_run`)."""
        reader = READERS[FAMILY.get(language or "")]
        inside = self.comments.inside  # the block comment state; `reset` runs between hunks
        block = reader.block_comments
        if self._notable is None or self._notable.lines is not lines:
            self.scan(lines, diff_segments(lines))
        assert self._notable is not None  # for mypy: `scan` set it
        notable = self._notable
        if self.columns != 1:  # a combined diff's hunk: every line is read
            self._read_lines(lines, start, end, end, reader, None, ranks)
            return
        notables = notable.between(start, end)
        following = 0  # the first of `notables` not behind `index`
        index = start
        while index < end:
            while following < len(notables) and notables[following] < index:
                following += 1
            stop = notables[following] if following < len(notables) else end
            if index < stop and not (block and (inside[0] or inside[1])):
                self._plain_run(lines, index, stop, ranks)
                index = stop
            else:  # notable lines in a row, and the lines after while a block comment is open
                through = index + 1
                while following + 1 < len(notables) and notables[following + 1] == through:
                    following += 1
                    through += 1
                index = self._read_lines(lines, index, through, end, reader, notable, ranks)

    def _plain_run(self, lines: list[str], start: int, end: int, ranks: list[int]) -> None:
        """Append the ranks of `lines[start:end]`, lines of one marker column with no
        declaration, error word or task term, outside block comments: context and blank lines
        rank `_CONTEXT`, the first changed ones of the hunk `_OPENING`, the rest `_CHANGE`."""
        run = list(map(_PLAIN_RANKS.__getitem__, map(_MARKER, lines[start:end])))
        if self._notable is not None:
            for index in JoinedLines.between(self._notable.blank_changes, start, end):
                run[index - start] = _CONTEXT
        changed = run.count(_CHANGE)
        at = 0
        for _ in range(min(max(_OPENING_CHANGES - self.changes, 0), changed)):
            at = run.index(_CHANGE, at)  # the first changed lines of the hunk
            run[at] = _OPENING
        self.changes += changed
        if self.deleted:  # the ranks are below `_NOISE`
            run = list(map(_ONE_LOWER, run))
        self.previous = run[-1]
        ranks.extend(run)

    def _read_lines(
        self,
        lines: list[str],
        start: int,
        through: int,
        end: int,
        reader: Reader,
        notable: _Notable | None,
        ranks: list[int],
    ) -> int:
        """Append the ranks of body lines read one by one in the language of their file
        (module docstring): `lines[start:through]`, then each next one up to `end` while a
        block comment is open. `notable`: what the scan found (which lines' code holds a word
        of `ERROR_WORDS`, which match their declaration pattern); None: unknown, each line's
        code is searched. Returns the index after the last line read."""
        columns = self.columns
        comments = self.comments
        inside = comments.inside
        block = reader.block_comments
        # What a line must start with to be more than plain: most lines are told plain from
        # their first and last characters, without a call.
        heads = reader.special_heads
        # The lines the scan found matching their declaration pattern: a pattern's scan also
        # reads the lines of files of no known language between two of its files, so only a
        # file with a pattern of its own trusts it.
        declarations = (
            notable.declared if notable is not None and reader.declaration is not None else None
        )
        terms = self.terms if self.terms.terms else None
        deleted = self.deleted
        changes = self.changes
        previous = self.previous
        append = ranks.append
        index = start
        while True:
            line = lines[index]
            markers = line[:columns]
            if markers[:1] == "\\":  # `\ No newline at end of file`: the line before's rank
                append(previous)
            else:
                code = line[columns:]
                stripped = code.strip()
                if not stripped:
                    rank = _CONTEXT
                else:
                    hint = None if notable is None else index in notable.hinted
                    declared = None if declarations is None else index in declarations
                    plain = (
                        heads is not None
                        and hint is False
                        and stripped[0] not in heads
                        and stripped[-1] != OMITTED_END
                    )
                    role = (
                        Role.PLAIN
                        if plain
                        else reader.role(code, stripped, markers, comments, hint, declared)
                    )
                    if "+" in markers or "-" in markers:  # a changed line
                        if role is Role.DECLARATION:
                            rank = _SHAPE
                        elif role is Role.ERROR or (terms is not None and terms.matches(code)):
                            rank = _ALERT
                        else:
                            changes += 1
                            rank = _OPENING if changes <= _OPENING_CHANGES else _CHANGE
                    elif role is Role.DECLARATION or (terms is not None and terms.matches(code)):
                        rank = _CHANGE
                    else:
                        rank = _CONTEXT
                previous = min(rank + 1, _NOISE) if deleted else rank
                append(previous)
            index += 1
            if index == end or (index >= through and not (block and (inside[0] or inside[1]))):
                break
        self.changes = changes
        self.previous = previous
        return index


_MARKER = itemgetter(slice(0, 1))  # a line's first character, or "" for an empty line
# A plain line's rank by its marker (a changed one: when it is not blank, and not one of the
# first of its hunk); an empty line is a blank context line.
_PLAIN_RANKS = {" ": _CONTEXT, "": _CONTEXT, "+": _CHANGE, "-": _CHANGE}
_ONE_LOWER = (1).__add__  # a rank made one lower (kept later)
_BLANK_CHANGE = re.compile(r"\n[+-][^\S\n]*+$", re.MULTILINE)


@dataclass(slots=True)
class _Notable:
    """The lines of a diff that may be more than plain, found in its joined text once: those
    whose code holds a word of `ERROR_WORDS` (`hinted`), and with them (`listed`, in order)
    the lines naming a task term, holding ``/*`` or matching the declaration pattern of their
    file's language, and the ``\\ No newline`` lines. Read for hunks of one marker column,
    whose lines cannot start with a letter or ``/``: a word in the line is in its code."""

    hinted: set[int]
    declared: set[int]  # the lines whose code matches their file's declaration pattern
    listed: list[int]
    blank_changes: list[int]  # the lines of one marker column, ``+`` or ``-``, and blanks
    lines: list[str]  # the lines read

    @classmethod
    def of(cls, lines: list[str], terms: TaskTerms, segments: Segments) -> _Notable:
        joined = JoinedLines(lines)
        hinted = joined.holding(ERROR_WORDS)
        notable = hinted | set(joined.starting("\\"))
        if terms.terms:
            notable |= joined.holding(terms.terms)
        if "/*" in joined.text:
            notable |= joined.holding(("/*",))
        declared = set(_declarations(joined, segments))
        notable |= declared
        blank_changes = joined.matching(_BLANK_CHANGE)
        return cls(hinted, declared, sorted(notable), blank_changes, lines)

    def between(self, start: int, end: int) -> list[int]:
        """The notable lines from `start` up to `end` (excluded), in order."""
        return JoinedLines.between(self.listed, start, end)


def _declarations(joined: JoinedLines, segments: Segments) -> list[int]:
    """The body lines that match the declaration pattern of their file's language."""
    return matches_by_family(joined, segments, lambda reader: reader.declaration_lines)


def matches_by_family(
    joined: JoinedLines,
    segments: Segments,
    pattern_of: Callable[[Reader], re.Pattern[str] | None],
) -> list[int]:
    """The body lines where the line-bound pattern `pattern_of` gives for the language family
    of their file matches: each run of hunks in one family (the headers between them with
    it) is searched at once. A hit in a header line may be given too."""
    spans: list[list[int]] = []  # [start, end] line indexes of a run of hunks
    patterns: list[re.Pattern[str]] = []  # the pattern of each run
    for kind, language, start, end in segments:
        if kind is not DiffLineKind.BODY:
            continue
        pattern = pattern_of(READERS[FAMILY.get(language or "")])
        if pattern is None:
            continue
        if patterns and patterns[-1] is pattern:
            spans[-1][1] = end
        else:
            patterns.append(pattern)
            spans.append([start, end])
    found: list[int] = []
    place = (0, 0)
    for pattern, (start, end) in zip(patterns, spans, strict=True):
        place = joined.place(start, place)
        stop = joined.place(end, place)
        found += joined.matching(pattern, place, stop)
        place = stop
    return found
