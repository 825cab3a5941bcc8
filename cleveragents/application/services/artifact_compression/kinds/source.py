"""Whole source files: Tier 2 is a language-aware skeleton through the `SourceSkeletonizer`
port; smart mode ranks the original lines so that every signature, nested ones included, comes
before any body.

Smart mode's ranks (lower is kept first):

* 0: the line that names each declaration, at any depth: every ``def``/``class``/``fn``/``func``
  line, nested functions, closures and methods of nested classes included. In a file of 8
  declarations or more, a name line whose text was not seen before ranks below 0 (-4 for the
  shortest quarter of them to -1 for the longest): when not every name fits, the outline names
  as many declarations as it can, new ones first;
* 1: the rest of every signature (the other lines of a multi-line signature, decorators and
  annotations), imports, the module docstring's first line;
* 2: error statements (``raise``, ``throw``, ``panic!``...) and the first line of each
  function's or class's docstring (or doc comment);
* 3: lines naming a term of the task;
* 4: the lines that close kept blocks (``}``, ``end``), and the first line of every other
  module- or class-level statement (constants, fields);
* 5: every other line (bodies);
* 6: comments and blank lines.

Ranks 0 and 1 together are "every signature before any body". They are two because every kept
line that is not next to another costs an omission marker too: a tight budget (a fifth of the
file) holds every declaration's name line but not every parameter line of the exploded
signatures formatters write, and a name says more than half the signatures complete.

The roles come from the port (tree-sitter) when the language has a grammar and the file parses;
otherwise from patterns per language family (`_FallbackReader`), the diff compressor's
signature patterns among them.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from cleveragents.application.ports.source_skeleton import SourceLines, SourceSkeletonizer

# The diff compressor's per-family signature patterns: one definition of what a signature line
# looks like in each language family, for diffs and for files that do not parse.
from cleveragents.application.services.artifact_compression.kinds.diff.signatures import (
    DECLARATIONS as SIGNATURE_PATTERNS,
)
from cleveragents.application.services.artifact_compression.kinds.diff.signatures import (
    FAMILY as LANGUAGE_FAMILIES,
)
from cleveragents.application.services.artifact_compression.kinds.kind_compressor import (
    KindCompressor,
    LinePlan,
    OutlineRule,
)
from cleveragents.application.services.artifact_compression.kinds.plain_text import (
    PlainTextCompressor,
    plan_with_short_long_lines,
)
from cleveragents.application.services.artifact_compression.task_terms import TaskTerms
from cleveragents.domain.artifact import ArtifactKind
from cleveragents.domain.languages import line_comment

NAME = 0
SIGNATURE = 1
ERROR_OR_DOC = 2
TASK = 3
OUTLINE = 4  # closers of kept blocks, module- and class-level statements
BODY = 5
QUIET = 6  # comments and blank lines

# A marker for dropped lines names them first (`lines 5-9 omitted`, or after a count of repeats
# and `; `); a marker after a cut line (`rest of line 5 omitted`) stands on that line.
_GAP = re.compile(r"(?:^|: )lines? (\d+)(?:-(\d+))?")


class SourceCompressor(KindCompressor):
    """Tier 2 for a whole source file is its skeleton: signatures, declarations and error
    messages kept, bodies elided. When the language has no grammar or the file does not parse,
    the plain-text compressor stands in, so a parse failure never crashes. Smart mode ranks the
    original lines (see the module docstring)."""

    kind = ArtifactKind.SOURCE
    streams = False
    rewrites_text = False
    # Declaration names, first-seen ones included (they rank below NAME): at a twentieth of a
    # file a marker per gap would cost as much as the names between them.
    outline = OutlineRule(rank=NAME, noun="declarations")

    def __init__(self, skeletonizer: SourceSkeletonizer, language: str) -> None:
        self._skeletonizer = skeletonizer
        self._language = language
        self._comment = line_comment(language)
        self._lines: list[str] = []  # the lines last planned: markers take their indentation

    def tier2(self, text: str, terms: TaskTerms) -> str:
        skeleton = self._skeletonizer.skeleton(text, self._language)
        if skeleton is None:
            return PlainTextCompressor().tier2(text, terms)
        return skeleton

    def line_plan(self, lines: list[str], terms: TaskTerms) -> LinePlan:
        """Ranks from the file's roles; a line over 2,000 characters (minified code) is kept
        as its head first, as plain text's are."""
        self._lines = lines
        roles = self._skeletonizer.signature_lines("\n".join(lines), self._language)
        if roles is None:
            roles = _FallbackReader(self._language).read(lines)
        ranks = _ranks(lines, roles, terms)
        return plan_with_short_long_lines(lines, ranks)

    def marker(self, inner: str) -> str:
        """``# … lines 5-9`` in the language's comment syntax, indented like the first
        omitted line that is not blank, so the outline keeps its shape."""
        return f"{self._indent_of_gap(inner)}{self._comment} … {inner}"

    def _indent_of_gap(self, inner: str) -> str:
        match = _GAP.search(inner)
        if match is None:
            return ""
        first = int(match.group(1)) - 1
        last = min(int(match.group(2) or match.group(1)), len(self._lines))
        for line in self._lines[first:last]:
            if line.strip():
                # Spaces and tabs only: other whitespace (a form feed, U+2028) would break
                # the marker's line for a reader that splits lines on it.
                return line[: len(line) - len(line.lstrip(" \t"))]
        return ""


def _ranks(lines: list[str], roles: SourceLines, terms: TaskTerms) -> list[int]:
    """Each line's rank: the best of the roles it has. Filled from the worst role to the best,
    each overwriting the last (a set per role, not seven tests per line)."""
    ranks = [BODY if line and not line.isspace() else QUIET for line in lines]
    by_role: list[tuple[int, Iterable[int]]] = [
        (QUIET, roles.comments),
        (OUTLINE, roles.members),
        (OUTLINE, roles.closers),
    ]
    if terms.terms:
        by_role.append((TASK, [i for i, line in enumerate(lines) if terms.matches(line)]))
    by_role += [
        (ERROR_OR_DOC, roles.docstrings),
        (ERROR_OR_DOC, roles.errors),
        (SIGNATURE, roles.signatures),
        (NAME, roles.names),
    ]
    count = len(lines)
    for rank, indices in by_role:
        for index in indices:
            if index < count:
                ranks[index] = rank
    _order_names(lines, sorted(index for index in roles.names if index < count), ranks)
    return ranks


ORDERED_NAMES_FROM = 8
"""A file with fewer declarations than this ranks their name lines alike."""
NAME_STEPS = 4
"""First-seen name lines rank from NAME - 4 (the shortest quarter) to NAME - 1."""


def _order_names(lines: list[str], names: list[int], ranks: list[int]) -> None:
    """In a file with many declarations, the name lines that are kept first when not all fit:
    a line whose text was not seen before before one that repeats it (a tenth
    ``def __init__(self) -> None:`` says less than a new name), and shorter lines first (each
    names one declaration, and the outline names as many as the budget holds). Repeats keep
    NAME; first-seen lines rank below it by their length's quarter. All of them still come
    before any other line."""
    if len(names) < ORDERED_NAMES_FROM:
        return
    first_seen: dict[str, int] = {}
    for index in names:
        first_seen.setdefault(lines[index].strip(), index)
    lengths = sorted(len(text) for text in first_seen)
    cuts = [lengths[(len(lengths) - 1) * step // NAME_STEPS] for step in range(1, NAME_STEPS)]
    for text, index in first_seen.items():
        quarter = sum(len(text) > cut for cut in cuts)  # 0: among the shortest
        ranks[index] = NAME - NAME_STEPS + quarter


# --- files without a tree: patterns per language family ---------------------------------------

_IMPORT = re.compile(
    r"\s*+(?:import\s|from\s++[\w.]++\s++import\s|#\s*+(?:include|import)\b|use\s|using\s"
    r"|package\s|extern\s++crate\s|(?:require|include)(?:_relative|_once)?\s*+\(?\s*+[\"']"
    r"|source\s|(?:(?:local|const|let|var)\s++)?[\w$]++\s*+=\s*+require\s*+\()"
)
_ERROR = re.compile(
    r"\b(?:raise|throw|panic!?|unreachable!|bail!|abort|perror|die|RAISE)\b"
    r"|\b(?:errors\.New|fmt\.Errorf|Err)\(|\.expect\(|fprintf\(stderr|\berror\(|\bexit\s++[1-9]"
)
# A header declares a type when a type keyword and its name come before anything else: a body,
# bases, generics, `=` (`struct point {`, `class A(Base):`, `impl<T> X for Y {`), not when the
# type is only a return type (`struct inventory *load(...) {`).
_TYPE_HEADER = re.compile(
    r"\b(?:class|struct|interface|enum|trait|impl|module|namespace|object|record|protocol"
    r"|extension|union|type|TABLE|VIEW|table|view)\b\s*+(?:<[^>]*+>\s*+)?[\w$.:]*+"
    r"\s*+(?:[{(<:=]|$|(?:extends|implements|where|for)\b)"
)
_BRACE_CLOSER = re.compile(r"[}\])]++[;,)]*+")
_END_CLOSER = re.compile(r"(?:end|END|fi|done|esac)\b[;,)]*+")
_TRIPLE_QUOTE = re.compile(r"[rRuUbBfF]{0,2}(?:\"\"\"|''')")
_WORD = re.compile(r"[A-Za-z0-9]")
_MAX_SIGNATURE_LINES = 20  # a signature's continuation lines, when brackets stay open
_HASH_FAMILIES = frozenset({"python", "ruby", "shell"})
_DASH_FAMILIES = frozenset({"sql", "lua"})
_END_FAMILIES = frozenset({"ruby", "lua", "sql", "shell"})


@dataclass(slots=True)
class _Block:
    """A block opened by a header: its indentation, whether it is a function's (its lines are
    body) or a type's (its lines are members), and its members' indentation once seen."""

    indent: int
    is_function: bool
    member_indent: int | None = None


class _FallbackReader:
    """The roles of the lines of a file that has no tree, found line by line: signatures by
    the family's pattern (continued while brackets stay open), blocks by indentation, their
    closers when they line up with the header, docstrings and doc comments next to headers."""

    def __init__(self, language: str) -> None:
        self._family = LANGUAGE_FAMILIES.get(language)
        self._signature = SIGNATURE_PATTERNS.get(self._family) if self._family else None
        self._names: set[int] = set()
        self._signatures: set[int] = set()
        self._docstrings: set[int] = set()
        self._errors: set[int] = set()
        self._closers: set[int] = set()
        self._members: set[int] = set()
        self._comments: set[int] = set()
        self._blocks: list[_Block] = []
        self._in_block_comment = False

    def read(self, lines: list[str]) -> SourceLines:
        open_brackets = 0  # of the signature being read
        signature_lines = 0
        awaiting_docstring = False
        if self._family == "python":
            self._module_docstring(lines)
        for index, line in enumerate(lines):
            stripped = line.strip()
            if not stripped:
                continue
            if self._is_comment(stripped):
                self._comments.add(index)
                continue
            head = line[:_MATCHED_CHARS]
            continues = open_brackets > 0 and signature_lines < _MAX_SIGNATURE_LINES
            if continues and not self._starts_signature(head):
                self._signatures.add(index)
                open_brackets = self._open_after(stripped, open_brackets)
                signature_lines += 1
                continue
            if awaiting_docstring and self._docstring(index, lines):
                awaiting_docstring = False
                continue
            awaiting_docstring = False
            if _IMPORT.match(head):
                self._signatures.add(index)  # with the lines of a Go `import (` block
                open_brackets, signature_lines = self._open_after(stripped, 0), 1
                continue
            indent = len(line) - len(line.lstrip())
            if self._starts_signature(head):
                self._header(index, indent, stripped, lines)
                open_brackets, signature_lines = self._open_after(stripped, 0), 1
                awaiting_docstring = self._family == "python"
                continue
            self._statement(index, indent, stripped)
        return SourceLines(
            names=frozenset(self._names),
            signatures=frozenset(self._signatures),
            docstrings=frozenset(self._docstrings),
            errors=frozenset(self._errors),
            closers=frozenset(self._closers),
            members=frozenset(self._members),
            comments=frozenset(self._comments),
        )

    def _open_after(self, stripped: str, open_brackets: int) -> int:
        """The round brackets a signature leaves open after this line of it: a Python header
        ends at its ``:`` even when a bracket was left open (a file that does not parse)."""
        if self._family == "python" and stripped.endswith(":"):
            return 0
        return open_brackets + stripped.count("(") - stripped.count(")")

    def _starts_signature(self, head: str) -> bool:
        return self._signature is not None and self._signature.match(head) is not None

    def _is_comment(self, stripped: str) -> bool:
        """A comment line in the family's syntax, following ``/* ... */`` blocks; a file of
        unknown family has none (``#`` may start anything)."""
        if self._family in _HASH_FAMILIES:
            return stripped.startswith("#") and not stripped.startswith("#[")
        if self._family in _DASH_FAMILIES:
            return stripped.startswith("--")
        if self._family is None:
            return False
        if self._in_block_comment:
            self._in_block_comment = "*/" not in stripped
            return True
        if stripped.startswith("/*"):
            self._in_block_comment = "*/" not in stripped[2:]
            return True
        return stripped.startswith("//")

    def _header(self, index: int, indent: int, stripped: str, lines: list[str]) -> None:
        """A signature or declaration line: a doc comment right above it is its doc, and
        unless it is a decorator it opens a block (closing the blocks it is not inside)."""
        self._signatures.add(index)
        if self._family != "python":
            self._doc_comment_above(index, lines)
        if stripped.startswith(("@", "#[")):
            return
        self._names.add(index)
        while self._blocks and self._blocks[-1].indent >= indent:
            self._blocks.pop()
        is_type = _TYPE_HEADER.search(stripped[:_MATCHED_CHARS]) is not None
        self._blocks.append(_Block(indent, is_function=not is_type))

    def _statement(self, index: int, indent: int, stripped: str) -> None:
        """Any other line: an error, the closer of the block it lines up with, a member of a
        type or of the module, or a body line."""
        if _ERROR.search(stripped):
            self._errors.add(index)
        if stripped == "{" and index - 1 in self._signatures:
            self._signatures.add(index)  # a brace on the line after the signature
            return
        if self._closes_block(indent, stripped):
            self._closers.add(index)
            self._blocks.pop()
            return
        while self._blocks and self._blocks[-1].indent >= indent:
            self._blocks.pop()
        if not self._blocks:
            if indent == 0:  # a module-level statement, not a continuation line
                self._members.add(index)
            return
        block = self._blocks[-1]
        if block.is_function:
            return  # a body line
        if block.member_indent is None:
            block.member_indent = indent
        if indent == block.member_indent:
            self._members.add(index)

    def _closes_block(self, indent: int, stripped: str) -> bool:
        if not self._blocks or self._blocks[-1].indent != indent or self._family == "python":
            return False
        if self._family in _END_FAMILIES and _END_CLOSER.fullmatch(stripped):
            return True
        return bool(_BRACE_CLOSER.fullmatch(stripped))

    def _module_docstring(self, lines: list[str]) -> None:
        """Python: the first line of the module's docstring is a signature of the module."""
        for index, line in enumerate(lines):
            stripped = line.strip()
            if stripped and not stripped.startswith("#"):
                if self._docstring(index, lines):
                    self._signatures.update(self._docstrings)
                    self._docstrings.clear()
                return

    def _docstring(self, index: int, lines: list[str]) -> bool:
        """Python: the first line of a docstring right after a header, and the next line when
        the first holds only the quotes."""
        stripped = lines[index].strip()
        quote = _TRIPLE_QUOTE.match(stripped)
        if quote is None:
            return False
        self._docstrings.add(index)
        if not stripped[quote.end() :].strip() and index + 1 < len(lines):
            self._docstrings.add(index + 1)
        return True

    def _doc_comment_above(self, index: int, lines: list[str]) -> None:
        row = index - 1
        while row >= 0 and row in self._comments:
            row -= 1
        for candidate in range(row + 1, index):
            if _WORD.search(lines[candidate]):
                self._docstrings.add(candidate)
                return


_MATCHED_CHARS = 400
"""Patterns look at a line's first characters only: a signature starts there, and a long line
(minified code) would otherwise cost its whole length in each pattern."""
