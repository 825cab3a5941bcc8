"""Code diffs: what the code of a hunk body line is (blank, comment, declaration, error report...),
read in the language of its file."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from enum import Enum, auto

from cleveragents.application.services.artifact_compression.kinds.diff.hunk_scan import line_bound
from cleveragents.application.services.artifact_compression.kinds.diff.signatures import (
    DECLARATION_STARTS,
    DECLARATIONS,
    ERROR_HINT,
    ERROR_LINE,
    FAMILY,
    LINE_COMMENTS,
)
from cleveragents.domain.languages import IMPLEMENTATION_OMITTED


class Role(Enum):
    """What the code of a hunk body line is."""

    BLANK = auto()
    COMMENT = auto()
    PLACEHOLDER = auto()  # an earlier pass's summary of a body
    NO_NEWLINE = auto()  # `\ No newline at end of file`
    DECLARATION = auto()  # signature, class/struct/... declaration, decorator
    ERROR = auto()  # error reporting
    PLAIN = auto()


@dataclass(slots=True)
class Comments:
    """Which side of a hunk (old, new) is inside a ``/* ... */`` block comment."""

    inside: list[bool] = field(default_factory=lambda: [False, False])

    def reset(self) -> None:
        self.inside = [False, False]

    def is_comment(self, marker: str, stripped: str, family: str | None) -> bool:
        """Whether the code is a comment line, updating the block state of its sides."""
        line_comment = LINE_COMMENTS.get(family or "")
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


def line_role(line: str, language: str | None, comments: Comments, columns: int = 1) -> Role:
    """The role of a hunk body line's code in the language of its file. `columns` is the
    number of marker columns (one per parent: 2 in a combined diff's ``@@@`` hunk)."""
    if line[:1] == "\\":
        return Role.NO_NEWLINE
    code = line[columns:]
    stripped = code.strip()
    if not stripped:
        return Role.BLANK
    return READERS[FAMILY.get(language or "")].role(code, stripped, line[:columns], comments)


@dataclass(frozen=True, slots=True)
class Reader:
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
    # `declaration` as `hunk_scan.line_bound` makes it: the lines of a joined hunk it matches.
    declaration_lines: re.Pattern[str] | None
    # The lines of a joined hunk whose code looks like a comment when no block comment is open
    # (a line comment, or ``//``, ``*/``, ``* `` and ``*`` alone); None: the family has none.
    comment_lines: re.Pattern[str] | None
    # Whether the family's comments are ``//`` and ``/* ... */`` (whose state a hunk's lines
    # carry from one to the next). A field, not a property: it is read once a hunk.
    block_comments: bool

    @classmethod
    def of(cls, family: str | None) -> Reader:
        line_comment = LINE_COMMENTS.get(family or "")
        declaration = DECLARATIONS.get(family or "")
        starts = DECLARATION_STARTS.get(family or "")
        heads = frozenset(start[0] for start in starts or ())
        special: frozenset[str] | None = None
        if (family is None or line_comment is not None) and (declaration is None or starts):
            special = heads | {line_comment[0]} if line_comment else heads
        bound = line_bound(declaration) if declaration is not None else None
        comment_lines = None
        if line_comment is not None:
            comment_lines = re.compile(r"\n[^\n][^\S\n]*+" + re.escape(line_comment))
        elif family is not None:
            comment_lines = re.compile(r"\n[^\n][^\S\n]*+(?://|\*/|\* |\*[^\S\n]*+$)", re.M)
        block = family is not None and line_comment is None
        return cls(
            family, line_comment, declaration, starts, heads, special, bound, comment_lines, block
        )

    def role(
        self,
        code: str,
        stripped: str,
        markers: str,
        comments: Comments,
        hinted: bool | None = None,
        declared: bool | None = None,
    ) -> Role:
        """The role of the code of a hunk body line that is not blank: `stripped` is the code
        without blanks, `markers` the line's marker columns. `hinted`, when known: whether the
        code holds a word of `_ERROR_WORDS` (else it is searched for); `declared`, when known:
        whether the declaration pattern matches the code (else it is matched)."""
        # Each `startswith`/`endswith` is screened by one character, which costs less than
        # the call: most lines are no placeholder, no comment and no declaration.
        if stripped[-1] == OMITTED_END and stripped.endswith(IMPLEMENTATION_OMITTED):
            return Role.PLACEHOLDER
        if self.line_comment is not None:
            if stripped[0] == self.line_comment[0] and stripped.startswith(self.line_comment):
                return Role.COMMENT
        elif self.family is not None and comments.is_block_comment(_side(markers), stripped):
            return Role.COMMENT
        if self._declares(code, stripped) if declared is None else declared:
            return Role.DECLARATION
        if hinted is None:
            hinted = ERROR_HINT.search(code.lower()) is not None
        if hinted and ERROR_LINE.search(code):
            return Role.ERROR
        return Role.PLAIN

    def _declares(self, code: str, stripped: str) -> bool:
        if self.declaration is None:
            return False
        starts = self.declaration_starts
        if starts is not None and not (
            stripped[0] in self.declaration_heads and stripped.startswith(starts)
        ):
            return False  # cannot match: spared the pattern
        return self.declaration.match(code) is not None


OMITTED_END = IMPLEMENTATION_OMITTED[-1]
READERS = {family: Reader.of(family) for family in (None, *FAMILY.values())}


def _side(markers: str) -> str:
    """The one marker that stands for a line's marker columns: ``+`` when any parent's column
    adds it, else ``-`` when one removes it, else a space."""
    if len(markers) == 1:
        return markers
    return "+" if "+" in markers else "-" if "-" in markers else " "
