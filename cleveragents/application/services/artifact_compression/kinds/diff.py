"""Code diffs (git's unified format): the Tier 2 compressor and smart mode's line ranks.

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

Hunks are delimited by the line counts of their ``@@`` headers, so a removed line that happens to
read ``--- x`` is body, not a file header; text that is not part of a hunk (a ``format-patch``
preamble, a commit message, the trailer) is kept as is. One pass, constant work per line.

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
from collections.abc import Iterator
from dataclasses import dataclass, field
from enum import Enum, auto

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
    language_for_path,
    line_comment,
)

__all__ = ["DiffCompressor"]


class _Kind(Enum):
    """What a line of a diff is."""

    OTHER = auto()  # preamble, commit message, trailer: not part of any file's diff
    FILE_HEADER = auto()
    HUNK_HEADER = auto()
    BODY = auto()


class _Role(Enum):
    """What the code of a hunk body line is."""

    BLANK = auto()
    COMMENT = auto()
    PLACEHOLDER = auto()  # an earlier pass's summary of a body
    NO_NEWLINE = auto()  # `\ No newline at end of file`
    DECLARATION = auto()  # signature, class/struct/... declaration, decorator
    ERROR = auto()  # error reporting
    PLAIN = auto()


_KEPT_ROLES = frozenset({_Role.NO_NEWLINE, _Role.DECLARATION, _Role.ERROR})

_FILE_STARTS = ("diff --git ", "diff --cc ", "diff --combined ")
_HUNK = re.compile(r"@@ -\d+(?:,(\d+))? \+\d+(?:,(\d+))? @@")

# Signatures and declarations per language family. Every pattern is used with `match` (anchored
# at the start of the code) and is free of nested ambiguous repetition, so each line costs time
# linear in its length.
_MODIFIERS = (
    r"(?:(?:public|private|protected|internal|static|final|abstract|sealed|virtual|override"
    r"|async|export|default|declare|readonly|open|inline|extern|unsafe|const|suspend|data"
    r"|partial|synchronized|native|pub(?:\([^)]*+\))?)\s++)*+"
)
_DECORATOR = r"\s*+@[\w.]"
_DECLARATIONS: dict[str, re.Pattern[str]] = {
    "python": re.compile(r"\s*+(?:async\s++def|def|class)\s|" + _DECORATOR),
    "ruby": re.compile(r"\s*+(?:def|class|module)\s"),
    "shell": re.compile(r"\s*+(?:function\s++[\w.:-]++|[\w.:-]++\s*+\(\s*+\))\s*+(?:[{(]|$)"),
    "js": re.compile(
        r"\s*+" + _MODIFIERS + r"(?:function\b|class\s|interface\s|enum\s|type\s++[\w$]++"
        r"\s*+(?:<[^>]*+>)?\s*+=)"
        r"|\s*+(?:export\s++)?(?:const|let|var)\s++[\w$]++\s*+(?::[^=]*+)?=\s*+(?:async\s++)?"
        r"(?:\([^)]*+\)|[\w$]++)\s*+(?::[^=]*+)?=>"
        r"|\s*+" + _MODIFIERS + r"(?:get\s++|set\s++)?\*?"
        r"(?!(?:if|for|while|switch|catch|with|return|function|typeof|await|new)\b)"
        r"[\w$#]++\s*+(?:<[^>]*+>)?\([^)]*+\)\s*+(?::[^{;]*+)?\{\s*+$|" + _DECORATOR
    ),
    "go": re.compile(r"\s*+(?:func\b|type\s++\w++\s++(?:struct|interface)\b)"),
    "rust": re.compile(
        r"\s*+" + _MODIFIERS + r"(?:extern\s++\"[^\"]*+\"\s++)?"
        r"(?:fn\s|(?:struct|enum|trait|union|type|mod|impl|macro_rules!)\b)|\s*+#!?\["
    ),
    "c": re.compile(
        r"\s*+(?:[\w@]++(?:\([^)]*+\))?\s++)*(?:class|interface|struct|enum|record|trait"
        r"|object|namespace|union|protocol|extension)\s++[\w$]"
        r"|\s*+(?:[\w@]++\s++)*(?:fun|func|def|function|fn)\s++[\w$<`]"
        r"|(?!\s*+(?:if|for|foreach|while|switch|catch|return|else|do|new|throw|case|sizeof"
        r"|delete|using|typedef|goto|await|yield|print|echo|assert)\b)"
        r"\s*+(?:[\w$:<>,.*&\[\]~@?]++\s++)+[*&]*+[\w$:~]++\s*+\("
        r"|" + _DECORATOR
    ),
    "sql": re.compile(
        r"(?i:\s*+create\s++(?:or\s++replace\s++)?(?:function|procedure|table|view|trigger))"
    ),
    "lua": re.compile(r"\s*+(?:local\s++)?function\b"),
}
_FAMILY = {
    "python": "python",
    "ruby": "ruby",
    "shell": "shell",
    "javascript": "js",
    "typescript": "js",
    "tsx": "js",
    "go": "go",
    "rust": "rust",
    "sql": "sql",
    "lua": "lua",
    **dict.fromkeys(("java", "c", "cpp", "csharp", "kotlin", "swift", "php", "scala"), "c"),
}
# Error reporting. Each alternative starts with a letter, `.` or a quote, and checks the word
# boundary before its first letter looking back: the engine then skips ahead to those
# characters rather than trying each alternative at every position of the code.
_ERROR = re.compile(
    r"r(?<=\br)aises?\b|t(?<=\bt)hrows?\b|p(?<=\bp)anic!?\b|a(?<=\ba)(?:bort\b|ssert\w*+\b)"
    # Error(, ValueError(, Err(, Exception {: Err at the start of a word, or Error or
    # Exception anywhere in one.
    r"|E(?:(?<=\bE)rr|rror|xception)\s*+[(!{]"
    r"|e(?<=\be)rrors\.New\b|f(?<=\bf)mt\.Errorf\b"
    r"|\.(?:error|exception|critical|fatal|fail|warn|warning)\s*+\("  # logger.error(, ctx.fail(
    r"|\"[^\"'\n]*?(?i:error|fail)|'[^\"'\n]*?(?i:error|fail)"  # "error" or "fail" in a string
)


# Every alternative of _ERROR contains one of these words: a plain scan for them rules most
# lines out at a fraction of the full pattern's cost. It scans the lower-cased code: a
# case-sensitive alternation of literals is four times faster than an IGNORECASE one.
_ERROR_WORDS = (
    *("rais", "throw", "panic", "abort", "assert", "err", "exception", "fail", "fatal"),
    *("critical", "warn"),
)
_ERROR_HINT = re.compile("|".join(_ERROR_WORDS))
# What the code of a declaration starts with, in the families whose patterns start with a word
# (after blanks): a line that starts otherwise is spared the pattern.
_DECLARATION_STARTS = {
    "python": ("async", "def", "class", "@"),
    "ruby": ("def", "class", "module"),
    "go": ("func", "type"),
    "lua": ("local", "function"),
}
# The line comment of the families whose comments are line comments only (`_Comments`).
_LINE_COMMENTS = {"python": "#", "ruby": "#", "shell": "#", "sql": "--", "lua": "--"}


def _split(text: str) -> tuple[list[str], bool]:
    """The lines of `text` (split on ``\\n`` only) and whether it ended with a newline."""
    lines = text.split("\n")
    if text.endswith("\n"):
        lines.pop()
        return lines, True
    return lines, False


def _path_language(header: str) -> str | None:
    """The language of the path in a ``--- a/x``, ``+++ b/x`` or ``diff --git a/x b/x`` line."""
    if header.startswith("diff "):
        path = header.rsplit(" ", 1)[-1]
    else:
        path = header[4:].split("\t", 1)[0].strip().strip('"')
    return None if path == "/dev/null" else language_for_path(path)


@dataclass(slots=True)
class _Comments:
    """Which side of a hunk (old, new) is inside a ``/* ... */`` block comment."""

    inside: list[bool] = field(default_factory=lambda: [False, False])

    def reset(self) -> None:
        self.inside = [False, False]

    def is_comment(self, marker: str, stripped: str, family: str | None) -> bool:
        """Whether the code is a comment line, updating the block state of its sides."""
        line_comment = _LINE_COMMENTS.get(family or "")
        if line_comment is not None:
            return stripped.startswith(line_comment)
        if family is None:
            return False
        return self.is_block_comment(marker, stripped)

    def is_block_comment(self, marker: str, stripped: str) -> bool:
        """`is_comment` in a family with ``/* ... */`` comments."""
        sides = (0,) if marker == "-" else (1,) if marker == "+" else (0, 1)
        side = sides[-1]
        if self.inside[side]:
            comment = True
            for s in sides:
                self.inside[s] = "*/" not in stripped
        elif stripped.startswith("/*"):
            comment = True
            for s in sides:
                self.inside[s] = "*/" not in stripped[2:]
        else:
            comment = stripped.startswith(("//", "*/", "* ")) or stripped == "*"
        return comment


def _role(line: str, language: str | None, comments: _Comments, columns: int = 1) -> _Role:
    """The role of a hunk body line's code in the language of its file. `columns` is the
    number of marker columns (one per parent: 2 in a combined diff's ``@@@`` hunk)."""
    if line[:1] == "\\":
        return _Role.NO_NEWLINE
    code = line[columns:]
    stripped = code.strip()
    if not stripped:
        return _Role.BLANK
    return _READERS[_FAMILY.get(language or "")].role(code, stripped, line[:columns], comments)


@dataclass(frozen=True, slots=True)
class _Reader:
    """How the code of one language family (None: an unknown language) is read: its line
    comment (None: ``//`` and ``/* ... */``, or no comments), its declaration pattern and what a
    declaration must start with (None: anything)."""

    family: str | None
    line_comment: str | None
    declaration: re.Pattern[str] | None
    declaration_starts: tuple[str, ...] | None
    declaration_heads: frozenset[str]  # the first characters of `declaration_starts`
    # The first characters a line's code must start with to be a comment or a declaration,
    # when they are known (line comments only, declarations screened by their starts): code
    # that starts otherwise, holds no error word and does not end as a placeholder is PLAIN.
    special_heads: frozenset[str] | None

    @classmethod
    def of(cls, family: str | None) -> _Reader:
        line_comment = _LINE_COMMENTS.get(family or "")
        declaration = _DECLARATIONS.get(family or "")
        starts = _DECLARATION_STARTS.get(family or "")
        heads = frozenset(start[0] for start in starts or ())
        special: frozenset[str] | None = None
        if (family is None or line_comment is not None) and (declaration is None or starts):
            special = heads | {line_comment[0]} if line_comment else heads
        return cls(family, line_comment, declaration, starts, heads, special)

    def role(
        self,
        code: str,
        stripped: str,
        markers: str,
        comments: _Comments,
        hinted: bool | None = None,
    ) -> _Role:
        """The role of the code of a hunk body line that is not blank: `stripped` is the code
        without blanks, `markers` the line's marker columns. `hinted`, when known: whether the
        code holds a word of `_ERROR_WORDS` (else it is searched for)."""
        # Each `startswith`/`endswith` is screened by one character, which costs less than
        # the call: most lines are no placeholder, no comment and no declaration.
        if stripped[-1] == _OMITTED_END and stripped.endswith(IMPLEMENTATION_OMITTED):
            return _Role.PLACEHOLDER
        if self.line_comment is not None:
            if stripped[0] == self.line_comment[0] and stripped.startswith(self.line_comment):
                return _Role.COMMENT
        elif self.family is not None and comments.is_block_comment(_side(markers), stripped):
            return _Role.COMMENT
        if self._declares(code, stripped):
            return _Role.DECLARATION
        if hinted is None:
            hinted = _ERROR_HINT.search(code.lower()) is not None
        if hinted and _ERROR.search(code):
            return _Role.ERROR
        return _Role.PLAIN

    def _declares(self, code: str, stripped: str) -> bool:
        if self.declaration is None:
            return False
        starts = self.declaration_starts
        if starts is not None and not (
            stripped[0] in self.declaration_heads and stripped.startswith(starts)
        ):
            return False  # cannot match: spared the pattern
        return self.declaration.match(code) is not None


_OMITTED_END = IMPLEMENTATION_OMITTED[-1]
_READERS = {family: _Reader.of(family) for family in (None, *_FAMILY.values())}


def _side(markers: str) -> str:
    """The one marker that stands for a line's marker columns: ``+`` when any parent's column
    adds it, else ``-`` when one removes it, else a space."""
    if len(markers) == 1:
        return markers
    return "+" if "+" in markers else "-" if "-" in markers else " "


def _scan(lines: list[str]) -> Iterator[tuple[_Kind, str | None]]:
    """Each line's kind and its file's language (see `_segments`)."""
    for kind, language, start, end in _segments(lines):
        for _ in range(start, end):
            yield kind, language


_BODY_MARKERS = frozenset((" ", "+", "-", "\\", ""))  # what a hunk body line starts with


def _segments(lines: list[str]) -> Iterator[tuple[_Kind, str | None, int, int]]:
    """The kind of each line and its file's language, for runs of lines `lines[start:end]`:
    a hunk's body lines are one run, each other line is one. A hunk ends when its header's
    line counts are used up (a combined diff's ``@@@`` header has no counts the pattern reads:
    its hunk ends at the first line that is not a body line)."""
    language: str | None = None
    state = _Kind.OTHER  # OTHER: outside any file; FILE_HEADER; BODY: inside a hunk
    old_left = new_left = 0
    counted = False
    count = len(lines)
    index = 0
    while index < count:
        line = lines[index]
        following = lines[index + 1] if index + 1 < count else ""
        starts_file = line.startswith(_FILE_STARTS) or (
            line.startswith("--- ")
            and following.startswith("+++ ")
            and (state is not _Kind.BODY or not counted)
        )
        if state is _Kind.BODY and not starts_file and line[:1] in _BODY_MARKERS:
            end, old_left, new_left = _body_end(lines, index, old_left, new_left, counted)
            if counted and old_left <= 0 and new_left <= 0:
                state = _Kind.OTHER
            yield _Kind.BODY, language, index, end
            index = end
            continue
        if starts_file:
            state = _Kind.FILE_HEADER
            language = _path_language(line)
            kind = _Kind.FILE_HEADER
        elif line.startswith("@@"):
            state = _Kind.BODY
            match = _HUNK.match(line)
            counted = match is not None
            if match is not None:
                old_left = int(match.group(1) or 1)
                new_left = int(match.group(2) or 1)
            kind = _Kind.HUNK_HEADER
        elif state is _Kind.FILE_HEADER:
            # `+++ /dev/null` (a deleted file) keeps the language of the `--- a/...` path.
            if line.startswith("--- ") or (line.startswith("+++ ") and _path_language(line)):
                language = _path_language(line)
            kind = _Kind.FILE_HEADER
        else:
            state = kind = _Kind.OTHER
        yield kind, language, index, index + 1
        index += 1


def _body_end(
    lines: list[str], index: int, old_left: int, new_left: int, counted: bool
) -> tuple[int, int, int]:
    """Where the run of hunk body lines that starts with the body line `lines[index]` ends,
    and the line counts left of its hunk then. The run ends at a line that is no body line or
    (in a hunk without counts) starts a file, or after the line that uses the counts up. (A
    body line cannot start with one of `_FILE_STARTS`.)"""
    count = len(lines)
    while True:
        stretch = _uncounted_stretch(lines, index, old_left, new_left) if counted else None
        if stretch is not None:  # the lines that cannot use the counts up, all body lines
            index, old_left, new_left = stretch
        else:
            marker = lines[index][:1]
            if marker == "+":
                new_left -= 1
            elif marker == "-":
                old_left -= 1
            elif marker != "\\":  # context: a line of both sides
                old_left -= 1
                new_left -= 1
            index += 1
            if counted and old_left <= 0 and new_left <= 0:
                return index, old_left, new_left
        if index == count:
            return index, old_left, new_left
        line = lines[index]
        if line[:1] not in _BODY_MARKERS:
            return index, old_left, new_left
        if (
            not counted
            and line.startswith("--- ")
            and index + 1 < count
            and lines[index + 1].startswith("+++ ")
        ):
            return index, old_left, new_left  # a file starts


def _uncounted_stretch(
    lines: list[str], index: int, old_left: int, new_left: int
) -> tuple[int, int, int] | None:
    """`_body_end`'s walk over the lines from `index` that cannot use its hunk's counts up (a
    line takes at most one from each count, so the counts last at least the larger of them,
    less one, more lines), done at once when they are all body lines: where it ends, and the
    counts left then. None when that is not worth it or one of them is no body line."""
    span = min(max(old_left, new_left) - 1, len(lines) - index)
    if span < 2:
        return None
    markers = [line[:1] for line in lines[index : index + span]]
    if not _BODY_MARKERS.issuperset(markers):
        return None  # one line at a time, up to that one
    unchanged = span - markers.count("\\")  # `\ No newline` takes from neither count
    old_left -= unchanged - markers.count("+")
    new_left -= unchanged - markers.count("-")
    return index + span, old_left, new_left


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
class _LineRanker:
    """Smart mode's rank of each line of a raw diff, in order (module docstring)."""

    terms: TaskTerms
    comments: _Comments = field(default_factory=_Comments)
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

    def rank(self, line: str, kind: _Kind, starts_file: bool) -> int:
        """The rank of a line that is no hunk body line (those: `rank_body`)."""
        if kind is _Kind.HUNK_HEADER:
            self._open_hunk(line)
            rank = _NAMES
        else:  # the patterns of headers and commit text read lines without a CRLF's `\r`
            text = line[:-1] if line.endswith("\r") else line
            if kind is _Kind.FILE_HEADER:
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

    def rank_body(
        self, lines: list[str], start: int, end: int, language: str | None, ranks: list[int]
    ) -> None:
        """Append the ranks of the body lines `lines[start:end]` of one hunk (module
        docstring), with what stays the same over the hunk looked up once and the words of
        `_ERROR_WORDS` searched for in the whole hunk at once."""
        columns = self.columns
        reader = _READERS[_FAMILY.get(language or "")]
        comments = self.comments
        terms = self.terms if self.terms.terms else None
        deleted = self.deleted
        hinted = _hinted_lines(lines, start, end, columns)
        # What a line must start with to be more than plain: most lines are told plain from
        # their first and last characters, without a call (this loop runs for each line).
        heads = reader.special_heads
        changes = self.changes
        previous = self.previous
        append = ranks.append
        for index in range(start, end):
            line = lines[index]
            markers = line[:columns]
            if markers[:1] == "\\":  # `\ No newline at end of file`: the line before's rank
                append(previous)
                continue
            code = line[columns:]
            stripped = code.strip()
            if not stripped:
                rank = _CONTEXT
            else:
                hint = index in hinted
                plain = (
                    heads is not None
                    and not hint
                    and stripped[0] not in heads
                    and stripped[-1] != _OMITTED_END
                )
                role = (
                    _Role.PLAIN if plain else reader.role(code, stripped, markers, comments, hint)
                )
                if "+" in markers or "-" in markers:  # a changed line
                    if role is _Role.DECLARATION:
                        rank = _SHAPE
                    elif role is _Role.ERROR or (terms is not None and terms.matches(code)):
                        rank = _ALERT
                    else:
                        changes += 1
                        rank = _OPENING if changes <= _OPENING_CHANGES else _CHANGE
                elif role is _Role.DECLARATION or (terms is not None and terms.matches(code)):
                    rank = _CHANGE
                else:
                    rank = _CONTEXT
            previous = min(rank + 1, _NOISE) if deleted else rank
            append(previous)
        self.changes = changes
        self.previous = previous


class DiffCompressor(KindCompressor):
    """The design's code-diff compressor, and smart mode's ranks; see the module docstring."""

    kind = ArtifactKind.DIFF

    def tier2(self, text: str, terms: TaskTerms) -> str:
        lines, final_newline = _split(text)
        out: list[str] = []
        run: list[str] = []  # body lines waiting to become one placeholder
        run_language: str | None = None
        hunks = 0

        def flush() -> None:
            if not run:
                return
            markers = {line[:1] for line in run}
            marker = markers.pop() if len(markers) == 1 and markers <= {"+", "-"} else " "
            first = run[0]
            code = first[1:]
            indent = code[: len(code) - len(code.lstrip(" \t"))]
            comment = line_comment(run_language)
            eol = "\r" if first.endswith("\r") else ""
            placeholder = f"{marker}{indent}{comment} {IMPLEMENTATION_OMITTED}{eol}"
            if len(placeholder) < sum(len(line) + 1 for line in run) - 1:
                out.append(placeholder)
            else:  # a short run (`}`, `return x`) says more, in fewer characters, than its summary
                out.extend(run)
            run.clear()

        for line, (kind, language, role) in zip(lines, _classified(lines), strict=True):
            if kind is not _Kind.BODY:
                hunks += kind is _Kind.HUNK_HEADER
                flush()
                out.append(line)
                continue
            if role is _Role.BLANK:
                continue
            mentioned = role is not _Role.PLACEHOLDER and terms.matches(line[1:])
            if role is _Role.COMMENT and not mentioned:
                continue
            if role in _KEPT_ROLES or mentioned:
                flush()
                out.append(line)
            else:
                run.append(line)
                run_language = language
        flush()
        if hunks and not any(line.startswith("@@") for line in out):
            raise MalformedCompressionError("the compressed diff lost every hunk header")
        return "\n".join(out) + ("\n" if final_newline else "")

    def line_plan(self, lines: list[str], terms: TaskTerms) -> LinePlan:
        ranker = _LineRanker(terms)
        priorities: list[int] = []
        previous = _Kind.OTHER
        for kind, language, start, end in _segments(lines):
            if kind is _Kind.BODY:
                ranker.rank_body(lines, start, end, language, priorities)
            else:  # a line of its own
                line = lines[start]
                starts_file = kind is _Kind.FILE_HEADER and (
                    previous is not _Kind.FILE_HEADER or line.startswith(_FILE_STARTS)
                )
                priorities.append(ranker.rank(line, kind, starts_file))
            previous = kind
        if max(map(len, lines), default=0) <= LONG_LINE_CHARS:
            return LinePlan(priorities)  # no short forms: spares the helper its loop
        return plan_with_short_long_lines(lines, priorities)


def _hinted_lines(lines: list[str], start: int, end: int, columns: int) -> set[int]:
    """The indexes of the lines of `lines[start:end]` whose code (after `columns` marker
    columns) holds a word of `_ERROR_WORDS`, lower-cased: the words are searched for in the
    lines joined, a few scans in all rather than a pattern for each line."""
    joined = "\n".join(lines[start:end])
    lowered = joined.lower()
    if len(lowered) != len(joined):  # a letter's lower case is longer (`İ`): line by line
        every = range(start, end)
        return {index for index in every if _ERROR_HINT.search(lines[index][columns:].lower())}
    found: set[int] = set()
    for word in _ERROR_WORDS:
        at = lowered.find(word)
        while at >= 0:
            found.add(at)
            at = lowered.find(word, at + 1)
    # Each hit's line: the lines between one hit and the next are counted, once in all.
    hinted: set[int] = set()
    line = at_before = 0
    for at in sorted(found):
        line += lowered.count("\n", at_before, at)
        at_before = at
        if at - (lowered.rfind("\n", 0, at) + 1) >= columns:  # in the code, not its markers
            hinted.add(start + line)
    return hinted


def _classified(lines: list[str]) -> list[tuple[_Kind, str | None, _Role | None]]:
    """Each line's kind, language and (for body lines) role, as Tier 2 reads them."""
    comments = _Comments()
    classified: list[tuple[_Kind, str | None, _Role | None]] = []
    for line, (kind, language) in zip(lines, _scan(lines), strict=True):
        if kind is not _Kind.BODY:
            if kind is not _Kind.OTHER:
                comments.reset()
            classified.append((kind, language, None))
        else:
            classified.append((kind, language, _role(line, language, comments)))
    return classified
