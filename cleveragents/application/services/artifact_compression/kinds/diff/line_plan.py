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
from dataclasses import dataclass, field

from cleveragents.application.services.artifact_compression.kinds.diff.parsing import DiffLineKind
from cleveragents.application.services.artifact_compression.kinds.diff.roles import (
    OMITTED_END,
    READERS,
    Comments,
    Role,
)
from cleveragents.application.services.artifact_compression.kinds.diff.signatures import (
    ERROR_HINT,
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

    def rank_body(
        self, lines: list[str], start: int, end: int, language: str | None, ranks: list[int]
    ) -> None:
        """Append the ranks of the body lines `lines[start:end]` of one hunk (module
        docstring), with what stays the same over the hunk looked up once and the words of
        `ERROR_WORDS` searched for in the whole hunk at once."""
        columns = self.columns
        reader = READERS[FAMILY.get(language or "")]
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
                    and stripped[-1] != OMITTED_END
                )
                role = Role.PLAIN if plain else reader.role(code, stripped, markers, comments, hint)
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
        self.changes = changes
        self.previous = previous


def _hinted_lines(lines: list[str], start: int, end: int, columns: int) -> set[int]:
    """The indexes of the lines of `lines[start:end]` whose code (after `columns` marker
    columns) holds a word of `ERROR_WORDS`, lower-cased: the words are searched for in the
    lines joined, a few scans in all rather than a pattern for each line."""
    joined = "\n".join(lines[start:end])
    lowered = joined.lower()
    if len(lowered) != len(joined):  # a letter's lower case is longer (`İ`): line by line
        every = range(start, end)
        return {index for index in every if ERROR_HINT.search(lines[index][columns:].lower())}
    found: set[int] = set()
    for word in ERROR_WORDS:
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
