"""The block parser of Plan/PRD markdown, shared by Tier 2's condensation and smart mode's ranks.

A small subset of CommonMark chosen to never rewrite anything verbatim by mistake: fenced code
(any indentation, unclosed fences run to the end), indented code after a blank line, ATX and
setext headings, tables (lines starting with `|`, and pipe-less tables with an alignment row),
front matter, HTML, link reference definitions and thematic breaks are blocks of their own;
everything else is prose. Lines are split on "\\n" only.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from enum import Enum, auto
from typing import NamedTuple

_ATX = re.compile(r" {0,3}#{1,6}(?:[ \t]|$)")
_SETEXT = re.compile(r" {0,3}(?:=+|-+)[ \t]*$")
_FENCE = re.compile(r"\s*(`{3,}|~{3,})(.*)$")
_THEMATIC = re.compile(r" {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$")
ALIGNMENT = re.compile(r"\s*\|?\s*:?-+:?\s*(?:\|\s*:?-+:?\s*)+\|?\s*$|\s*\|\s*:?-+:?\s*\|\s*$")
_HTML = re.compile(r"\s*</?[A-Za-z][A-Za-z0-9-]*(?:[\s/>]|$)")
_LINK_DEF = re.compile(r" {0,3}\[[^\]]+\]:\s*\S")
_LIST_ITEM = re.compile(r"(\s*(?:[-*+]|\d{1,9}[.)]))(?:[ \t]+|$)")
_QUOTE = re.compile(r"\s*>[ \t]?")
_INDENTS = ("    ", "\t")  # what starts a line of indented code
# The first non-blank characters of the blocks that are not prose, but for a thematic break's
# (which starts like a list item: told by its characters) and a table's (told by its `|`).
_STRUCTURE_HEADS = frozenset("`~#<[")


class Kind(Enum):
    BLANK = auto()
    HEADING = auto()
    TABLE = auto()
    FENCED = auto()
    INDENTED = auto()
    FRONT_MATTER = auto()
    VERBATIM = auto()  # HTML, link definitions, thematic breaks
    PROSE = auto()


# The members under names of their own: one read off the class (`Kind.PROSE`) costs a
# descriptor call (some 0.3 µs in Python 3.11, as much as a pattern match), and the scan names
# one for each block it finds.
_PROSE, _HEADING, _TABLE = Kind.PROSE, Kind.HEADING, Kind.TABLE
_FENCED, _INDENTED, _VERBATIM = Kind.FENCED, Kind.INDENTED, Kind.VERBATIM
_BLANK = Kind.BLANK


class Block(NamedTuple):
    """A parsed block. A named tuple: a document has thousands, and a frozen dataclass takes
    several times longer to build."""

    kind: Kind
    lines: tuple[str, ...]
    closed: bool = True  # fenced code only: whether the closing fence is present
    prefix: str = ""  # prose only: indentation plus list marker or `>`
    text: str = ""  # prose only: the lines joined without their markers


Segment = tuple[Kind, int, int, bool, str, str, Sequence[str]]
"""A block as `scan` finds it: its kind, the `start` and `end` of its lines (`lines[start:end]`),
`closed`, `prefix` and `text` as in `Block`, and a prose block's `parts`: each line's content
(without indentation, marker or `>`; only the first can be empty, an empty item), which `text`
joins: a part that is not empty ends where its line's trailing blanks start, so it starts
`len(line.rstrip()) - len(part)` into its line. A plain tuple: smart mode ranks the lines of
the segments without building blocks, which costs a good share of the parse."""


def split_lines(text: str) -> list[str]:
    lines = text.split("\n")
    if text.endswith("\n"):
        lines.pop()
    return lines


def _is_blank(line: str) -> bool:
    return not line.strip()


def _fence_closes(line: str, fence: str) -> bool:
    stripped = line.strip()
    return stripped.startswith(fence) and not stripped.strip(fence[0])


def _is_table_start(lines: list[str], index: int) -> bool:
    line = lines[index]
    if line.lstrip().startswith("|"):
        return True
    return "|" in line and index + 1 < len(lines) and bool(ALIGNMENT.match(lines[index + 1]))


def _opens_fence(line: str) -> str | None:
    if not line.lstrip().startswith(("```", "~~~")):
        return None  # the pattern could not match: spare most lines its cost
    match = _FENCE.match(line)
    if match is None or (match.group(1)[0] == "`" and "`" in match.group(2)):
        return None
    return match.group(1)


def _starts_block(lines: list[str], index: int) -> bool:
    """Whether `lines[index]` interrupts a paragraph (CommonMark-like, plus tables)."""
    line = lines[index]
    return not _plain(line) and _interrupts(lines, index, line.lstrip()[:1])


def _interrupts(lines: list[str], index: int, head: str) -> bool:
    """`_starts_block` of a line that is not `_plain`, whose first non-blank character is
    `head` (empty: the line is blank). Each pattern is tried only where it can match."""
    line = lines[index]
    if not head:
        return True  # a blank line
    return (
        head == ">"  # a block quote
        # A list item first: the next item is what ends most items.
        or ((head in "-*+" or head.isdigit()) and _LIST_ITEM.match(line) is not None)
        or (head == "#" and _ATX.match(line) is not None)
        or (head in "`~" and _opens_fence(line) is not None)
        or (head in "-*_" and _is_thematic(line))
        or (head == "<" and _HTML.match(line) is not None)
        or ("|" in line and _is_table_start(lines, index))
    )


def _plain(line: str) -> bool:
    """A line that can only be prose: it starts with a letter (every block marker starts with
    a space, a digit or punctuation) and has no `|` (no table). Most lines of a document are
    such lines, and this spares them a dozen pattern matches.

    The other tests screen a line by its first non-blank character, the `head`: each pattern
    of a block starts with optional whitespace and then one of a few characters."""
    return line[:1].isalpha() and "|" not in line


def _is_thematic(line: str) -> bool:
    """A thematic break (`---`, `* * *`). Only such marks and blanks make one: testing that
    first spares the pattern the list items, which start like one."""
    return not line.strip("-*_ \t") and _THEMATIC.match(line) is not None


def looks_like_block(text: str) -> bool:
    """Whether a sentence written at the start of a line would be parsed as something else."""
    if _plain(text):
        return False
    return bool(_starts_block([text, ""], 0) or _SETEXT.match(text) or _LINK_DEF.match(text))


def _front_matter(lines: list[str]) -> int:
    """How many lines the front matter (`---` ... `---` or `...` at the start) takes."""
    if lines and lines[0].rstrip() == "---":
        for end in range(1, len(lines)):
            if lines[end].rstrip() in ("---", "..."):
                return end + 1
    return 0


def _code(lines: list[str], start: int, head: str, indented_ok: bool) -> Segment | None:
    """A fenced code block (unclosed: to the end) or, where allowed, an indented one. `head`:
    the line's first non-blank character."""
    fence = _opens_fence(lines[start]) if head in "`~" else None
    index = start + 1
    if fence is not None:
        count = len(lines)
        # A line without the fence in it (most lines of code) is spared the call.
        while index < count and (
            fence not in lines[index] or not _fence_closes(lines[index], fence)
        ):
            index += 1
        closed = index < len(lines)
        return _FENCED, start, index + closed, closed, "", "", ()
    if not (indented_ok and lines[start].startswith(_INDENTS)):
        return None
    while index < len(lines) and (lines[index].startswith(_INDENTS) or _is_blank(lines[index])):
        index += 1
    while _is_blank(lines[index - 1]):
        index -= 1
    return _INDENTED, start, index, True, "", "", ()


def _structure(lines: list[str], start: int, head: str) -> Segment | None:
    """A heading, table, HTML comment or other line kept verbatim; None for prose. Each
    pattern is tried only where the line's first non-blank character, `head`, can start it."""
    line = lines[start]
    index = start + 1
    if head == "#" and _ATX.match(line):
        return _HEADING, start, index, True, "", "", ()
    if "|" in line and _is_table_start(lines, start):
        while index < len(lines) and "|" in lines[index] and not _is_blank(lines[index]):
            index += 1
        return _TABLE, start, index, True, "", "", ()
    if head == "<" and line.lstrip().startswith("<!--"):
        while "-->" not in lines[index - 1] and index < len(lines):
            index += 1
        return _VERBATIM, start, index, True, "", "", ()
    if (
        (head in "-*_" and _is_thematic(line))
        or (head == "<" and _HTML.match(line))
        or (head == "[" and _LINK_DEF.match(line))
    ):
        return _VERBATIM, start, index, True, "", "", ()
    return None


def parse(lines: list[str]) -> Iterator[Block]:
    """Blocks in order; every input line belongs to exactly one block: `scan`'s, and a BLANK
    block for each line between them."""
    position = 0
    for kind, start, end, closed, prefix, text, _ in scan(lines):
        for index in range(position, start):
            yield Block(_BLANK, (lines[index],))
        yield Block(kind, tuple(lines[start:end]), closed, prefix, text)
        position = end
    for index in range(position, len(lines)):
        yield Block(_BLANK, (lines[index],))


def scan(lines: list[str]) -> list[Segment]:
    """The blocks of `lines` that are not blank lines, in order, as segments (`parse` makes
    them blocks): the lines between two segments are blank. Linear: each line is looked at a
    bounded number of times. A list, not a generator: every caller takes them all, and a
    generator's step for each block was measured to cost more than the list.

    Indented code needs a blank line before it and no list item above it, since indented
    lines after a list item continue the item."""
    segments: list[Segment] = []
    index = _front_matter(lines)
    if index:
        segments.append((Kind.FRONT_MATTER, 0, index, True, "", "", ()))
    count = len(lines)
    after_blank = True
    in_list = False
    item: re.Match[str] | None = None  # the list marker of `lines[index]`, found already
    while index < count:
        line = lines[index]
        # The next item of a list (no table row nor thematic break, which is made of `-*_` and
        # blanks only: a line that ends otherwise is none): its marker is known, and it is a
        # list item's block.
        if (
            item is not None
            and "|" not in line
            and (line[-1] not in "-*_ \t" or line.strip("-*_ \t"))
        ):
            found, item = _prose(lines, index, item)
            in_list = True
        # `_plain` (spelt out: `line[0]`, not `line[:1]`, which builds a slice on each line).
        elif line and line[0].isalpha() and "|" not in line:  # a paragraph, whatever is above
            found, item = _prose(lines, index)  # no prefix: no list item's
            in_list = False
        else:
            stripped = line.lstrip()
            if not stripped:  # blank lines before the first block (a block passes its own)
                after_blank = True
                index = _past_blanks(lines, index)
                continue
            head = stripped[0]
            indented_ok = after_blank and not in_list
            if (
                head in _STRUCTURE_HEADS
                or "|" in line
                or (indented_ok and line.startswith(_INDENTS))
                or (head in "-*_" and not line.strip("-*_ \t"))  # may be a thematic break
            ):
                block = _code(lines, index, head, indented_ok) or _structure(lines, index, head)
                found, item = _prose(lines, index) if block is None else (block, None)
            else:  # list items, mostly: only prose starts so, spared the other blocks' tests
                found, item = _prose(lines, index)
            # The prefix of a prose block: a list item's marker, `>`, indentation (which goes
            # on with a list item above it) or nothing, as for every other block.
            prefix = found[4]
            if prefix:
                marker = prefix.lstrip()
                in_list = marker[0] != ">" if marker else in_list
            else:
                in_list = False
        index = found[2]
        segments.append(found)
        # The blank lines after the block (what ends most blocks but list items, which end at
        # the next item) are passed here, not by a turn of the loop each run.
        after_blank = item is None and index < count and not lines[index].strip()
        if after_blank:
            index += 1
            while index < count and not lines[index].strip():
                index += 1
    return segments


def _prose(
    lines: list[str], start: int, item: re.Match[str] | None = None
) -> tuple[Segment, re.Match[str] | None]:
    """A paragraph, list item or block-quote paragraph starting at `start` (lazy continuation
    lines included), or a setext heading when a plain paragraph is underlined; and the list
    marker of the line that ends it, when a list item does. `item`: the first line's list
    marker, when it was found already."""
    first = lines[start]
    quote = marker = None
    # No indentation, marker nor `>`: most paragraphs.
    if item is not None:  # a list item whose marker was found already: most items
        marker = item
        prefix = item.group()
        parts = [first[item.end() :].strip()]
    elif first and first[0].isalpha():
        prefix = ""
        parts = [first.rstrip()]
    else:
        quote, marker, prefix, part = _opening(first)
        parts = [part]
    following = None
    index = start + 1
    count = len(lines)
    while index < count:
        line = lines[index]
        stripped = line.lstrip()
        # Text (indented or not) that starts with a letter and has no `|` can neither end the
        # paragraph nor be quoted or underlined: most lines, spared the other tests.
        if stripped[:1].isalpha() and "|" not in line:
            parts.append(stripped.rstrip())
            index += 1
            continue
        if not stripped:
            break  # a blank line, which `_interrupts` would find; spared the other tests
        head = stripped[0]  # each pattern is tried only where it can match
        quoted = _QUOTE.match(line) if quote and head == ">" else None
        if quoted is not None:
            if _is_blank(line[quoted.end() :]):
                break  # an empty `>` line ends the quoted paragraph
            parts.append(line[quoted.end() :].strip())
        elif marker is None and head in "=-" and _SETEXT.match(line):
            return (_HEADING, start, index + 1, True, "", "", ()), None
        elif (
            # The next list item (what ends most items) first: its marker is handed on.
            ((head in "-*+" or head.isdigit()) and (following := _LIST_ITEM.match(line)))
            or _interrupts(lines, index, head)
            or (head == "[" and _LINK_DEF.match(line))
        ):
            break
        else:
            parts.append(stripped.rstrip())
        index += 1
    # (A marker is never empty: its last character is its own, or a blank after it.)
    if marker is not None and prefix[-1] not in " \t":
        prefix += " "  # an empty item (`-`) or `>` without a space
    # Only the first part can be empty (an empty item): each later line has text, or it would
    # have ended the paragraph.
    text = parts[0] if len(parts) == 1 else " ".join(parts if parts[0] else parts[1:])
    return (_PROSE, start, index, True, prefix, text, parts), following


def _past_blanks(lines: list[str], index: int) -> int:
    """Where the run of blank lines at `index` ends."""
    while index < len(lines) and not lines[index].strip():
        index += 1
    return index


def _opening(first: str) -> tuple[re.Match[str] | None, re.Match[str] | None, str, str]:
    """The first line of a prose block that does not start with a letter nor with a list
    marker found already: its `>` (a quote), its marker (the `>` or a list item's marker), its
    prefix (the marker or the indentation) and its content."""
    head = first.lstrip()[:1]
    quote = _QUOTE.match(first) if head == ">" else None
    marker = quote or (_LIST_ITEM.match(first) if head in "-*+" or head.isdigit() else None)
    prefix = marker.group() if marker else first[: len(first) - len(first.lstrip())]
    return quote, marker, prefix, first[marker.end() if marker else 0 :].strip()
